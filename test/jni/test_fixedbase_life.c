/*
 * test_fixedbase_life.c - a fixed-base table's life and forgeries, none of
 * which may crash: views of a live block that are not its table
 * (misaligned, of a length not whole limbs, a limb short, shifted, the
 * whole block), a heap buffer, null, a copy of a table in memory jbigi did
 * not allocate, a damaged header word, garbled entries; bad exponents and
 * bounds, nulls before bounds, an exponent of 0; the live table under
 * another generation; then the block freed, and freed again, and its table
 * used after that.  Each is refused with IllegalArgumentException (NullPointerException
 * for null, ArithmeticException for an exponent over the size limit),
 * and nothing is read from memory that is not a live block (a read of the
 * freed, unmapped block would crash the harness).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixedbase_tables.h"
#include "java_exceptions.h"
#include "operands.h"
#include "report.h"
#include "rng.h"
#include "tests.h"

/* nativeModPow, both ways, and the bound form, on buffer: must throw cls. */
static void powers_refused(struct harness *h, jobject buffer, jlong generation, const char *cls, const char *mention,
                           const char *what)
{
    const struct bytes five = {(unsigned char *)"\x05", 1};
    struct outcome o;
    for (int ct = 0; ct <= 1; ct++) {
        char text[160];
        snprintf(text, sizeof text, "%s, nativeModPow(ct %d)", what, ct);
        call_table_power(h, buffer, generation, &five, ct, &o);
        check_outcome(&o, outcome_threw(&o, cls, mention), "FixedBase %s: refused", text);
    }
    call_table_bounded_power(h, buffer, generation, &five, 8, &o);
    char text[160];
    snprintf(text, sizeof text, "%s, nativeModPowCTBound", what);
    check_outcome(&o, outcome_threw(&o, cls, mention), "FixedBase %s: refused", text);
}

