/*
 * test_fixedbase_races.c - what other Java code can do to a table's memory
 * while a native uses it, or after it is freed, none of which may change a
 * call's answer, crash, or reach another table:
 *
 * - the header written during a call (a hook of the fake JNI writes it as
 *   the native reads the exponent, as another thread could): the call
 *   reads the header once, before, and computes from that reading alone.
 *   The shapes written keep the table's length, so each passes every check
 *   of the header on its own: one of a modulus of 86 limbs, read again
 *   after a 2-limb result was sized, would write 84 limbs past it.
 * - a stale table: a block freed, and a new block allocated until one
 *   lands at the same address (counted as skipped if none does within a
 *   bounded number): every native given the old buffer with the old
 *   generation refuses it as stale or freed, and the new block's table
 *   still works and is freed by its own generation only.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fixedbase_tables.h"
#include "java_exceptions.h"
#include "operands.h"
#include "report.h"
#include "tests.h"

/* GMP's table format ("JBF2"): entries of n limbs. */
#define GMP_FORMAT 0x4a424632u

enum { HDR_WORDS = 6, HDR_LIMBS = 1, HDR_ROWS = 2, HDR_BLOCKS = 3 };

/* The header to write, where, and whether it was written during the call. */
struct rewrite {
    unsigned char *header;
    uint64_t words[HDR_WORDS];
    int written;
};

/* As the native reads the exponent (after any header read it makes first,
 * before the power): the header changes under it. */
static void write_header(void *arg, const char *function)
{
    struct rewrite *w = arg;
    const int reads_exponent =
        strcmp(function, "GetByteArrayRegion") == 0 || strcmp(function, "GetPrimitiveArrayCritical") == 0;
    if (w->written || !reads_exponent)
        return;
    memcpy(w->header, w->words, sizeof w->words);
    w->written = 1;
}

/* A table of a 127-bit modulus (2 limbs), 6 rows x 2 blocks: 264 limbs in
 * GMP's format.  Shapes of the same length, each valid on its own: 2 limbs
 * 7 x 1, 6 limbs 1 x 21, 86 limbs 1 x 1 (6 + n + n v 2^h = 264). */
static const unsigned other_shapes[][3] = {{2, 7, 1}, {6, 1, 21}, {86, 1, 1}};

static void header_written_during_calls(struct harness *h)
{
    struct bytes m = operand_exact_bits(127, 1), base = bytes_copy("\x02", 1);
    struct outcome o;
    call_begin(h);
    const jlong bytes = h->n.table_bytes(h->env, h->n.fixed_base, 127, 6, 2);
    call_finish(h, NULL, &o);
    outcome_free(&o);
    struct table t;
    if (!table_allocate(h, bytes, &t, "the header written during calls"))
        goto done;
    call_build_table(h, t.table_buffer, t.generation, &base, &m, 6, 2, 127, &o);
    check_outcome(&o, outcome_is_clean(&o), "header written during calls: %s", "nativeBuildTable");
    if (bytes != 264 * 8 || table_word(&t, 0) != GMP_FORMAT || table_word(&t, HDR_LIMBS) != 2) {
        report_skip("a header written during calls: the table of a 127-bit modulus is not 264 limbs in GMP's format");
        table_release(h, &t);
        goto done;
    }
    const struct bytes exponents[] = {{(unsigned char *)"\x05", 1},
                                      {(unsigned char *)"\x7f\x12\x34\x56\x78\x9a\xbc\xde\xf0", 9}};
    unsigned char *header = t.block + HEADER_BYTES;
    uint64_t saved[HDR_WORDS];
    memcpy(saved, header, sizeof saved);
    for (size_t s = 0; s < sizeof other_shapes / sizeof other_shapes[0]; s++) {
        for (size_t x = 0; x < sizeof exponents / sizeof exponents[0]; x++) {
            struct bytes want;
            if (!table_reference(h, &base, &exponents[x], &m, &want))
                continue;
            /* nativeModPow variable and constant time, then nativeModPowCTBound. */
            for (int kind = 0; kind < 3; kind++) {
                struct rewrite w = {header, {0}, 0};
                memcpy(w.words, saved, sizeof saved);
                w.words[HDR_LIMBS] = other_shapes[s][0];
                w.words[HDR_ROWS] = other_shapes[s][1];
                w.words[HDR_BLOCKS] = other_shapes[s][2];
                fake_set_hook(h->fe, write_header, &w);
                if (kind < 2)
                    call_table_power(h, t.table_buffer, t.generation, &exponents[x], kind, &o);
                else
                    call_table_bounded_power(h, t.table_buffer, t.generation, &exponents[x], 127, &o);
                fake_set_hook(h->fe, NULL, NULL);
                memcpy(header, saved, sizeof saved);
                static const char *const names[] = {"nativeModPow", "nativeModPow(ct)", "nativeModPowCTBound"};
                check_outcome(&o, w.written && outcome_is_value(&o, &want),
                              "%s, the header rewritten to %u limbs %u x %u while the exponent is read (%s): the "
                              "answer of the header as it was%s",
                              names[kind], other_shapes[s][0], other_shapes[s][1], other_shapes[s][2],
                              x == 0 ? "5" : "a 71-bit exponent", w.written ? "" : " (the hook never ran)");
            }
            bytes_free(&want);
        }
    }
    table_release(h, &t);
done:
    bytes_free(&m);
    bytes_free(&base);
}

