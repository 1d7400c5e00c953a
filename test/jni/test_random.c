/*
 * test_random.c - random operands at many sizes, 1 to 4096 bits: moduli
 * of exactly that many bits (odd and even), bases and exponents of either
 * sign and of lengths around the modulus', with 0x7f, 0x80 and 0xff top
 * bytes (where a sign byte appears or goes).
 *
 * Two kinds of check.  Always: the natives agree with each other (every
 * constant-time form with nativeModPow; nativeModInverse with nativeModPow
 * at exponent -1; a negative exponent with the inverse raised to its
 * magnitude) and every result is in toByteArray() form and in [0, m).
 * With the GMP reference compiled in (-DJNI_HARNESS_GMP): each value is
 * also BigInteger's, computed with mpz_powm and mpz_invert.  Then the
 * same checks under 2^255 - 19 on its edge bases and Elligator2's
 * exponents (field25519).
 */
#include <stdio.h>
#include <string.h>

#include "gmp_ref.h"
#include "operands.h"
#include "report.h"
#include "rng.h"
#include "tests.h"

enum batch_id { B_POW, B_CT, B_BOUND, B_FIXED, B_INVERSE, B_NEGATIVE, BATCHES };

static const char *const batch_names[BATCHES] = {
    "nativeModPow",        "nativeModPowCT",   "nativeModPowCTBound",
    "nativeModPowCTFixed", "nativeModInverse", "nativeModPow, negative exponents",
};

/* The size classes the batches are reported by, and the cases per size. */
static const struct {
    unsigned max_bits;
    unsigned long cases;
} classes[] = {{64, 40}, {512, 25}, {2048, 10}, {4096, 5}};

static const unsigned sizes[] = {1,   2,   3,    7,    8,    9,    15,   16,   17,   31,   32,
                                 33,  63,  64,   65,   127,  128,  129,  255,  256,  257,  511,
                                 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 4095, 4096};

/* Whether a non-negative canonical a < b (b positive, canonical). */
static int below(const struct bytes *a, const struct bytes *b)
{
    if (a->len != b->len)
        return a->len < b->len;
    return memcmp(a->p, b->p, a->len) < 0;
}

/* A native's result is a proper residue: canonical (outcome_is_value
 * checks that) and in [0, m). */
static int in_range(const struct outcome *o, const struct bytes *m)
{
    return o->value.p != NULL && bytes_sign(o->value.p, o->value.len) >= 0 && below(&o->value, m);
}

struct case_ctx {
    struct harness *h;
    struct report_batch *batch;
    unsigned bits;
    char tag[64];
};

/*
 * The reference for one call: GMP's answer when compiled in, else the
 * answer of the native taken as reference (first), which must then at
 * least be a residue or ArithmeticException.  Returns 1 for a value
 * (in *want), 0 for ArithmeticException, -1 when nothing can be said.
 */
static int reference_pow(struct case_ctx *c, const struct bytes *b, const struct bytes *e, const struct bytes *m,
                         struct bytes *want)
{
    struct outcome o;
    if (gmp_ref_available())
        return gmp_ref_mod_pow(b, e, m, want);
    call_power(c->h, c->h->n.mod_pow, b, e, m, &o);
    int r = -1;
    if (o.thrown[0] == '\0' && o.misuses == 0 && in_range(&o, m) && bytes_canonical(o.value.p, o.value.len)) {
        *want = bytes_copy(o.value.p, o.value.len);
        r = 1;
    } else if (strcmp(o.thrown, "java/lang/ArithmeticException") == 0 && o.misuses == 0) {
        r = 0;
    }
    outcome_free(&o);
    return r;
}

static void expect(struct case_ctx *c, enum batch_id id, struct outcome *o, int reference, const struct bytes *want,
                   const struct bytes *m, const char *call)
{
    int ok;
    if (reference < 0) {
        snprintf(o->why, sizeof o->why, "the reference call itself gave no usable answer");
        ok = 0;
    } else if (reference == 0) {
        ok = outcome_threw(o, "java/lang/ArithmeticException", NULL);
    } else {
        ok = outcome_is_value(o, want);
        if (ok && !in_range(o, m)) {
            snprintf(o->why, sizeof o->why, "result not in [0, m)");
            ok = 0;
        }
    }
    report_case(&c->batch[id], ok, "%u bits, %s, %s: %s", c->bits, c->tag, call, o->why);
    outcome_free(o);
}

