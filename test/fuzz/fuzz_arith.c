/*
 * fuzz_arith.c - libFuzzer target for arith.c, the layer under JNI.
 *
 * Input: three length bytes (base, exponent, modulus; 0-255 each), then the
 * three operands' bytes in that order, two's complement as Java passes them.
 * An operand gets fewer bytes if the input ends early.  A zero-length
 * operand is what jbigi.c refuses with NumberFormatException before any
 * arithmetic, so the operations that take it are skipped.
 *
 * The operands are built as jbigi.c builds them: read-only mpz_roinit_n
 * views of limbs converted in place (on the heap here, so AddressSanitizer
 * sees any access past them).  Each operation's status must follow
 * BigInteger (m <= 0 refused, and so on), the operands' limbs must be left
 * as they were, and each result must match a reference: square-and-multiply
 * for exponents up to SMALL_EXP_BITS, mpz_powm on separately imported
 * values above that; inverses are checked by multiplying back.  Any
 * mismatch aborts, which libFuzzer reports as a crash and saves the input.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arith.h"
#include "core/convert.h"
#include "reference.h"
#include "core/wipe.h"

/* Up to this many exponent bits the reference is square-and-multiply. */
#define SMALL_EXP_BITS 256

#define FUZZ_TARGET_NAME "fuzz_arith"
#include "fuzz.h"

/* Two's complement through mpz_import, independent of convert.c. */
static void import_with_mpz(mpz_t v, const uint8_t *bytes, size_t len)
{
    mpz_import(v, len, 1, 1, 1, 0, bytes);
    if (bytes[0] & 0x80) {
        mpz_t power;
        mpz_init(power);
        mpz_setbit(power, 8 * len);
        mpz_sub(v, v, power);
        mpz_clear(power);
    }
}

/* base^exp mod m for m > 0, exp >= 0, result in [0, m): square-and-multiply
 * for small exponents, mpz_powm on freshly imported values beyond. */
static void reference_or_gmp_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (mpz_sizeinbase(exp, 2) > SMALL_EXP_BITS)
        mpz_powm(r, base, exp, m);
    else
        reference_powm(r, base, exp, m);
}

static int coprime(const mpz_t a, const mpz_t m)
{
    mpz_t g;
    mpz_init(g);
    mpz_gcd(g, a, m);
    int one = mpz_cmp_ui(g, 1) == 0;
    mpz_clear(g);
    return one;
}

/* An operand as jbigi.c reads one, plus a copy of its limbs to show that
 * nothing wrote to them. */
struct operand {
    mpz_t value;
    mp_limb_t *limbs;
    mp_limb_t *copy;
    size_t nlimbs;
};

static void operand_read(struct operand *op, const uint8_t *bytes, size_t len)
{
    op->nlimbs = jbigi_limbs_for_bytes(len);
    op->limbs = malloc(op->nlimbs * sizeof(mp_limb_t));
    op->copy = malloc(op->nlimbs * sizeof(mp_limb_t));
    memcpy(jbigi_bytes_slot(op->limbs, len), bytes, len);
    mpz_roinit_n(op->value, op->limbs, jbigi_bytes_to_limbs(op->limbs, len));
    memcpy(op->copy, op->limbs, op->nlimbs * sizeof(mp_limb_t));
}

/* Checks the operand reads as want and its limbs are untouched; frees it. */
static void operand_release(struct operand *op, const char *name, const mpz_t want)
{
    REQUIRE(mpz_cmp(op->value, want) == 0, "the %s does not read as its bytes' value", name);
    REQUIRE(memcmp(op->limbs, op->copy, op->nlimbs * sizeof(mp_limb_t)) == 0,
            "an operation wrote to the %s", name);
    free(op->limbs);
    free(op->copy);
}

/* A result must be in [0, m) and survive the trip back to Java's bytes. */
static void check_result(const char *op, const mpz_t r, const mpz_t m)
{
    REQUIRE(mpz_sgn(r) >= 0 && mpz_cmp(r, m) < 0, "%s: result outside [0, m)", op);
    size_t len = jbigi_encoded_length(r);
    uint8_t *bytes = malloc(len);
    jbigi_export(bytes, len, r);
    REQUIRE((bytes[0] & 0x80) == 0, "%s: a non-negative result exported with its sign bit set", op);
    mpz_t back;
    mpz_init(back);
    jbigi_import(back, bytes, len);
    REQUIRE(mpz_cmp(back, r) == 0, "%s: result changed on export and import", op);
    mpz_clear(back);
    free(bytes);
}

/* What BigInteger.modPow gives: the status, and the value through want
 * when the status is JBIGI_OK. */
static enum jbigi_status reference_modpow(mpz_t want, const mpz_t b, const mpz_t e, const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_cmp_ui(m, 1) == 0) {
        mpz_set_ui(want, 0);
        return JBIGI_OK;
    }
    if (mpz_sgn(e) >= 0) {
        reference_or_gmp_powm(want, b, e, m);
        return JBIGI_OK;
    }
    /* b^e for e < 0 is the inverse of b^|e|, which exists iff gcd(b, m) = 1. */
    if (!coprime(b, m))
        return JBIGI_NOT_INVERTIBLE;
    mpz_t abs_e;
    mpz_init(abs_e);
    mpz_abs(abs_e, e);
    reference_or_gmp_powm(want, b, abs_e, m);
    mpz_clear(abs_e);
    return JBIGI_OK;
}