void test_fixedbase_life(struct harness *h)
{
    const struct bytes five = {(unsigned char *)"\x05", 1};
    struct bytes m = operand_exact_bits(127, 1), base = bytes_copy("\x02", 1);
    struct outcome o;
    call_begin(h);
    const jlong bytes = h->n.table_bytes(h->env, h->n.fixed_base, 127, 3, 2);
    call_finish(h, NULL, &o);
    outcome_free(&o);
    struct table t;
    if (!table_allocate(h, bytes, &t, "the tables' life"))
        goto done;
    call_build_table(h, t.table_buffer, t.generation, &base, &m, 3, 2, 127, &o);
    check_outcome(&o, outcome_is_clean(&o), "FixedBase life: %s", "nativeBuildTable");
    struct bytes want;
    table_reference(h, &base, &five, &m, &want);

    /* Views of the live block that are not its table. */
    powers_refused(h, table_pinned_buffer(h, t.block + HEADER_BYTES + 4, t.table_bytes - 8), t.generation, IAE,
                   "aligned", "a misaligned view");
    powers_refused(h, table_pinned_buffer(h, t.block + HEADER_BYTES, t.table_bytes - 4), t.generation, IAE, "aligned",
                   "a view of a length not a multiple of 8");
    powers_refused(h, table_pinned_buffer(h, t.block + HEADER_BYTES, t.table_bytes - 8), t.generation, IAE, "table",
                   "a view one limb short");
    powers_refused(h, table_pinned_buffer(h, t.block + HEADER_BYTES + 8, t.table_bytes - 8), t.generation, IAE, "table",
                   "a view shifted by one limb");
    powers_refused(h, t.block_buffer, t.generation, IAE, "table", "the whole block (header included)");
    jobject heap = fake_new_heap_buffer(h->fe);
    fake_pin(h->fe, heap);
    powers_refused(h, heap, t.generation, IAE, "direct", "a heap ByteBuffer");
    powers_refused(h, NULL, t.generation, NPE, "table", "a null table");

    /* A copy of the block in memory jbigi did not allocate: a forgery. */
    unsigned char *foreign = malloc((size_t)t.block_bytes + 64);
    unsigned char *aligned = foreign + (64 - (uintptr_t)foreign % 64) % 64;
    memcpy(aligned, t.block, (size_t)t.block_bytes);
    powers_refused(h, table_pinned_buffer(h, aligned + HEADER_BYTES, t.table_bytes), t.generation, IAE, "live",
                   "a copy of a table in foreign memory");
    call_free_table(h, table_pinned_buffer(h, aligned, t.block_bytes), t.generation, &o);
    const int untouched = memcmp(aligned, t.block, (size_t)t.block_bytes) == 0;
    check_outcome(&o, outcome_threw(&o, IAE, "live") && untouched,
                  "nativeFreeTable of a copy of a block in foreign memory: refused, the memory untouched");
    free(foreign);

    call_free_table(h, t.table_buffer, t.generation, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "live"), "nativeFreeTable of the table slice (not the block): refused");
    call_free_table(h, heap, t.generation, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "live"), "nativeFreeTable of a heap buffer: refused");
    call_free_table(h, NULL, t.generation, &o);
    check_outcome(&o, outcome_threw(&o, NPE, "null"), "nativeFreeTable(null): NullPointerException");

    /* The table still works after all that. */
    call_table_power(h, t.table_buffer, t.generation, &five, 1, &o);
    check_outcome(&o, outcome_is_value(&o, &want), "FixedBase table still right after the refused calls");

    /* A damaged header word is refused; restored, the table works again. */
    for (size_t w = 0; w < 6; w++) {
        uint64_t saved, broken;
        memcpy(&saved, t.block + HEADER_BYTES + 8 * w, 8);
        broken = saved ^ (w == 4 ? (uint64_t)1 << 40 : 1);
        memcpy(t.block + HEADER_BYTES + 8 * w, &broken, 8);
        char what[64];
        snprintf(what, sizeof what, "header word %zu damaged", w);
        powers_refused(h, t.table_buffer, t.generation, IAE, "table", what);
        memcpy(t.block + HEADER_BYTES + 8 * w, &saved, 8);
    }
    call_table_power(h, t.table_buffer, t.generation, &five, 0, &o);
    check_outcome(&o, outcome_is_value(&o, &want), "FixedBase table right again with its header restored");

    /* Garbled entries: any number, no crash; rebuilt, right again. */
    const size_t header_and_modulus = 8 * (6 + (size_t)table_word(&t, 1));
    rng_fill(t.block + HEADER_BYTES + header_and_modulus, (size_t)t.table_bytes - header_and_modulus);
    int garbled_ok = 1;
    for (int ct = 0; ct <= 1; ct++) {
        call_table_power(h, t.table_buffer, t.generation, &five, ct, &o);
        garbled_ok &=
            o.misuses == 0 && (o.thrown[0] != '\0' || (o.value.p != NULL && bytes_canonical(o.value.p, o.value.len)));
        outcome_free(&o);
    }
    report_check(garbled_ok, "FixedBase table with garbled entries: some number or an exception, no crash");
    call_build_table(h, t.table_buffer, t.generation, &base, &m, 3, 2, 127, &o);
    outcome_free(&o);
    call_table_power(h, t.table_buffer, t.generation, &five, 1, &o);
    check_outcome(&o, outcome_is_value(&o, &want), "FixedBase table right again once rebuilt");

    /* Exponents the table path must refuse as NativeBigInteger's do. */
    struct outcome e;
    call_table_power(h, t.table_buffer, t.generation, NULL, 0, &e);
    check_outcome(&e, outcome_threw(&e, NPE, "exponent"), "FixedBase nativeModPow(null exponent): %s",
                  "NullPointerException");
    call_table_power(h, t.table_buffer, t.generation, NULL, 1, &e);
    check_outcome(&e, outcome_threw(&e, NPE, "exponent"), "FixedBase nativeModPow(null exponent, ct): %s",
                  "NullPointerException");
    const struct bytes empty = {five.p, 0};
    call_table_power(h, t.table_buffer, t.generation, &empty, 1, &e);
    check_outcome(&e, outcome_threw(&e, NFE, "Zero length"), "FixedBase nativeModPow(empty exponent, ct): %s",
                  "NumberFormatException");
    struct bytes over = bytes_zeros((size_t)16 * 1024 * 1024 + 1);
    over.p[over.len - 1] = 5;
    for (int ct = 0; ct <= 1; ct++) {
        call_table_power(h, t.table_buffer, t.generation, &over, ct, &e);
        check_outcome(&e, outcome_threw(&e, AE, "limit"),
                      "FixedBase nativeModPow(exponent over 16 MiB, ct %s): ArithmeticException",
                      ct ? "true" : "false");
    }
    call_table_bounded_power(h, t.table_buffer, t.generation, &over, 8, &e);
    check_outcome(&e, outcome_threw(&e, AE, "limit"), "FixedBase nativeModPowCTBound(exponent over 16 MiB): %s",
                  "ArithmeticException");
    bytes_free(&over);
    /* The bound may reach the table's reach rounded up to limbs, no further. */
    const uint64_t reach = table_word(&t, 2) * table_word(&t, 3) * table_word(&t, 4);
    const jint bad_bounds[] = {0, -1, INT_MIN, (jint)((reach + 63) / 64 * 64 + 1), INT_MAX};
    for (size_t i = 0; i < sizeof bad_bounds / sizeof bad_bounds[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "%ld", (long)bad_bounds[i]);
        call_table_bounded_power(h, t.table_buffer, t.generation, &five, bad_bounds[i], &e);
        check_outcome(&e, outcome_threw(&e, IAE, "exponentBits"),
                      "FixedBase nativeModPowCTBound(bound %s): IllegalArgumentException", what);
    }
    const struct bytes eight = {(unsigned char *)"\x08", 1}, minus = {(unsigned char *)"\xfb", 1};
    call_table_bounded_power(h, t.table_buffer, t.generation, &eight, 3, &e);
    check_outcome(&e, outcome_threw(&e, IAE, "below"), "FixedBase nativeModPowCTBound(%s): IllegalArgumentException",
                  "8, bound 3");
    call_table_bounded_power(h, t.table_buffer, t.generation, &minus, 8, &e);
    check_outcome(&e, outcome_threw(&e, IAE, "non-negative"),
                  "FixedBase nativeModPowCTBound(%s): IllegalArgumentException", "-5, bound 8");

    /* Arguments in order, each one's null first (as NativeBigInteger's
     * natives): a null table or exponent is a NullPointerException whatever
     * the bound; and an exponent of 0 gives 1, as BigInteger's modPow. */
    call_table_bounded_power(h, NULL, t.generation, &five, 0, &e);
    check_outcome(&e, outcome_threw(&e, NPE, "table"), "FixedBase nativeModPowCTBound(null table, bound 0): %s",
                  "NullPointerException");
    call_table_bounded_power(h, t.table_buffer, t.generation, NULL, 0, &e);
    check_outcome(&e, outcome_threw(&e, NPE, "exponent"), "FixedBase nativeModPowCTBound(null exponent, bound 0): %s",
                  "NullPointerException");
    const struct bytes zero = {(unsigned char *)"\x00", 1}, one = {(unsigned char *)"\x01", 1};
    const jint zero_bounds[] = {1, 8, 64, 65, 127};
    for (size_t i = 0; i < sizeof zero_bounds / sizeof zero_bounds[0]; i++) {
        call_table_bounded_power(h, t.table_buffer, t.generation, &zero, zero_bounds[i], &e);
        check_outcome(&e, outcome_is_value(&e, &one), "FixedBase nativeModPowCTBound(0, bound %ld) = 1",
                      (long)zero_bounds[i]);
    }
    for (int ct = 0; ct <= 1; ct++) {
        call_table_power(h, t.table_buffer, t.generation, &zero, ct, &e);
        check_outcome(&e, outcome_is_value(&e, &one), "FixedBase nativeModPow(0, ct %d) = 1", ct);
    }
    /* The live table under another generation: refused as stale, untouched. */
    powers_refused(h, t.table_buffer, t.generation + 1, IAE, "stale", "the live table under another generation");
    call_build_table(h, t.table_buffer, t.generation + 1, &base, &m, 3, 2, 127, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "stale"), "nativeBuildTable under another generation: refused");
    call_free_table(h, t.block_buffer, t.generation + 1, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "stale"), "nativeFreeTable under another generation: refused");
    call_table_power(h, t.table_buffer, t.generation, &five, 1, &o);
    check_outcome(&o, outcome_is_value(&o, &want), "FixedBase table right after the calls under another generation");

    /* Freed: every use of the block or its slice is refused, without a
     * read of the unmapped pages (a read would crash here). */
    report_check(table_release(h, &t), "nativeFreeTable of the live block");
    call_free_table(h, t.block_buffer, t.generation, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "freed"), "nativeFreeTable of a freed block: refused");
    powers_refused(h, t.table_buffer, t.generation, IAE, "live", "a table whose block was freed");
    call_build_table(h, t.table_buffer, t.generation, &base, &m, 3, 2, 127, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "live"), "nativeBuildTable on a freed block: refused");
    call_free_table(h, t.block_buffer, t.generation, &o);
    check_outcome(&o, outcome_threw(&o, IAE, "freed"), "nativeFreeTable of a freed block, a third time: refused");
    bytes_free(&want);
done:
    bytes_free(&m);
    bytes_free(&base);
}