/* Every native given a stale table: refused, naming it stale or freed. */
static void stale_refused(struct harness *h, const struct table *stale, const struct bytes *m, const char *what)
{
    const struct bytes five = {(unsigned char *)"\x05", 1}, three = {(unsigned char *)"\x03", 1};
    struct outcome o;
    for (int ct = 0; ct <= 1; ct++) {
        call_table_power(h, stale->table_buffer, stale->generation, &five, ct, &o);
        check_outcome(&o, outcome_threw(&o, IAE, "stale"), "nativeModPow(ct %d) on %s: refused as stale", ct, what);
    }
    call_table_bounded_power(h, stale->table_buffer, stale->generation, &five, 8, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "stale"), "nativeModPowCTBound on %s: refused as stale", what);
    call_build_table(h, stale->table_buffer, stale->generation, &three, m, 3, 2, 127, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "stale"), "nativeBuildTable on %s: refused as stale", what);
    call_free_table(h, stale->block_buffer, stale->generation, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "stale"), "nativeFreeTable of %s: refused as stale", what);
}

static void stale_table_at_a_reused_address(struct harness *h)
{
    enum { TRIES = 64 };
    struct bytes m = operand_exact_bits(127, 1), two = bytes_copy("\x02", 1), three = bytes_copy("\x03", 1);
    const struct bytes five = {(unsigned char *)"\x05", 1};
    struct outcome o;
    call_begin(h);
    const jlong bytes = h->n.table_bytes(h->env, h->n.fixed_base, 127, 3, 2);
    call_finish(h, NULL, &o);
    outcome_free(&o);
    struct table old, tried[TRIES];
    int n = 0, reused = -1;
    if (!table_allocate(h, bytes, &old, "a stale table"))
        goto done;
    call_build_table(h, old.table_buffer, old.generation, &two, &m, 3, 2, 127, &o);
    check_outcome(&o, outcome_is_clean(&o), "a stale table: %s", "nativeBuildTable");
    report_check(table_release(h, &old), "a stale table: nativeFreeTable");
    while (n < TRIES && reused < 0) {
        if (!table_allocate(h, bytes, &tried[n], "a block after a freed one"))
            break;
        if (tried[n].block == old.block)
            reused = n;
        n++;
    }
    if (reused < 0) {
        report_skip("a stale table: no new block landed at the freed block's address in %d allocations", n);
        goto release;
    }
    struct table *now = &tried[reused];
    report_check(now->generation != old.generation, "a new block at a freed block's address: a new generation");
    call_build_table(h, now->table_buffer, now->generation, &three, &m, 3, 2, 127, &o);
    check_outcome(&o, outcome_is_clean(&o), "the new block at the freed one's address: %s", "nativeBuildTable");
    stale_refused(h, &old, &m, "the freed table whose address a new block took");
    /* The new owner's table untouched: 3^5, not 2^5 and not rebuilt. */
    struct bytes want;
    if (table_reference(h, &three, &five, &m, &want)) {
        for (int ct = 0; ct <= 1; ct++) {
            call_table_power(h, now->table_buffer, now->generation, &five, ct, &o);
            check_outcome(&o, outcome_is_value(&o, &want), "the new block's table after the stale calls (ct %d): 3^5",
                          ct);
        }
        bytes_free(&want);
    }
release:
    for (int i = 0; i < n; i++)
        report_check(table_release(h, &tried[i]), "block %d after the freed one: freed by its own generation", i);
done:
    bytes_free(&m);
    bytes_free(&two);
    bytes_free(&three);
}

void test_fixedbase_races(struct harness *h)
{
    header_written_during_calls(h);
    stale_table_at_a_reused_address(h);
}