/* b, e, m: the operands as jbigi.c passes them; rb, re, rm: the same
 * values imported separately, for the reference. */
static void check_modpow(const mpz_t b, const mpz_t e, const mpz_t m,
                         const mpz_t rb, const mpz_t re, const mpz_t rm)
{
    mpz_t r, want, prod;
    mpz_inits(r, want, prod, NULL);
    enum jbigi_status expect = reference_modpow(want, rb, re, rm);

    mpz_set_si(r, -12345); /* a stale value the result must replace */
    enum jbigi_status st = jbigi_modpow(r, b, e, m);
    REQUIRE(st == expect, "modpow: status %d, want %d", st, expect);
    if (st == JBIGI_OK) {
        check_result("modpow", r, rm);
        if (mpz_sgn(re) >= 0 || mpz_cmp_ui(rm, 1) == 0) {
            REQUIRE(mpz_cmp(r, want) == 0, "modpow: wrong value");
        } else {
            /* want = b^|e|: r must be its inverse. */
            mpz_mul(prod, r, want);
            mpz_mod(prod, prod, rm);
            REQUIRE(mpz_cmp_ui(prod, 1) == 0, "modpow: negative exponent, r * b^|e| != 1 mod m");
        }
    }

    /* The constant-time path: odd m > 0 and e > 0 only, same value. */
    if (mpz_sgn(rm) <= 0)
        expect = JBIGI_MODULUS_NOT_POSITIVE;
    else if (mpz_even_p(rm))
        expect = JBIGI_MODULUS_EVEN;
    else if (mpz_sgn(re) <= 0)
        expect = JBIGI_EXPONENT_NOT_POSITIVE;
    else
        expect = JBIGI_OK;
    mpz_set_si(r, -12345);
    st = jbigi_modpow_ct(r, b, e, m);
    REQUIRE(st == expect, "modpow_ct: status %d, want %d", st, expect);
    if (st == JBIGI_OK) {
        check_result("modpow_ct", r, rm);
        REQUIRE(mpz_cmp(r, want) == 0, "modpow_ct: wrong value");
    }
    mpz_clears(r, want, prod, NULL);
}

static void check_modinverse(const mpz_t b, const mpz_t m, const mpz_t rb, const mpz_t rm)
{
    enum jbigi_status expect;
    if (mpz_sgn(rm) <= 0)
        expect = JBIGI_MODULUS_NOT_POSITIVE;
    else if (mpz_cmp_ui(rm, 1) == 0 || coprime(rb, rm))
        expect = JBIGI_OK; /* BigInteger: anything mod 1 is 0, "invertible" */
    else
        expect = JBIGI_NOT_INVERTIBLE;

    mpz_t r, prod;
    mpz_inits(r, prod, NULL);
    mpz_set_si(r, -12345);
    enum jbigi_status st = jbigi_modinverse(r, b, m);
    REQUIRE(st == expect, "modinverse: status %d, want %d", st, expect);
    if (st == JBIGI_OK) {
        check_result("modinverse", r, rm);
        mpz_mul(prod, r, rb);
        mpz_mod(prod, prod, rm);
        /* For m = 1 that is 0 = 0; otherwise r * b = 1 mod m. */
        REQUIRE(mpz_cmp_ui(rm, 1) == 0 ? mpz_sgn(r) == 0 : mpz_cmp_ui(prod, 1) == 0,
                "modinverse: r * b != 1 mod m");
    }
    mpz_clears(r, prod, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Split the input: three lengths, then the operands. */
    enum { BASE, EXP, MOD };
    size_t len[3], pos = 3;
    const uint8_t *bytes[3];
    for (int i = 0; i < 3; i++) {
        size_t want = (size_t)i < size ? data[i] : 0;
        size_t left = size > pos ? size - pos : 0;
        len[i] = want < left ? want : left;
        bytes[i] = data + (size > pos ? pos : size);
        pos += len[i];
    }
    if (len[BASE] == 0 || len[MOD] == 0)
        return 0; /* every operation needs these two */

    mpz_t rb, re, rm;
    mpz_inits(rb, re, rm, NULL);
    import_with_mpz(rb, bytes[BASE], len[BASE]);
    import_with_mpz(rm, bytes[MOD], len[MOD]);

    struct operand b, m;
    operand_read(&b, bytes[BASE], len[BASE]);
    operand_read(&m, bytes[MOD], len[MOD]);
    if (len[EXP] != 0) {
        import_with_mpz(re, bytes[EXP], len[EXP]);
        struct operand e;
        operand_read(&e, bytes[EXP], len[EXP]);
        check_modpow(b.value, e.value, m.value, rb, re, rm);
        operand_release(&e, "exponent", re);
    }
    check_modinverse(b.value, m.value, rb, rm);
    operand_release(&b, "base", rb);
    operand_release(&m, "modulus", rm);
    mpz_clears(rb, re, rm, NULL);
    return 0;
}
