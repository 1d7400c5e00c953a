/*
 * test_bad_matrix.c - BadInputMatrixTest.java's matrix in C: every pairing
 * of awkward bases, exponents and moduli (null, empty, 0, +-1, 0x80/0xff-led
 * and non-canonical arrays, 2048-bit odd and even moduli, their multiples
 * and neighbours) through nativeModPow, nativeModPowCT and
 * nativeModInverse.  Bad arrays must give one of the exceptions they
 * warrant (BadInputs.java: when several are bad, any of them); good ones
 * BigInteger's value or exception (GMP's, when the reference is compiled
 * in), the constant-time form refusing even moduli and exponents <= 0.
 * Every call also checks that the argument arrays come back unmodified.
 */
#include <stdio.h>
#include <string.h>

#include "gmp_ref.h"
#include "java_exceptions.h"
#include "operands.h"
#include "report.h"
#include "tests.h"

struct matrix {
    struct bytes bases[17], exponents[13], moduli[16];
    int is_null_base[17], is_null_exponent[13], is_null_modulus[16];
};

static struct bytes of(const unsigned char *p, size_t len)
{
    return bytes_copy(p, len);
}

static void matrix_make(struct matrix *mx)
{
    memset(mx, 0, sizeof *mx);
    struct bytes odd = operand_exact_bits(2048, 1);
    struct bytes even = bytes_affine(&odd, 1, -3);
    struct bytes p300 = bytes_zeros(39); /* 2^300: bit 300 of 39 bytes */
    p300.p[39 - 1 - 300 / 8] = 1 << (300 % 8);
    struct bytes even_less_one = bytes_affine(&even, 1, -1);

    int i = 0;
    mx->is_null_base[i++] = 1;
    mx->bases[i++] = of(NULL, 0);
    mx->bases[i++] = of((const unsigned char *)"\x00", 1);
    mx->bases[i++] = of((const unsigned char *)"\x01", 1);
    mx->bases[i++] = of((const unsigned char *)"\xff", 1);
    mx->bases[i++] = of((const unsigned char *)"\x80", 1);
    mx->bases[i++] = of((const unsigned char *)"\xff\xff\x80", 3);
    mx->bases[i++] = of((const unsigned char *)"\x00\x80", 2);
    mx->bases[i++] = of((const unsigned char *)"\x00\x00\x03", 3);
    mx->bases[i++] = of((const unsigned char *)"\x07", 1);
    mx->bases[i++] = of((const unsigned char *)"\x08", 1);
    mx->bases[i++] = of((const unsigned char *)"\x09", 1);
    mx->bases[i++] = bytes_copy(odd.p, odd.len);
    mx->bases[i++] = bytes_affine(&odd, 1, 1);
    mx->bases[i++] = bytes_affine(&odd, 3, 0);
    mx->bases[i++] = bytes_negate(&even_less_one);
    mx->bases[i++] = bytes_negate(&p300);

    struct bytes e300 = operand_exact_bits(300, 0);
    i = 0;
    mx->is_null_exponent[i++] = 1;
    mx->exponents[i++] = of(NULL, 0);
    mx->exponents[i++] = of((const unsigned char *)"\x00", 1);
    mx->exponents[i++] = of((const unsigned char *)"\x00\x00", 2);
    mx->exponents[i++] = of((const unsigned char *)"\x01", 1);
    mx->exponents[i++] = of((const unsigned char *)"\x02", 1);
    mx->exponents[i++] = of((const unsigned char *)"\xff", 1);
    mx->exponents[i++] = of((const unsigned char *)"\xfe", 1);
    mx->exponents[i++] = of((const unsigned char *)"\x80", 1);
    mx->exponents[i++] = of((const unsigned char *)"\xff\xff\xff", 3);
    mx->exponents[i++] = of((const unsigned char *)"\x00\x80", 2);
    mx->exponents[i++] = bytes_copy(e300.p, e300.len);
    mx->exponents[i++] = bytes_negate(&e300);

    struct bytes p71 = bytes_zeros(9); /* 2^71 + 1 */
    p71.p[0] = 0x80;
    p71.p[8] = 1;
    struct bytes p71_signed = bytes_zeros(p71.len + 1);
    memcpy(p71_signed.p + 1, p71.p, p71.len);
    i = 0;
    mx->is_null_modulus[i++] = 1;
    mx->moduli[i++] = of(NULL, 0);
    mx->moduli[i++] = of((const unsigned char *)"\x00", 1);
    mx->moduli[i++] = of((const unsigned char *)"\xff", 1);
    mx->moduli[i++] = of((const unsigned char *)"\x80", 1);
    mx->moduli[i++] = of((const unsigned char *)"\xff\x00\x01", 3);
    mx->moduli[i++] = of((const unsigned char *)"\x01", 1);
    mx->moduli[i++] = of((const unsigned char *)"\x00\x00\x01", 3);
    mx->moduli[i++] = of((const unsigned char *)"\x02", 1);
    mx->moduli[i++] = of((const unsigned char *)"\x08", 1);
    mx->moduli[i++] = of((const unsigned char *)"\x00\x80", 2);
    mx->moduli[i++] = of((const unsigned char *)"\x07", 1);
    mx->moduli[i++] = of((const unsigned char *)"\x09", 1);
    mx->moduli[i++] = bytes_canonicalize(p71_signed.p, p71_signed.len);
    mx->moduli[i++] = bytes_copy(odd.p, odd.len);
    mx->moduli[i++] = bytes_copy(even.p, even.len);

    bytes_free(&odd);
    bytes_free(&even);
    bytes_free(&p300);
    bytes_free(&even_less_one);
    bytes_free(&e300);
    bytes_free(&p71);
    bytes_free(&p71_signed);
}

