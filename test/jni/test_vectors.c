/*
 * test_vectors.c - the known-answer vectors of test/vectors/ through the
 * natives, as the Java side would call them.
 *
 * A line is "OP BASE EXPONENT MODULUS EXPECTED": OP modpow, modpowct or
 * modinv (EXPONENT "-"), numbers in signed hex, EXPECTED a number or
 * "ArithmeticException", all with java.math.BigInteger's semantics (see
 * SharedVectorsTest.java).  Each line is checked on every native that
 * computes its value:
 *
 * - modpow: nativeModPow; for odd moduli and positive exponents also the
 *   constant-time natives (nativeModPowCT, nativeModPowCTBound at a few
 *   bounds >= the exponent's bits, nativeModPowCTFixed on the unsigned
 *   arrays for a non-negative base); for the exponent -1, nativeModInverse;
 * - modpowct: NativeBigInteger.modPowCT goes native only for an odd
 *   modulus and a positive exponent, and to modPow otherwise, so the same
 *   split, and there the constant-time natives must refuse with
 *   ArithmeticException;
 * - modinv: nativeModInverse, and nativeModPow with the exponent -1.
 *
 * Results must be exactly BigInteger's toByteArray() bytes (NativeBigInteger
 * keeps a native result as its cached byte form, so a redundant sign byte
 * would be wrong even with the right value); the fixed-length form must
 * return exactly the modulus array's length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "tests.h"

/* What a call must give: a value, or ArithmeticException. */
struct expect {
    int throws;
    struct bytes value;
};

struct vector {
    char op[16];
    struct bytes base, exponent, modulus;
    int has_exponent;
    struct expect want;
};

enum batch_id { B_POW, B_CT, B_BOUND, B_FIXED, B_INVERSE, B_REFUSED, B_LINES, BATCHES };

static const char *const batch_names[BATCHES] = {
    "nativeModPow",
    "nativeModPowCT",
    "nativeModPowCTBound (bounds >= the exponent's bits)",
    "nativeModPowCTFixed (unsigned arrays, also zero-padded)",
    "nativeModInverse (modinv lines, modpow lines with exponent -1)",
    "constant-time natives refuse even moduli and exponents <= 0",
    "well-formed lines",
};

static void vector_free(struct vector *v)
{
    bytes_free(&v->base);
    bytes_free(&v->exponent);
    bytes_free(&v->modulus);
    bytes_free(&v->want.value);
}

/* Parses one line; 0 if it is not five well-formed fields. */
static int parse(char *line, struct vector *v)
{
    char *field[6];
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok != NULL && n < 6; tok = strtok(NULL, " \t\r\n"))
        field[n++] = tok;
    if (n != 5 || strlen(field[0]) >= sizeof v->op)
        return 0;
    strcpy(v->op, field[0]);
    v->has_exponent = strcmp(field[2], "-") != 0;
    v->want.throws = strcmp(field[4], "ArithmeticException") == 0;
    if (!bytes_from_signed_hex(field[1], &v->base) || !bytes_from_signed_hex(field[3], &v->modulus))
        return 0;
    if (v->has_exponent && !bytes_from_signed_hex(field[2], &v->exponent))
        return 0;
    if (!v->want.throws && !bytes_from_signed_hex(field[4], &v->want.value))
        return 0;
    return strcmp(v->op, "modinv") == 0
               ? !v->has_exponent
               : (strcmp(v->op, "modpow") == 0 || strcmp(v->op, "modpowct") == 0) && v->has_exponent;
}

/* Checks an outcome against want, noting a failure in batch b. */
static void expect(struct report_batch *b, struct outcome *o, const struct expect *want, const char *call,
                   int line_number)
{
    const int ok =
        want->throws ? outcome_threw(o, "java/lang/ArithmeticException", NULL) : outcome_is_value(o, &want->value);
    report_case(b, ok, "line %d, %s: %s", line_number, call, o->why);
    outcome_free(o);
}

/* The unsigned big-endian array of a non-negative toByteArray() array:
 * the sign byte dropped, plus pad leading zero bytes. */
static struct bytes unsigned_form(const struct bytes *x, size_t pad)
{
    const size_t skip = x->len > 1 && x->p[0] == 0 ? 1 : 0;
    struct bytes out;
    bytes_unsigned(x->p + skip, x->len - skip, x->len - skip + pad, &out);
    return out;
}