static void one_case(struct case_ctx *c, const struct bytes *b, const struct bytes *e, const struct bytes *m)
{
    struct harness *h = c->h;
    struct outcome o;
    struct bytes want = {NULL, 0};
    const int ref = reference_pow(c, b, e, m, &want);

    if (gmp_ref_available()) {
        call_power(h, h->n.mod_pow, b, e, m, &o);
        expect(c, bytes_sign(e->p, e->len) < 0 ? B_NEGATIVE : B_POW, &o, ref, &want, m, "nativeModPow");
    }

    const int ct = bytes_sign(m->p, m->len) > 0 && bytes_odd(m->p, m->len) && bytes_sign(e->p, e->len) > 0;
    if (ct) {
        call_power(h, h->n.mod_pow_ct, b, e, m, &o);
        expect(c, B_CT, &o, ref, &want, m, "nativeModPowCT");
        const jint bits = (jint)bytes_bit_length(e->p, e->len);
        const jint bound = bits + (jint)rng_below(130);
        call_bounded_power(h, b, e, m, bound, &o);
        expect(c, B_BOUND, &o, ref, &want, m, "nativeModPowCTBound");
        if (bytes_sign(b->p, b->len) >= 0 && ref == 1) {
            /* Unsigned arrays: the toByteArray() arrays with their sign byte
             * are valid unsigned arrays too (a leading zero). */
            struct bytes padded;
            bytes_unsigned(want.p, want.len, m->len, &padded);
            call_power(h, h->n.mod_pow_ct_fixed, b, e, m, &o);
            const int ok = outcome_is_bytes(&o, &padded);
            report_case(&c->batch[B_FIXED], ok, "%u bits, %s, nativeModPowCTFixed: %s", c->bits, c->tag, o.why);
            outcome_free(&o);
            bytes_free(&padded);
        }
    }

    /* The inverse, two ways, which must agree with each other (and GMP). */
    struct bytes inverse = {NULL, 0};
    int inverse_ref;
    if (gmp_ref_available()) {
        inverse_ref = gmp_ref_mod_inverse(b, m, &inverse);
    } else {
        static const unsigned char minus_one_byte = 0xff;
        const struct bytes minus_one = {(unsigned char *)&minus_one_byte, 1};
        inverse_ref = reference_pow(c, b, &minus_one, m, &inverse);
    }
    call_inverse(h, b, m, &o);
    expect(c, B_INVERSE, &o, inverse_ref, &inverse, m, "nativeModInverse");

    /* b^-|e| = (b^-1)^|e|: the negative exponent against the inverse. */
    if (bytes_sign(e->p, e->len) < 0 && inverse_ref == 1 && !gmp_ref_available()) {
        struct bytes magnitude = bytes_zeros(e->len + 1), neg_ref = {NULL, 0};
        /* -e in toByteArray() form: ~e + 1 over one more byte. */
        for (size_t i = 0; i < e->len; i++)
            magnitude.p[i + 1] = (unsigned char)~e->p[i];
        for (size_t i = magnitude.len; i-- > 0;) {
            if (++magnitude.p[i] != 0)
                break;
        }
        struct bytes canonical = bytes_canonicalize(magnitude.p, magnitude.len);
        const int r = reference_pow(c, &inverse, &canonical, m, &neg_ref);
        call_power(h, h->n.mod_pow, b, e, m, &o);
        expect(c, B_NEGATIVE, &o, r, &neg_ref, m, "nativeModPow(b, e < 0, m) = nativeModPow(b^-1, -e, m)");
        bytes_free(&magnitude);
        bytes_free(&canonical);
        bytes_free(&neg_ref);
    }
    bytes_free(&inverse);
    bytes_free(&want);
}

/* Under 2^255 - 19 (Elligator2's field: the special-form engine's one
 * modulus): the edge bases (0, 1, p-1, p, p+1, 2p, -1, -p) and random ones
 * of either sign and up to 330 bits, with Elligator2's exponents ((p-1)/2,
 * (p-1)/4, (p+3)/8), (p-5)/8, p-2, 1, 2 and random ones, some negative. */
