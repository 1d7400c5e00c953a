/*
 * test_bad_inputs.c - bad arguments to the NativeBigInteger natives: each
 * must leave the documented exception pending, with a message naming the
 * problem, and nothing may crash.  What is documented (NativeBigInteger's
 * native declarations, BadInputTest.java, BadInputs.java, src/jni/):
 *
 *   null array              NullPointerException naming the argument
 *   empty array             NumberFormatException "Zero length BigInteger"
 *                           (the fixed-length form: IllegalArgumentException "... is empty")
 *   over 16 MiB             ArithmeticException naming the argument and the limit
 *   modulus <= 0            ArithmeticException "modulus not positive"
 *   even modulus (CT forms) ArithmeticException "... odd ..."
 *   exponent <= 0 (CT)      ArithmeticException "... positive ..."
 *   no inverse              ArithmeticException "not invertible"
 *   a bound out of range, or an exponent negative or not below 2^bound
 *                           IllegalArgumentException
 *   nativeJacobi: n <= 0    ArithmeticException "... n must be positive"
 *   nativeJacobi: n even    ArithmeticException "... n must be odd"
 *
 * The crossed cases (BadInputMatrixTest's matrix) are in test_bad_matrix.c.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "java_exceptions.h"
#include "report.h"
#include "tests.h"

/* JBIGI_MAX_OPERAND_BYTES in src/jni/jni_util.h (BadInputs.LIMIT). */
#define LIMIT (16L * 1024 * 1024)