static void constant_time_checks(struct harness *h, struct report_batch *batch, const struct vector *v, int line_number)
{
    struct outcome o;
    call_power(h, h->n.mod_pow_ct, &v->base, &v->exponent, &v->modulus, &o);
    expect(&batch[B_CT], &o, &v->want, "nativeModPowCT", line_number);

    const jint bits = (jint)bytes_bit_length(v->exponent.p, v->exponent.len);
    const jint bounds[] = {bits, bits + 1, (bits + 63) / 64 * 64, 2 * bits + 7};
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        char call[64];
        snprintf(call, sizeof call, "nativeModPowCTBound(bound %ld)", (long)bounds[i]);
        call_bounded_power(h, &v->base, &v->exponent, &v->modulus, bounds[i], &o);
        expect(&batch[B_BOUND], &o, &v->want, call, line_number);
    }

    if (bytes_sign(v->base.p, v->base.len) < 0 || v->want.throws)
        return; /* the fixed-length form takes unsigned arrays */
    for (size_t pad = 0; pad <= 3; pad += 3) {
        struct bytes b = unsigned_form(&v->base, pad), e = unsigned_form(&v->exponent, pad),
                     m = unsigned_form(&v->modulus, pad);
        struct bytes want;
        bytes_unsigned(v->want.value.p, v->want.value.len, m.len, &want);
        call_power(h, h->n.mod_pow_ct_fixed, &b, &e, &m, &o);
        const int ok = outcome_is_bytes(&o, &want);
        report_case(&batch[B_FIXED], ok, "line %d, nativeModPowCTFixed (%zu zero bytes added): %s", line_number, pad,
                    o.why);
        outcome_free(&o);
        bytes_free(&want);
        bytes_free(&b);
        bytes_free(&e);
        bytes_free(&m);
    }
}

static void check_vector(struct harness *h, struct report_batch *batch, const struct vector *v, int line_number)
{
    static const unsigned char minus_one_byte = 0xff;
    const struct bytes minus_one = {(unsigned char *)&minus_one_byte, 1};
    struct outcome o;

    if (strcmp(v->op, "modinv") == 0) {
        call_inverse(h, &v->base, &v->modulus, &o);
        expect(&batch[B_INVERSE], &o, &v->want, "nativeModInverse", line_number);
        call_power(h, h->n.mod_pow, &v->base, &minus_one, &v->modulus, &o);
        expect(&batch[B_POW], &o, &v->want, "nativeModPow(exponent -1)", line_number);
        return;
    }

    call_power(h, h->n.mod_pow, &v->base, &v->exponent, &v->modulus, &o);
    expect(&batch[B_POW], &o, &v->want, "nativeModPow", line_number);

    if (bytes_equal(v->exponent.p, v->exponent.len, minus_one.p, minus_one.len)) {
        call_inverse(h, &v->base, &v->modulus, &o);
        expect(&batch[B_INVERSE], &o, &v->want, "nativeModInverse (the line's exponent is -1)", line_number);
    }

    const int native_ct = bytes_sign(v->modulus.p, v->modulus.len) > 0 && bytes_odd(v->modulus.p, v->modulus.len) &&
                          bytes_sign(v->exponent.p, v->exponent.len) > 0;
    if (native_ct) {
        constant_time_checks(h, batch, v, line_number);
        return;
    }
    const struct expect refused = {1, {NULL, 0}};
    call_power(h, h->n.mod_pow_ct, &v->base, &v->exponent, &v->modulus, &o);
    expect(&batch[B_REFUSED], &o, &refused, "nativeModPowCT", line_number);
}

/* Reads a line of any length into *line (grown as needed); 0 at the end. */
static int read_line(FILE *f, char **line, size_t *size)
{
    size_t used = 0;
    for (;;) {
        if (*size - used < 2) {
            char *grown = realloc(*line, *size * 2 + 256);
            if (grown == NULL)
                return 0;
            *line = grown;
            *size = *size * 2 + 256;
        }
        if (fgets(*line + used, (int)(*size - used), f) == NULL)
            return used > 0;
        used += strlen(*line + used);
        if (used > 0 && (*line)[used - 1] == '\n')
            return 1;
    }
}

void test_vectors(struct harness *h, const char *path, const char *engine)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        /* A check that silently did not run must not look like a pass. */
        report_fail("known-answer vectors: cannot open %s", path);
        return;
    }
    struct report_batch batch[BATCHES] = {{0, 0}};
    char *line = NULL;
    size_t size = 0;
    int line_number = 0;
    while (read_line(f, &line, &size)) {
        line_number++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        struct vector v;
        memset(&v, 0, sizeof v);
        const int ok = parse(line, &v);
        report_case(&batch[B_LINES], ok, "line %d is not \"OP BASE EXPONENT MODULUS EXPECTED\"", line_number);
        if (ok)
            check_vector(h, batch, &v, line_number);
        vector_free(&v);
    }
    free(line);
    fclose(f);
    const char *file = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
    for (int i = 0; i < BATCHES; i++)
        report_batch_end(&batch[i], "vectors %s, engine %s: %s", file, engine, batch_names[i]);
}