static void matrix_free(struct matrix *mx)
{
    for (size_t i = 0; i < 17; i++)
        bytes_free(&mx->bases[i]);
    for (size_t i = 0; i < 13; i++)
        bytes_free(&mx->exponents[i]);
    for (size_t i = 0; i < 16; i++)
        bytes_free(&mx->moduli[i]);
}

/* The exception a bad array warrants, as BadInputs.operand says (NULL:
 * the array is a number). */
static const char *warrant(const struct bytes *a, int is_null)
{
    if (is_null)
        return NPE;
    if (a->len == 0)
        return NFE;
    return NULL;
}

/*
 * Whether o is right for these arguments.  Bad arrays: one of the
 * exceptions they warrant.  Otherwise: GMP's value or ArithmeticException
 * where the reference is compiled in; else a residue in [0, m) or
 * ArithmeticException, and ArithmeticException where it is certain
 * (modulus <= 0; the constant-time refusals).
 */
static int matrix_verdict(struct outcome *o, const char *w1, const char *w2, const char *w3, int ref,
                          const struct bytes *want, int must_throw)
{
    if (w1 != NULL || w2 != NULL || w3 != NULL) {
        const char *ws[] = {w1, w2, w3};
        for (size_t i = 0; i < 3; i++) {
            if (ws[i] != NULL && o->misuses == 0 && o->returned_null && strcmp(o->thrown, ws[i]) == 0)
                return 1;
        }
        snprintf(o->why, sizeof o->why, "expected one of %s %s %s, got %s", w1 ? w1 : "", w2 ? w2 : "", w3 ? w3 : "",
                 o->thrown[0] ? o->thrown : "a value");
        return 0;
    }
    if (must_throw || ref == 0)
        return outcome_threw(o, AE, NULL);
    if (ref == 1)
        return outcome_is_value(o, want);
    /* No reference: a canonical value, or ArithmeticException. */
    if (o->thrown[0] != '\0')
        return outcome_threw(o, AE, NULL);
    if (o->misuses > 0 || o->value.p == NULL || !bytes_canonical(o->value.p, o->value.len) ||
        bytes_sign(o->value.p, o->value.len) < 0) {
        snprintf(o->why, sizeof o->why, "not a non-negative toByteArray() value");
        return 0;
    }
    return 1;
}

