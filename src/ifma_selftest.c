/*
 * ifma_selftest.c - the IFMA engine's known-answer self-test, run once per
 * process before the engine is first chosen (ifma_cpu.c).
 *
 * The engine's kernels are specialised by shape: the number K of 512-bit
 * registers a number takes (1 to 20) and, from 8 registers up, whether the
 * digit count N is odd (the last digit then takes a step of its own).  A
 * compiler, a CPU erratum or a hypervisor that loses vector state could
 * break one shape and leave the others right, so every shape computes one
 * short power here, once with the variable-time product and once with the
 * constant-time one (the two ways a product stores its result), and each
 * result is compared with GMP's mpz_powm on the same numbers.
 *
 * The numbers come from a fixed pseudo-random sequence: moduli with their
 * top limb set, bases below them.  The exponent, 0x2d9 (10 bits, 6 of them
 * set), makes 9 squarings and 5 multiplications on top of the conversions.
 * About 35 shapes; measured in ifma_bench's self-test line.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <stdlib.h>
#include <string.h>

#include "ifma.h"

#define SELFTEST_EXPONENT 0x2d9u

/* A fixed sequence (xorshift64*): the same numbers in every process. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(0x2545f4914f6cdd1d);
}

/* base^SELFTEST_EXPONENT mod m on the Montgomery layer, into r (n limbs). */
static int engine_power(mp_limb_t *r, const mp_limb_t *base, const mp_limb_t *m, mp_size_t n, int flags)
{
    jbigi_ifma_ctx ctx;
    int rc = jbigi_ifma_ctx_init(&ctx, m, n, flags);
    if (rc != 0)
        return rc;
    uint64_t *x = jbigi_ifma_alloc(&ctx, 2);
    if (x == NULL) {
        jbigi_ifma_ctx_clear(&ctx);
        return JBIGI_IFMA_NO_MEMORY;
    }
    uint64_t *acc = x + ctx.words;
    jbigi_ifma_to_mont(&ctx, x, base);
    memcpy(acc, x, (size_t)ctx.words * sizeof(uint64_t));
    for (int bit = 8; bit >= 0; bit--) { /* bit 9, the top one, is acc = x */
        jbigi_ifma_sqr(&ctx, acc, acc);
        if ((SELFTEST_EXPONENT >> bit) & 1)
            jbigi_ifma_mul(&ctx, acc, acc, x);
    }
    jbigi_ifma_from_mont(&ctx, r, acc);
    jbigi_ifma_free(x, &ctx, 2);
    jbigi_ifma_ctx_clear(&ctx);
    return 0;
}

/* The kernel shape of a context: K, and from 8 registers the digit count's
 * parity; a number below 64 that names it. */
static int shape_of(const jbigi_ifma_ctx *ctx)
{
    const int k = ctx->words / 8;
    return k < 8 ? k : 2 * k + (ctx->digits & 1);
}

int jbigi_ifma_selftest(int corrupt)
{
    unsigned char seen[64] = {0};
    mp_limb_t m[JBIGI_IFMA_MAX_LIMBS], b[JBIGI_IFMA_MAX_LIMBS], r[JBIGI_IFMA_MAX_LIMBS];
    uint64_t state = UINT64_C(0x6a09e667f3bcc909);
    int result = 0;
    mpz_t want, zb, zm;
    mpz_init(want);
    for (mp_size_t n = 1; n <= JBIGI_IFMA_MAX_LIMBS && result == 0; n++) {
        for (mp_size_t i = 0; i < n; i++) {
            m[i] = next_random(&state);
            b[i] = next_random(&state);
        }
        m[0] |= 1;
        m[n - 1] |= (mp_limb_t)1 << 63;
        b[n - 1] >>= 1; /* below m */
        jbigi_ifma_ctx probe;
        if (jbigi_ifma_ctx_init(&probe, m, n, 0) != 0) {
            result = -1;
            break;
        }
        const int shape = shape_of(&probe);
        jbigi_ifma_ctx_clear(&probe);
        if (seen[shape])
            continue;
        seen[shape] = 1;
        mpz_roinit_n(zb, b, n);
        mpz_roinit_n(zm, m, n);
        mpz_powm_ui(want, zb, SELFTEST_EXPONENT, zm);
        const int flags[2] = {0, JBIGI_IFMA_CONSTANT_TIME};
        for (int f = 0; f < 2 && result == 0; f++) {
            if (engine_power(r, b, m, n, flags[f]) != 0) {
                result = -1;
                break;
            }
            if (corrupt)
                r[0] ^= 1;
            mp_size_t rn = n;
            while (rn > 0 && r[rn - 1] == 0)
                rn--;
            mpz_t got;
            if (mpz_cmp(want, mpz_roinit_n(got, r, rn)) != 0)
                result = (int)n;
        }
    }
    mpz_clear(want);
    return result;
}
