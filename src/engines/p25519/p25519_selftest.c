/*
 * p25519_selftest.c - the special-form engine's known-answer self-test,
 * run once per process before the engine is first chosen
 * (jbigi_p25519_available).
 *
 * The field is plain C, but a compiler's handling of 128-bit products and
 * of the carries is what it rests on, so before its first use each shape
 * runs once against GMP's plain multiplication and division: for bases
 * from a fixed pseudo-random sequence and the edges 0, 1, p - 1 and 2^255 -
 * 20 (p - 1 and its neighbour exercise the final reduction), base^11 on the
 * field (3 squarings, 2 products, in and out of the words), and the
 * canonical reduction of p itself (to 0) and of 2^255 - 1 (to 18).
 * Nothing here allocates: every number is on the stack.
 */
#include <stdint.h>
#include <string.h>

#include <gmp.h>

#include "engines/engine.h"
#include "engines/p25519/p25519.h"
#include "engines/selftest_random.h"

#define SELFTEST_EXPONENT 11u /* binary 1011 */
#define SELFTEST_RANDOM_BASES 6

#if JBIGI_P25519_FIELD

static const mp_limb_t P[JBIGI_P25519_LIMBS] = {0xffffffffffffffedULL, ~(mp_limb_t)0, ~(mp_limb_t)0,
                                                 0x7fffffffffffffffULL};

/* r = a b mod p by mpn_mul_n and mpn_tdiv_qr. */
static void mulmod(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    mp_limb_t product[2 * JBIGI_P25519_LIMBS], quotient[JBIGI_P25519_LIMBS + 1];
    mpn_mul_n(product, a, b, JBIGI_P25519_LIMBS);
    mpn_tdiv_qr(quotient, r, 0, product, 2 * JBIGI_P25519_LIMBS, P, JBIGI_P25519_LIMBS);
}

/* base^SELFTEST_EXPONENT mod p both ways: 0 when they agree. */
static int check_power(const mp_limb_t *base, int corrupt)
{
    mp_limb_t want[JBIGI_P25519_LIMBS], got[JBIGI_P25519_LIMBS];
    mp_limb_t x[JBIGI_P25519_WORDS], acc[JBIGI_P25519_WORDS];
    memcpy(want, base, sizeof want);
    jbigi_p25519_from_limbs(x, base);
    memcpy(acc, x, sizeof acc);
    for (int bit = 2; bit >= 0; bit--) { /* bit 3, the top one, is the base */
        mulmod(want, want, want);
        jbigi_p25519_sqr(acc, acc);
        if ((SELFTEST_EXPONENT >> bit) & 1) {
            mulmod(want, want, base);
            jbigi_p25519_mul(acc, acc, x);
        }
    }
    jbigi_p25519_to_limbs(got, acc);
    if (corrupt)
        got[0] ^= 1;
    return mpn_cmp(got, want, JBIGI_P25519_LIMBS) != 0;
}

/* The words h reduced fully: 0 when the result is want (one limb). */
static int check_reduction(const mp_limb_t *h, mp_limb_t want)
{
    mp_limb_t got[JBIGI_P25519_LIMBS];
    jbigi_p25519_to_limbs(got, h);
    return got[0] != want || got[1] != 0 || got[2] != 0 || got[3] != 0;
}

int jbigi_p25519_selftest(int corrupt)
{
    const mp_limb_t w = ((mp_limb_t)1 << 51) - 1;
    const mp_limb_t p_words[JBIGI_P25519_WORDS] = {w - 18, w, w, w, w};
    const mp_limb_t top_words[JBIGI_P25519_WORDS] = {w, w, w, w, w}; /* 2^255 - 1 */
    int failed = check_reduction(p_words, 0) | check_reduction(top_words, 18);
    mp_limb_t base[JBIGI_P25519_LIMBS] = {0};
    failed |= check_power(base, 0); /* 0 */
    base[0] = 1;
    failed |= check_power(base, 0);
    memcpy(base, P, sizeof base);
    base[0] -= 1; /* p - 1 */
    failed |= check_power(base, 0);
    base[0] -= 1; /* p - 2 */
    failed |= check_power(base, 0);
    uint64_t state = UINT64_C(0x2551925519255193);
    for (int i = 0; i < SELFTEST_RANDOM_BASES; i++) {
        for (int k = 0; k < JBIGI_P25519_LIMBS; k++)
            base[k] = (mp_limb_t)jbigi_selftest_random(&state);
        base[3] &= P[3] >> (i % 2); /* below 2^255, and once in two below 2^254 */
        if (mpn_cmp(base, P, JBIGI_P25519_LIMBS) >= 0)
            base[3] >>= 1;
        failed |= check_power(base, corrupt && i == SELFTEST_RANDOM_BASES - 1);
    }
    return failed;
}

static atomic_int selftest_state = JBIGI_SELFTEST_UNKNOWN;

int jbigi_p25519_selftest_result(void)
{
    return jbigi_selftest_once(&selftest_state, jbigi_p25519_selftest, "JBIGI_P25519_SELFTEST_FAULT");
}

int jbigi_p25519_available(void)
{
    return jbigi_p25519_selftest_result() == JBIGI_SELFTEST_PASSED;
}

#else /* the field is not built here */

int jbigi_p25519_selftest(int corrupt)
{
    (void)corrupt;
    return 0;
}

int jbigi_p25519_selftest_result(void)
{
    return JBIGI_SELFTEST_NOT_RUN;
}

int jbigi_p25519_available(void)
{
    return 0;
}

#endif