/* Small constant operands. */
#define CONST_BYTES(name, ...)                                                                                         \
    static const unsigned char name##_bytes[] = {__VA_ARGS__};                                                         \
    static const struct bytes name = {(unsigned char *)name##_bytes, sizeof name##_bytes}

CONST_BYTES(ONE, 1);
CONST_BYTES(TWO, 2);
CONST_BYTES(THREE, 3);
CONST_BYTES(FIVE, 5);
CONST_BYTES(SEVEN, 7);
CONST_BYTES(EIGHT, 8);
CONST_BYTES(NINE, 9);
CONST_BYTES(ZERO, 0);
CONST_BYTES(MINUS_ONE, 0xff);
CONST_BYTES(MINUS_TWO, 0xfe);
CONST_BYTES(MINUS_FIVE, 0xfb);
CONST_BYTES(MINUS_128, 0x80);
CONST_BYTES(MINUS_BIG, 0xff, 0, 0, 1);
CONST_BYTES(ZERO_ZERO, 0, 0);
CONST_BYTES(ZERO_SEVEN, 0, 7);
CONST_BYTES(ZERO_TWO, 0, 2);
CONST_BYTES(ZERO_X4, 0, 0, 0, 0);
CONST_BYTES(FOUR, 4);
CONST_BYTES(ZERO_FOUR, 0, 4);
static unsigned char empty_byte;
static const struct bytes EMPTY = {&empty_byte, 0};

static void expect_power(struct harness *h, power_fn *fn, const char *name, arg b, arg e, arg m, const char *cls,
                         const char *mention, const char *what)
{
    struct outcome o;
    call_power(h, fn, b, e, m, &o);
    check_outcome(&o, outcome_threw(&o, cls, mention), "%s %s: %s", name, what, cls + strlen("java/lang/"));
}

static void expect_bounded(struct harness *h, arg b, arg e, arg m, jint bits, const char *cls, const char *mention,
                           const char *what)
{
    struct outcome o;
    call_bounded_power(h, b, e, m, bits, &o);
    check_outcome(&o, outcome_threw(&o, cls, mention), "nativeModPowCTBound %s: %s", what, cls + strlen("java/lang/"));
}

static void expect_inverse(struct harness *h, arg v, arg m, const char *cls, const char *mention, const char *what)
{
    struct outcome o;
    call_inverse(h, v, m, &o);
    check_outcome(&o, outcome_threw(&o, cls, mention), "nativeModInverse %s: %s", what, cls + strlen("java/lang/"));
}

/* The three BigInteger-form powers and the bound form, one argument position bad. */
static void each_position(struct harness *h, arg bad, const char *cls_big, const char *cls_fixed, const char *kind)
{
    static const char *const names[] = {"base", "exponent", "modulus"};
    const struct {
        power_fn *fn;
        const char *name;
        int fixed;
    } powers[] = {
        {h->n.mod_pow, "nativeModPow", 0},
        {h->n.mod_pow_ct, "nativeModPowCT", 0},
        {h->n.mod_pow_ct_fixed, "nativeModPowCTFixed", 1},
    };
    for (size_t p = 0; p < 3; p++) {
        arg args[3] = {&THREE, &THREE, &SEVEN};
        args[p] = bad;
        char what[96];
        snprintf(what, sizeof what, "%s %s", kind, names[p]);
        for (size_t f = 0; f < sizeof powers / sizeof powers[0]; f++) {
            const char *cls = powers[f].fixed ? cls_fixed : cls_big;
            /* Null and over-limit messages name the argument; an empty
             * BigInteger array says what new BigInteger(new byte[0]) says. */
            const char *mention = strcmp(cls, NFE) == 0 ? "Zero length BigInteger" : names[p];
            expect_power(h, powers[f].fn, powers[f].name, args[0], args[1], args[2], cls, mention, what);
        }
        /* The bound form refuses a bad array as the others do, an
         * exponent array over the limit too: ArithmeticException naming
         * the limit, as FixedBase's bound form and the rule for all
         * natives (BadInputs) say, before the bound is looked at. */
        if (p == 1 && strcmp(kind, "oversize") == 0) {
            struct outcome o;
            call_bounded_power(h, args[0], args[1], args[2], 8, &o);
            check_outcome(&o, outcome_threw(&o, AE, "limit"),
                          "nativeModPowCTBound oversize exponent: ArithmeticException naming the limit");
            continue;
        }
        const char *mention = strcmp(cls_big, NFE) == 0 ? "Zero length BigInteger" : names[p];
        expect_bounded(h, args[0], args[1], args[2], 8, cls_big, mention, what);
    }
    const char *mention = strcmp(cls_big, NFE) == 0 ? "Zero length BigInteger" : NULL;
    char what[96];
    snprintf(what, sizeof what, "%s value", kind);
    expect_inverse(h, bad, &SEVEN, cls_big, mention != NULL ? mention : "value", what);
    snprintf(what, sizeof what, "%s modulus", kind);
    expect_inverse(h, &THREE, bad, cls_big, mention != NULL ? mention : "modulus", what);
}

static void arithmetic_refusals(struct harness *h)
{
    const struct bytes *not_positive[] = {&ZERO, &MINUS_ONE, &MINUS_128, &MINUS_BIG};
    for (size_t i = 0; i < sizeof not_positive / sizeof not_positive[0]; i++) {
        char hex[64], what[96];
        snprintf(what, sizeof what, "modulus 0x%s",
                 bytes_hex(not_positive[i]->p, not_positive[i]->len, hex, sizeof hex));
        expect_power(h, h->n.mod_pow, "nativeModPow", &THREE, &THREE, not_positive[i], AE, "modulus not positive",
                     what);
        expect_power(h, h->n.mod_pow_ct, "nativeModPowCT", &THREE, &THREE, not_positive[i], AE, "modulus not positive",
                     what);
        expect_bounded(h, &THREE, &THREE, not_positive[i], 8, AE, "modulus not positive", what);
        expect_inverse(h, &THREE, not_positive[i], AE, "modulus not positive", what);
    }
    /* Unsigned arrays cannot be negative: only zero is not positive. */
    expect_power(h, h->n.mod_pow_ct_fixed, "nativeModPowCTFixed", &THREE, &THREE, &ZERO, AE, "not positive",
                 "modulus 0");
    expect_power(h, h->n.mod_pow_ct_fixed, "nativeModPowCTFixed", &THREE, &THREE, &ZERO_ZERO, AE, "not positive",
                 "modulus 0x0000");

    const struct bytes *even[] = {&EIGHT, &TWO, &ZERO_TWO};
    for (size_t i = 0; i < sizeof even / sizeof even[0]; i++) {
        char hex[64], what[96];
        snprintf(what, sizeof what, "even modulus 0x%s", bytes_hex(even[i]->p, even[i]->len, hex, sizeof hex));
        expect_power(h, h->n.mod_pow_ct, "nativeModPowCT", &THREE, &THREE, even[i], AE, "odd", what);
        expect_bounded(h, &THREE, &THREE, even[i], 8, AE, "odd", what);
        expect_power(h, h->n.mod_pow_ct_fixed, "nativeModPowCTFixed", &THREE, &THREE, even[i], AE, "odd", what);
    }

    expect_power(h, h->n.mod_pow_ct, "nativeModPowCT", &THREE, &ZERO, &SEVEN, AE, "positive", "exponent 0");
    expect_power(h, h->n.mod_pow_ct, "nativeModPowCT", &THREE, &MINUS_ONE, &SEVEN, AE, "positive", "exponent -1");
    expect_power(h, h->n.mod_pow_ct, "nativeModPowCT", &THREE, &ZERO_ZERO, &SEVEN, AE, "positive", "exponent 0x0000");
    /* Under a bound an exponent of 0 gives BigInteger's 1 (0 for the modulus 1). */
    struct outcome z;
    call_bounded_power(h, &THREE, &ZERO, &SEVEN, 8, &z);
    check_outcome(&z, outcome_is_value(&z, &ONE), "nativeModPowCTBound 3^0 mod 7 = 1, as BigInteger");
    call_bounded_power(h, &THREE, &ZERO_ZERO, &ONE, 1, &z);
    check_outcome(&z, outcome_is_value(&z, &ZERO), "nativeModPowCTBound 3^0 mod 1 = 0, as BigInteger");
    expect_bounded(h, &THREE, &MINUS_ONE, &SEVEN, 8, IAE, "non-negative", "exponent -1");
    expect_power(h, h->n.mod_pow_ct_fixed, "nativeModPowCTFixed", &THREE, &ZERO, &SEVEN, AE, "positive", "exponent 0");
    expect_power(h, h->n.mod_pow_ct_fixed, "nativeModPowCTFixed", &THREE, &ZERO_X4, &SEVEN, AE, "positive",
                 "exponent 0x00000000");

    expect_inverse(h, &THREE, &NINE, AE, "not invertible", "3 mod 9");
    expect_inverse(h, &ZERO, &SEVEN, AE, "not invertible", "0 mod 7");
    expect_power(h, h->n.mod_pow, "nativeModPow", &THREE, &MINUS_ONE, &NINE, AE, "not invertible", "3^-1 mod 9");
    expect_power(h, h->n.mod_pow, "nativeModPow", &ZERO, &MINUS_FIVE, &SEVEN, AE, "not invertible", "0^-5 mod 7");

    struct outcome o;
    call_power(h, h->n.mod_pow, &THREE, &MINUS_TWO, &SEVEN, &o);
    check_outcome(&o, outcome_is_value(&o, &FOUR), "nativeModPow 3^-2 mod 7 = 4 (version 5: the inverse's power)");
}

static void bound_refusals(struct harness *h)
{
    const jint bad_bounds[] = {0, -1, INT_MIN, (1 << 27) + 1, INT_MAX};
    for (size_t i = 0; i < sizeof bad_bounds / sizeof bad_bounds[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "bound %ld", (long)bad_bounds[i]);
        expect_bounded(h, &TWO, &FIVE, &SEVEN, bad_bounds[i], IAE, "exponentBits", what);
        /* Each array before the bound, and the bound before the modulus' value. */
        snprintf(what, sizeof what, "null base, bound %ld", (long)bad_bounds[i]);
        expect_bounded(h, NULL, &FIVE, &SEVEN, bad_bounds[i], NPE, "base", what);
        snprintf(what, sizeof what, "null modulus, bound %ld", (long)bad_bounds[i]);
        expect_bounded(h, &TWO, &FIVE, NULL, bad_bounds[i], NPE, "modulus", what);
        snprintf(what, sizeof what, "empty exponent, bound %ld", (long)bad_bounds[i]);
        expect_bounded(h, &TWO, &EMPTY, &SEVEN, bad_bounds[i], NFE, "Zero length BigInteger", what);
        snprintf(what, sizeof what, "even modulus, bound %ld", (long)bad_bounds[i]);
        expect_bounded(h, &TWO, &FIVE, &EIGHT, bad_bounds[i], IAE, "exponentBits", what);
    }
    expect_bounded(h, &TWO, &EIGHT, &EIGHT, 3, IAE, "below 2^exponentBits", "exponent 8 over bound 3, even modulus");
    expect_bounded(h, &TWO, &EIGHT, &SEVEN, 3, IAE, "below 2^exponentBits", "exponent 8 over bound 3");

    /* What NativePowers' EdgeToEdge probe asks before trusting the
     * constant-time natives: 2^5 mod 7 = 4 both ways. */
    struct outcome o;
    call_power(h, h->n.mod_pow_ct_fixed, &TWO, &FIVE, &ZERO_SEVEN, &o);
    check_outcome(&o, outcome_is_bytes(&o, &ZERO_FOUR),
                  "nativeModPowCTFixed({2}, {5}, {0, 7}) = {0, 4} (the loader's probe)");
    call_bounded_power(h, &TWO, &FIVE, &SEVEN, 3, &o);
    check_outcome(&o, outcome_is_value(&o, &FOUR), "nativeModPowCTBound({2}, {5}, {7}, 3) = {4} (the loader's probe)");
}

/* An array of len bytes holding value (one byte) at its end: huge but easy. */
static struct bytes long_array(size_t len, unsigned char value)
{
    struct bytes b = bytes_zeros(len);
    b.p[len - 1] = value;
    return b;
}

static void size_limit(struct harness *h)
{
    struct bytes over = long_array((size_t)LIMIT + 1, 1);
    each_position(h, &over, AE, AE, "oversize");
    bytes_free(&over);

    /* At the limit exactly: taken (values 1, 2 and 7 in 16 MiB arrays). */
    struct bytes one = long_array((size_t)LIMIT, 1), two = long_array((size_t)LIMIT, 2),
                 seven = long_array((size_t)LIMIT, 7);
    const unsigned char one_byte = 1, two_byte = 2;
    const struct bytes want_one = {(unsigned char *)&one_byte, 1}, want_two = {(unsigned char *)&two_byte, 1};
    struct outcome o;
    call_power(h, h->n.mod_pow, &one, &THREE, &SEVEN, &o);
    check_outcome(&o, outcome_is_value(&o, &want_one), "nativeModPow takes a 16 MiB base (the limit): 1^3 mod 7 = 1");
    call_power(h, h->n.mod_pow, &THREE, &two, &SEVEN, &o);
    check_outcome(&o, outcome_is_value(&o, &want_two), "nativeModPow takes a 16 MiB exponent: 3^2 mod 7 = 2");
    call_power(h, h->n.mod_pow, &THREE, &TWO, &seven, &o);
    check_outcome(&o, outcome_is_value(&o, &want_two), "nativeModPow takes a 16 MiB modulus: 3^2 mod 7 = 2");
    call_inverse(h, &THREE, &seven, &o);
    check_outcome(&o, outcome_is_value(&o, &FIVE), "nativeModInverse takes a 16 MiB modulus: 3^-1 mod 7 = 5");
    bytes_free(&one);
    bytes_free(&two);
    bytes_free(&seven);
}

static void expect_jacobi_threw(struct harness *h, arg a, arg n, const char *cls, const char *mention,
                                const char *what)
{
    struct outcome o;
    jint symbol;
    call_jacobi(h, a, n, &symbol, &o);
    check_outcome(&o, outcome_threw(&o, cls, mention), "nativeJacobi %s: %s", what, cls + strlen("java/lang/"));
}

static void expect_jacobi(struct harness *h, arg a, arg n, jint want, const char *what)
{
    struct outcome o;
    jint symbol;
    call_jacobi(h, a, n, &symbol, &o);
    int ok = outcome_is_clean(&o);
    if (ok && symbol != want) {
        snprintf(o.why, sizeof o.why, "returned %ld, not %ld", (long)symbol, (long)want);
        ok = 0;
    }
    check_outcome(&o, ok, "nativeJacobi %s = %ld", what, (long)want);
}

/* nativeJacobi: each array null, empty or over the limit, n not positive
 * or even; the loader's probe and a few known symbols, one at the limit. */
static void jacobi_checks(struct harness *h)
{
    expect_jacobi_threw(h, NULL, &SEVEN, NPE, "a is null", "null a");
    expect_jacobi_threw(h, &THREE, NULL, NPE, "n is null", "null n");
    expect_jacobi_threw(h, &EMPTY, &SEVEN, NFE, "Zero length BigInteger", "empty a");
    expect_jacobi_threw(h, &THREE, &EMPTY, NFE, "Zero length BigInteger", "empty n");
    const struct bytes *not_positive[] = {&ZERO, &MINUS_ONE, &MINUS_128, &MINUS_BIG, &ZERO_ZERO};
    for (size_t i = 0; i < sizeof not_positive / sizeof not_positive[0]; i++) {
        char hex[64], what[96];
        snprintf(what, sizeof what, "n 0x%s", bytes_hex(not_positive[i]->p, not_positive[i]->len, hex, sizeof hex));
        expect_jacobi_threw(h, &THREE, not_positive[i], AE, "n must be positive", what);
    }
    const struct bytes *even[] = {&EIGHT, &TWO, &ZERO_TWO, &FOUR};
    for (size_t i = 0; i < sizeof even / sizeof even[0]; i++) {
        char hex[64], what[96];
        snprintf(what, sizeof what, "n 0x%s", bytes_hex(even[i]->p, even[i]->len, hex, sizeof hex));
        expect_jacobi_threw(h, &THREE, even[i], AE, "n must be odd", what);
    }
    /* Jacobi.Native's probe: (2/7) = 1, (3/7) = -1, (14/7) = 0 */
    const unsigned char fourteen = 14;
    const struct bytes FOURTEEN = {(unsigned char *)&fourteen, 1};
    expect_jacobi(h, &TWO, &SEVEN, 1, "(2/7)");
    expect_jacobi(h, &THREE, &SEVEN, -1, "(3/7)");
    expect_jacobi(h, &FOURTEEN, &SEVEN, 0, "(14/7)");
    expect_jacobi(h, &MINUS_ONE, &SEVEN, -1, "(-1/7)");
    expect_jacobi(h, &MINUS_TWO, &ZERO_SEVEN, -1, "(-2/7)");
    expect_jacobi(h, &FIVE, &NINE, 1, "(5/9)");
    expect_jacobi(h, &THREE, &NINE, 0, "(3/9)");
    expect_jacobi(h, &ZERO, &ONE, 1, "(0/1)");

    struct bytes over = long_array((size_t)LIMIT + 1, 1);
    expect_jacobi_threw(h, &over, &SEVEN, AE, "a is 16777217 bytes", "oversize a");
    expect_jacobi_threw(h, &THREE, &over, AE, "n is 16777217 bytes", "oversize n");
    bytes_free(&over);
    struct bytes two = long_array((size_t)LIMIT, 2), seven = long_array((size_t)LIMIT, 7);
    expect_jacobi(h, &two, &SEVEN, 1, "(2/7), a in a 16 MiB array (the limit)");
    expect_jacobi(h, &THREE, &seven, -1, "(3/7), n in a 16 MiB array");
    bytes_free(&two);
    bytes_free(&seven);
}

void test_bad_inputs(struct harness *h)
{
    each_position(h, NULL, NPE, NPE, "null");
    each_position(h, &EMPTY, NFE, IAE, "empty");
    arithmetic_refusals(h);
    bound_refusals(h);
    size_limit(h);
    jacobi_checks(h);
}
