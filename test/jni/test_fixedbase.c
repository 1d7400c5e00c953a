/*
 * test_fixedbase.c - the powers of net.i2p.util.FixedBase's natives, used
 * as FixedBase.java and NativeTable.java use them: nativeTableBytes for a
 * shape, nativeAllocateTable for a block, the table as the block's slice
 * from byte 64, nativeBuildTable, then nativeModPow (variable and constant
 * time) and nativeModPowCTBound at a spread of exponents, each against
 * nativeModPow of NativeBigInteger (and GMP when compiled in), exponents
 * past the table's reach refused, and nativeFreeTable.  Moduli of 2 to
 * 4096 bits, comb shapes from 1 x 1 to 10 x 1 and 2 x 64, reaches of the
 * modulus' width and of 160 to 256 bits.
 *
 * The table's reach (the exponent bits it covers) is read from its header,
 * as FixedBaseBadInputTest does: words 2, 3 and 4 are rows, blocks and
 * block bits (src/core/fixedbase.c).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixedbase_tables.h"
#include "gmp_ref.h"
#include "java_exceptions.h"
#include "operands.h"
#include "report.h"
#include "rng.h"
#include "tests.h"

/*
 * All three table powers of e: the reference value within the table's
 * reach (the bound form at the reach asked and at e's own bits), and
 * ArithmeticException past it (nativeModPow, both ways).
 */
static void table_powers(struct harness *h, struct report_batch *batch, const struct table *t, const struct bytes *b,
                         const struct bytes *m, const struct bytes *e, unsigned max_bits, uint64_t reach,
                         const char *tag)
{
    const size_t bits = bytes_bit_length(e->p, e->len);
    struct outcome o;
    if (bits > reach) {
        for (int ct = 0; ct <= 1; ct++) {
            call_table_power(h, t->table_buffer, t->generation, e, ct, &o);
            report_case(batch, outcome_threw(&o, AE, "longer"), "%s (past the reach), nativeModPow(table, e, %s): %s",
                        tag, ct ? "true" : "false", o.why);
            outcome_free(&o);
        }
        return;
    }
    struct bytes want = {NULL, 0};
    if (!table_reference(h, b, e, m, &want)) {
        report_case(batch, 0, "%s: no reference value for this exponent", tag);
        return;
    }
    for (int ct = 0; ct <= 1; ct++) {
        call_table_power(h, t->table_buffer, t->generation, e, ct, &o);
        const int ok = outcome_is_value(&o, &want);
        report_case(batch, ok, "%s, nativeModPow(table, e, %s): %s", tag, ct ? "true" : "false", o.why);
        outcome_free(&o);
    }
    const jint bounds[] = {(jint)max_bits, (jint)bits};
    for (size_t i = 0; i < 2; i++) {
        if (bounds[i] < 1 || (size_t)bounds[i] < bits)
            continue; /* a bound below e's bits is refused: see life() */
        call_table_bounded_power(h, t->table_buffer, t->generation, e, bounds[i], &o);
        const int ok = outcome_is_value(&o, &want);
        report_case(batch, ok, "%s, nativeModPowCTBound(table, e, %ld): %s", tag, (long)bounds[i], o.why);
        outcome_free(&o);
    }
    bytes_free(&want);
}

/* 2^bits - 1 (bits >= 1), and 2^bits, in toByteArray() form. */
static struct bytes all_ones(unsigned bits)
{
    struct bytes b = bytes_zeros(bits / 8 + 1);
    for (unsigned i = 0; i < bits; i++)
        b.p[b.len - 1 - i / 8] |= (unsigned char)(1u << (i % 8));
    return b;
}

static struct bytes power_of_two(unsigned bits)
{
    struct bytes b = bytes_zeros(bits / 8 + 1);
    b.p[b.len - 1 - bits / 8] = (unsigned char)(1u << (bits % 8));
    return b;
}