static void matrix_powers(struct harness *h, const struct matrix *mx)
{
    struct report_batch batch[2];
    memset(batch, 0, sizeof batch);
    for (int ct = 0; ct <= 1; ct++) {
        for (size_t bi = 0; bi < 17; bi++) {
            for (size_t ei = 0; ei < 13; ei++) {
                for (size_t mi = 0; mi < 16; mi++) {
                    const struct bytes *b = &mx->bases[bi], *e = &mx->exponents[ei], *m = &mx->moduli[mi];
                    const char *w1 = warrant(b, mx->is_null_base[bi]), *w2 = warrant(e, mx->is_null_exponent[ei]),
                               *w3 = warrant(m, mx->is_null_modulus[mi]);
                    const int valid = w1 == NULL && w2 == NULL && w3 == NULL;
                    int must_throw = valid && bytes_sign(m->p, m->len) <= 0;
                    if (ct && valid)
                        must_throw |= !bytes_odd(m->p, m->len) || bytes_sign(e->p, e->len) <= 0;
                    struct bytes want = {NULL, 0};
                    int ref = -1;
                    if (valid && !must_throw && gmp_ref_available())
                        ref = gmp_ref_mod_pow(b, e, m, &want);
                    struct outcome o;
                    call_power(h, ct ? h->n.mod_pow_ct : h->n.mod_pow, mx->is_null_base[bi] ? NULL : b,
                               mx->is_null_exponent[ei] ? NULL : e, mx->is_null_modulus[mi] ? NULL : m, &o);
                    const int ok = matrix_verdict(&o, w1, w2, w3, ref, &want, must_throw);
                    report_case(&batch[ct], ok, "%s(bases[%zu], exponents[%zu], moduli[%zu]): %s",
                                ct ? "nativeModPowCT" : "nativeModPow", bi, ei, mi, o.why);
                    outcome_free(&o);
                    bytes_free(&want);
                }
            }
        }
    }
    const char *how = gmp_ref_available() ? "values against GMP" : "values unchecked without GMP";
    report_batch_end(&batch[0], "bad-input matrix, nativeModPow (%s)", how);
    report_batch_end(&batch[1], "bad-input matrix, nativeModPowCT (%s)", how);
}

static void matrix_inverse(struct harness *h, const struct matrix *mx)
{
    struct report_batch batch = {0, 0};
    for (size_t bi = 0; bi < 17; bi++) {
        for (size_t mi = 0; mi < 16; mi++) {
            const struct bytes *b = &mx->bases[bi], *m = &mx->moduli[mi];
            const char *w1 = warrant(b, mx->is_null_base[bi]), *w3 = warrant(m, mx->is_null_modulus[mi]);
            const int valid = w1 == NULL && w3 == NULL;
            const int must_throw = valid && bytes_sign(m->p, m->len) <= 0;
            struct bytes want = {NULL, 0};
            int ref = -1;
            if (valid && !must_throw && gmp_ref_available())
                ref = gmp_ref_mod_inverse(b, m, &want);
            struct outcome o;
            call_inverse(h, mx->is_null_base[bi] ? NULL : b, mx->is_null_modulus[mi] ? NULL : m, &o);
            const int ok = matrix_verdict(&o, w1, NULL, w3, ref, &want, must_throw);
            report_case(&batch, ok, "nativeModInverse(bases[%zu], moduli[%zu]): %s", bi, mi, o.why);
            outcome_free(&o);
            bytes_free(&want);
        }
    }
    report_batch_end(&batch, "bad-input matrix, nativeModInverse (%s)",
                     gmp_ref_available() ? "values against GMP" : "values unchecked without GMP");
}

void test_bad_matrix(struct harness *h)
{
    struct matrix mx;
    matrix_make(&mx);
    matrix_powers(h, &mx);
    matrix_inverse(h, &mx);
    matrix_free(&mx);
}
