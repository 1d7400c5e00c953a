/*
 * ifma_digits.c - numbers between GMP's radix 2^64 and the engine's: how
 * many 52-bit digits an n-limb modulus takes, limbs to digits and back, and
 * into and out of the Montgomery domain (on top of jbigi_ifma_mul).
 * Portable C; only sizes steer it, never values, so it is constant time.
 *
 * Invariant (ifma.h): a number of an n-limb modulus is N = digits_for(n)
 * digits of 52 bits, one per 64-bit word, padded with zero digits to
 * ctx->words, a whole number of 512-bit registers; 52 N >= 64 n + 4, so
 * 16 m < R = 2^(52 N).
 */
#include <string.h>

#include "engines/ifma/ifma.h"
#include "engines/ifma/ifma_kernel.h"
#include "platform/platform.h"

/* Digits for an n-limb modulus: 52 N >= 64 n + 2, i.e. R > 4 m; even up to
 * PAIR_KMAX registers, where the kernels run the reduction behind (one more
 * digit at most, in the same registers).  From 8 registers an odd count
 * ends with one digit on its own (one_digit_step), cheaper than a padding
 * digit.
 * doc/measurements.md: "An odd digit count from 8 registers (2026-12-01, AMD Zen 4)" */
static int digits_for(mp_size_t n)
{
    int N = (int)((64 * n + 2 + 51) / 52);
    return N <= 8 * PAIR_KMAX ? (N + 1) & ~1 : N;
}

int jbigi_ifma_digits(mp_size_t n)
{
    return digits_for(n);
}

int jbigi_ifma_headroom_ok(mp_size_t n, int digits)
{
    return n >= 1 && digits >= 1 && (int64_t)52 * digits >= (int64_t)64 * n + 4;
}

/* ---- Limbs to digits and back ---- */

void jbigi_ifma_to_digits(uint64_t *d, int words, const mp_limb_t *x, mp_size_t n)
{
    for (int j = 0; j < words; j++) {
        size_t bit = (size_t)52 * (size_t)j;
        size_t limb = bit / 64;
        unsigned off = (unsigned)(bit % 64);
        uint64_t v = 0;
        if (limb < (size_t)n) {
            v = x[limb] >> off;
            if (off > 12 && limb + 1 < (size_t)n)
                v |= x[limb + 1] << (64 - off);
        }
        d[j] = v & M52;
    }
}

void jbigi_ifma_from_digits(mp_limb_t *x, mp_size_t n, const uint64_t *d)
{
    u128 acc = 0;
    unsigned have = 0; /* bits in acc */
    int j = 0;
    for (mp_size_t i = 0; i < n; i++) {
        while (have < 64) {
            acc |= (u128)d[j++] << have;
            have += 52;
        }
        x[i] = (mp_limb_t)acc;
        acc >>= 64;
        have -= 64;
    }
}

/* ---- Into and out of the Montgomery domain (on top of mul) ---- */

#define MAX_WORDS (KMAX * 8)

void jbigi_ifma_to_mont(const jbigi_ifma_ctx *ctx, uint64_t *r, const mp_limb_t *a)
{
    _Alignas(64) uint64_t t[MAX_WORDS];
    jbigi_ifma_to_digits(t, ctx->words, a, ctx->n);
    jbigi_ifma_mul(ctx, r, t, ctx->rr);
    jbigi_secure_zero(t, sizeof t);
}

void jbigi_ifma_from_mont(const jbigi_ifma_ctx *ctx, mp_limb_t *x, const uint64_t *a)
{
    _Alignas(64) uint64_t one[MAX_WORDS], t[MAX_WORDS];
    mp_limb_t s[JBIGI_IFMA_MAX_LIMBS];
    const mp_size_t n = ctx->n;
    memset(one, 0, (size_t)ctx->words * sizeof(uint64_t));
    one[0] = 1;
    /* a / R mod m, here in [0, m]: (a + q m) / R < (R + R m) / R = m + 1. */
    jbigi_ifma_mul(ctx, t, a, one);
    jbigi_ifma_from_digits(x, n, t);
    /* x = m only when a = 0 mod m: subtract m if x >= m, under a mask. */
    mp_limb_t borrow = mpn_sub_n(s, x, ctx->m_limbs, n);
    mp_limb_t take = borrow - 1; /* all ones when x >= m */
    for (mp_size_t i = 0; i < n; i++)
        x[i] = (s[i] & take) | (x[i] & ~take);
    jbigi_secure_zero(t, sizeof t);
    jbigi_secure_zero(s, sizeof s);
}