/* One table: built, checked at a spread of exponents, freed. */
static void one_table(struct harness *h, struct report_batch *batch, unsigned mod_bits, jint rows, jint blocks,
                      unsigned max_bits)
{
    char tag[96];
    snprintf(tag, sizeof tag, "%u-bit modulus, %ld x %ld comb, reach asked %u", mod_bits, (long)rows, (long)blocks,
             max_bits);
    call_begin(h);
    const jlong bytes = h->n.table_bytes(h->env, h->n.fixed_base, (jint)mod_bits, rows, blocks);
    struct outcome o;
    call_finish(h, NULL, &o);
    if (!outcome_is_clean(&o) || bytes <= 0 || bytes % 8 != 0) {
        report_case(batch, 0, "%s: nativeTableBytes gave %lld %s", tag, (long long)bytes, o.why);
        outcome_free(&o);
        return;
    }
    outcome_free(&o);
    struct table t;
    if (!table_allocate(h, bytes, &t, tag))
        return;
    struct bytes m = operand_exact_bits(mod_bits, 1);
    struct bytes b = operand_random(mod_bits + (unsigned)rng_below(80), 1);
    call_build_table(h, t.table_buffer, t.generation, &b, &m, rows, blocks, (jint)max_bits, &o);
    const int built = outcome_is_clean(&o);
    report_case(batch, built, "%s: nativeBuildTable: %s", tag, o.why);
    outcome_free(&o);
    const uint64_t reach = table_word(&t, 2) * table_word(&t, 3) * table_word(&t, 4);
    if (built && (reach < max_bits || reach > (uint64_t)mod_bits + 64 * (uint64_t)rows * (uint64_t)blocks)) {
        report_case(batch, 0, "%s: the header's reach %llu (words 2..4) is below the reach asked, or absurd", tag,
                    (unsigned long long)reach);
    } else if (built) {
        struct bytes exponents[12];
        size_t n = 0;
        exponents[n++] = bytes_copy("\x00", 1);
        exponents[n++] = bytes_copy("\x01", 1);
        exponents[n++] = bytes_copy("\x02", 1);
        exponents[n++] = bytes_copy("\x00\x00\x05", 3); /* leading zeros (not toByteArray() form) */
        exponents[n++] = all_ones(max_bits);
        exponents[n++] = all_ones((unsigned)reach);
        exponents[n++] = operand_exact_bits(max_bits, 0);
        const unsigned long randoms = rng_scaled(5);
        for (unsigned long i = 0; i < randoms; i++)
            exponents[n++] = operand_exact_bits(1 + (unsigned)rng_below(max_bits), (int)(i & 1));
        for (size_t i = 0; i < n; i++) {
            char etag[160];
            snprintf(etag, sizeof etag, "%s, exponent %zu", tag, i);
            table_powers(h, batch, &t, &b, &m, &exponents[i], max_bits, reach, etag);
            bytes_free(&exponents[i]);
        }
        /* Past the reach, and negative: ArithmeticException both ways. */
        struct bytes too_long = power_of_two((unsigned)reach), negative = bytes_copy("\xfb", 1);
        for (int ct = 0; ct <= 1; ct++) {
            call_table_power(h, t.table_buffer, t.generation, &too_long, ct, &o);
            report_case(batch, outcome_threw(&o, AE, NULL), "%s, exponent 2^reach, ct %d: %s", tag, ct, o.why);
            outcome_free(&o);
            call_table_power(h, t.table_buffer, t.generation, &negative, ct, &o);
            report_case(batch, outcome_threw(&o, AE, NULL), "%s, exponent -5, ct %d: %s", tag, ct, o.why);
            outcome_free(&o);
        }
        bytes_free(&too_long);
        bytes_free(&negative);
    }
    report_case(batch, table_release(h, &t), "%s: nativeFreeTable", tag);
    bytes_free(&m);
    bytes_free(&b);
}

static void powers(struct harness *h, const char *engine)
{
    static const unsigned mod_sizes[] = {2, 3, 64, 65, 71, 255, 521, 1024, 1536, 2048, 3072, 4096};
    static const jint shapes[][2] = {{1, 1}, {3, 2}, {4, 4}, {5, 8}, {8, 4}, {10, 1}, {2, 64}};
    /* Under JBIGI_TEST_SCALE (valgrind), every size but fewer shapes. */
    const size_t shape_step = rng_scaled(100) < 100 ? 3 : 1;
    struct report_batch batch = {0, 0};
    for (size_t i = 0; i < sizeof mod_sizes / sizeof mod_sizes[0]; i++) {
        const unsigned bits = mod_sizes[i];
        for (size_t s = (i % shape_step); s < sizeof shapes / sizeof shapes[0]; s += shape_step) {
            /* Big tables only at the small sizes: 2^10 entries of 4096 bits is 512 KiB. */
            if (bits > 1024 && shapes[s][0] * shapes[s][1] > 32 && shapes[s][0] > 5)
                continue;
            one_table(h, &batch, bits, shapes[s][0], shapes[s][1], bits);
            /* A reach shorter than the modulus, as for DSA's 160- to 256-bit exponents. */
            if (bits > 256 && rng_below(2) == 0)
                one_table(h, &batch, bits, shapes[s][0], shapes[s][1], 160 + (unsigned)rng_below(97));
        }
    }
    report_batch_end(&batch, "FixedBase powers against nativeModPow%s, engine %s",
                     gmp_ref_available() ? " and GMP" : "", engine);
}

void test_fixedbase(struct harness *h, const char *engine)
{
    powers(h, engine);
}