static void field25519(struct harness *h, const char *engine)
{
    static const char *const bases[] = {
        "0",
        "1",
        "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec",
        "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
        "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffda",
        "-1",
        "-7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    };
    static const char *const exponents[] = {
        "3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff6",
        "1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffb",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd",
        "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeb",
        "1",
        "2",
    };
    struct report_batch batch[BATCHES];
    memset(batch, 0, sizeof batch);
    struct case_ctx c = {h, batch, 255, ""};
    struct bytes m;
    bytes_from_signed_hex(bases[3], &m); /* p */
    const size_t nb = sizeof bases / sizeof bases[0], ne = sizeof exponents / sizeof exponents[0];
    const unsigned long random_cases = rng_scaled(24);
    for (size_t i = 0; i < (nb + 2) * (ne + 2); i++) {
        const size_t bi = i / (ne + 2), ei = i % (ne + 2);
        struct bytes b, e;
        if (bi < nb)
            bytes_from_signed_hex(bases[bi], &b);
        else
            b = operand_random(1 + (unsigned)rng_below(330), bi == nb + 1);
        if (ei < ne)
            bytes_from_signed_hex(exponents[ei], &e);
        else
            e = operand_random(ei == ne ? 254 : 1 + (unsigned)rng_below(255), ei == ne + 1);
        snprintf(c.tag, sizeof c.tag, "base %zu, exponent %zu", bi, ei);
        one_case(&c, &b, &e, &m);
        bytes_free(&b);
        bytes_free(&e);
    }
    for (unsigned long i = 0; i < random_cases; i++) {
        struct bytes b = operand_random(1 + (unsigned)rng_below(300), i % 4 == 3);
        struct bytes e = operand_random(i % 2 ? 254 : 255, i % 5 == 4);
        snprintf(c.tag, sizeof c.tag, "random case %lu", i);
        one_case(&c, &b, &e, &m);
        bytes_free(&b);
        bytes_free(&e);
    }
    bytes_free(&m);
    const char *against = gmp_ref_available() ? "against GMP" : "natives against each other";
    for (int i = 0; i < BATCHES; i++)
        if (batch[i].cases > 0)
            report_batch_end(&batch[i], "2^255 - 19, engine %s, %s: %s", engine, against, batch_names[i]);
}

void test_random(struct harness *h, const char *engine)
{
    field25519(h, engine);
    if (!gmp_ref_available())
        report_skip("random cases against GMP: the harness was built without -DJNI_HARNESS_GMP "
                    "(the natives are still checked against each other)");
    size_t next_size = 0;
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        struct report_batch batch[BATCHES];
        memset(batch, 0, sizeof batch);
        struct case_ctx c = {h, batch, 0, ""};
        const unsigned low = next_size < sizeof sizes / sizeof sizes[0] ? sizes[next_size] : 0;
        for (; next_size < sizeof sizes / sizeof sizes[0] && sizes[next_size] <= classes[k].max_bits; next_size++) {
            const unsigned bits = sizes[next_size];
            /* At least two: case 0 takes the constant-time forms, case 1 a negative exponent. */
            const unsigned long scaled = rng_scaled(classes[k].cases), cases = scaled < 2 ? 2 : scaled;
            c.bits = bits;
            for (unsigned long i = 0; i < cases; i++) {
                const int odd = bits == 1 || (i % 4) != 3; /* mostly odd: the constant-time forms need it */
                struct bytes m = operand_exact_bits(bits, odd);
                const unsigned base_bits = 1 + (unsigned)rng_below(bits + 72);
                /* Case 0 of each size takes every constant-time form:
                 * odd m, base >= 0, exponent > 0. */
                struct bytes b = operand_random(base_bits, i != 0);
                const unsigned exp_bits = 1 + (unsigned)rng_below(i % 3 == 0 ? 64 : bits + 72);
                struct bytes e = i == 0 ? operand_exact_bits(exp_bits, 0) : operand_random(exp_bits, (i % 5) == 4);
                if (i % 4 == 1 && bytes_sign(e.p, e.len) > 0) { /* a negative exponent in every size */
                    struct bytes negative = bytes_negate(&e);
                    bytes_free(&e);
                    e = negative;
                }
                snprintf(c.tag, sizeof c.tag, "case %lu (%s m)", i, odd ? "odd" : "even");
                one_case(&c, &b, &e, &m);
                bytes_free(&m);
                bytes_free(&b);
                bytes_free(&e);
            }
        }
        const char *against = gmp_ref_available() ? "against GMP" : "natives against each other";
        for (int i = 0; i < BATCHES; i++) {
            if (batch[i].cases == 0 && !gmp_ref_available() && i == B_POW)
                continue; /* without GMP, nativeModPow is the reference, not a batch */
            if (batch[i].cases == 0) { /* possible when JBIGI_TEST_SCALE thins the cases */
                report_skip("random %u..%u-bit moduli, engine %s: %s: no such case drawn", low, classes[k].max_bits,
                            engine, batch_names[i]);
                continue;
            }
            report_batch_end(&batch[i], "random %u..%u-bit moduli, engine %s, %s: %s", low, classes[k].max_bits, engine,
                             against, batch_names[i]);
        }
    }
}
