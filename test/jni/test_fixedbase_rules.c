/*
 * test_fixedbase_rules.c - what the fixed-base natives refuse before a
 * table exists: nativeTableBytes answers 0 (nothing thrown) for a shape or
 * size out of range, nativeAllocateTable throws IllegalArgumentException
 * for a size that is not a multiple of 8 from 8 bytes to 128 MiB, and
 * nativeBuildTable refuses an even modulus or one <= 1
 * (ArithmeticException), a shape, reach or buffer that does not fit
 * (IllegalArgumentException), and null or empty arguments.
 */
#include <limits.h>
#include <stdio.h>

#include "fixedbase_tables.h"
#include "java_exceptions.h"
#include "operands.h"
#include "report.h"
#include "tests.h"

/* nativeTableBytes and nativeAllocateTable out of range. */
static void sizes(struct harness *h)
{
    static const jint bad[][3] = {{1, 1, 1},        {0, 3, 2},         {-5, 3, 2},       {64, 0, 2},
                                  {64, 11, 2},      {64, -1, 2},       {64, 3, 0},       {64, 3, 65},
                                  {64, 3, INT_MIN}, {INT_MAX, 10, 64}, {1 << 24, 10, 64}};
    int ok = 1;
    char detail[160] = "";
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct outcome o;
        call_begin(h);
        const jlong bytes = h->n.table_bytes(h->env, h->n.fixed_base, bad[i][0], bad[i][1], bad[i][2]);
        call_finish(h, NULL, &o);
        if (bytes != 0 || !outcome_is_clean(&o)) {
            ok = 0;
            snprintf(detail, sizeof detail, ": (%ld, %ld, %ld) gave %lld", (long)bad[i][0], (long)bad[i][1],
                     (long)bad[i][2], (long long)bytes);
        }
        outcome_free(&o);
    }
    report_check(ok, "nativeTableBytes is 0 for shapes and sizes out of range, nothing thrown%s", detail);

    static const jlong bad_sizes[] = {0, 4, 7, 12, -8, (jlong)128 * 1024 * 1024 + 8, LLONG_MAX, LLONG_MIN};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        struct outcome o;
        char what[96];
        call_allocate_table(h, bad_sizes[i], &o);
        snprintf(what, sizeof what, "%lld", (long long)bad_sizes[i]);
        check_outcome(&o, outcome_threw(&o, IAE, "size"), "nativeAllocateTable(%s): IllegalArgumentException", what);
    }
}

/* nativeBuildTable refuses bad moduli, shapes, reaches and arguments. */
static void build_refusals(struct harness *h)
{
    struct table t;
    call_begin(h);
    const jlong bytes = h->n.table_bytes(h->env, h->n.fixed_base, 64, 3, 2);
    struct outcome o;
    call_finish(h, NULL, &o);
    outcome_free(&o);
    if (!table_allocate(h, bytes, &t, "build refusals"))
        return;
    struct bytes m = operand_exact_bits(64, 1), three = bytes_copy("\x03", 1);
    static const struct {
        const char *modulus_hex;
        const char *what;
    } bad_moduli[] = {
        {"2", "even"}, {"1", "1"}, {"0", "0"}, {"-7", "negative"}, {"10000000000000000", "even, 65 bits"}};
    for (size_t i = 0; i < sizeof bad_moduli / sizeof bad_moduli[0]; i++) {
        struct bytes bad;
        bytes_from_signed_hex(bad_moduli[i].modulus_hex, &bad);
        call_build_table(h, t.table_buffer, t.generation, &three, &bad, 3, 2, 2, &o);
        check_outcome(&o, outcome_threw(&o, AE, "odd modulus"), "nativeBuildTable, modulus %s: ArithmeticException",
                      bad_moduli[i].what);
        bytes_free(&bad);
    }
    static const jint bad_shapes[][3] = {{0, 2, 8},       {11, 2, 8}, {-1, 2, 8}, {3, 0, 8},  {3, 65, 8},
                                         {3, -5, 8},      {3, 2, 0},  {3, 2, -1}, {3, 2, 65}, {3, 2, INT_MIN},
                                         {INT_MAX, 2, 8}, {4, 4, 8} /* fits the shape's range, not the buffer */};
    for (size_t i = 0; i < sizeof bad_shapes / sizeof bad_shapes[0]; i++) {
        char what[96];
        snprintf(what, sizeof what, "(%ld, %ld, reach %ld)", (long)bad_shapes[i][0], (long)bad_shapes[i][1],
                 (long)bad_shapes[i][2]);
        call_build_table(h, t.table_buffer, t.generation, &three, &m, bad_shapes[i][0], bad_shapes[i][1],
                         bad_shapes[i][2], &o);
        check_outcome(&o, outcome_threw(&o, IAE, "out of range"),
                      "nativeBuildTable, shape %s: IllegalArgumentException", what);
    }
    call_build_table(h, t.table_buffer, t.generation, NULL, &m, 3, 2, 8, &o);
    check_outcome(&o, outcome_threw(&o, NPE, "base"), "nativeBuildTable, %s: NullPointerException", "null base");
    call_build_table(h, t.table_buffer, t.generation, &three, NULL, 3, 2, 8, &o);
    check_outcome(&o, outcome_threw(&o, NPE, "modulus"), "nativeBuildTable, %s: NullPointerException", "null modulus");
    const struct bytes empty = {three.p, 0};
    call_build_table(h, t.table_buffer, t.generation, &empty, &m, 3, 2, 8, &o);
    check_outcome(&o, outcome_threw(&o, NFE, "Zero length"), "nativeBuildTable, %s: NumberFormatException",
                  "empty base");
    call_build_table(h, NULL, t.generation, &three, &m, 3, 2, 8, &o);
    check_outcome(&o, outcome_threw(&o, NPE, "table"), "nativeBuildTable, %s: NullPointerException", "null table");
    bytes_free(&m);
    bytes_free(&three);
    table_release(h, &t);
}

void test_fixedbase_rules(struct harness *h)
{
    sizes(h);
    build_refusals(h);
}
