/*
 * ifma_mul.c - the Montgomery products the drivers call, jbigi_ifma_mul and
 * jbigi_ifma_sqr, and the masked doubling jbigi_ifma_double_if.
 *
 * The kernels (ifma_kernel.h and the headers it names) are always-inline
 * bodies with the register count K a parameter; here each K from 1 to KMAX
 * (up to 160 digits, 8192 bits) gets a function of its own with K a
 * constant, so that its loops over registers unroll and its accumulator
 * stays in registers, and a table picks it by ctx->words / 8.  Which
 * kernel takes which K is decided here, from the constants in
 * ifma_kernel.h.  On other architectures the entry points are stubs:
 * jbigi_ifma_ctx_init refuses there, so they are never reached.
 */
#include <stdlib.h>

#include "engines/ifma/ifma.h"
#include "engines/ifma/ifma_kernel.h"
#include "engines/ifma/ifma_amm_pair.h"
#include "engines/ifma/ifma_amm_two.h"
#include "engines/ifma/ifma_sqr.h"
#include "platform/platform.h"
#include "support/opaque.h"

#if JBIGI_AVX512_CODE

/* The kernels run once per product and hold their accumulators in arrays,
 * so -fstack-protector-strong would give each a canary, checked on every
 * product; they go without.  Their arrays are sized by KMAX and indexed
 * only by the constant K and the digit count N, which the caller keeps
 * within K registers, never by a length from outside.  Without it each
 * kernel's code is what it was before the libraries were hardened:
 * doc/measurements.md: "Hardening: speed against the library before it (2026-12-07)"
 */

typedef void (*amm_fn)(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, uint64_t, int, int);

#define AMM_K(K)                                                                                       \
    IFMA_TARGET JBIGI_NO_STACK_PROTECTOR static void amm_##K(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, \
                                    uint64_t k0, int N, int secret)                                    \
    {                                                                                                  \
        if (K <= PAIR_KMAX)                                                                            \
            amm_pair(r, a, b, m, k0, N, secret, K);                                                    \
        else                                                                                           \
            amm_two(r, a, b, m, k0, N, secret, K);                                                     \
    }
AMM_K(1) AMM_K(2) AMM_K(3) AMM_K(4) AMM_K(5) AMM_K(6) AMM_K(7) AMM_K(8) AMM_K(9) AMM_K(10)
AMM_K(11) AMM_K(12) AMM_K(13) AMM_K(14) AMM_K(15) AMM_K(16) AMM_K(17) AMM_K(18) AMM_K(19) AMM_K(20)

typedef void (*sqr_fn)(uint64_t *, const uint64_t *, const uint64_t *, uint64_t, int, int);

#define SQR_K(K)                                                                                       \
    IFMA_TARGET JBIGI_NO_STACK_PROTECTOR static void sqr_##K(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t k0, int N,  \
                                    int secret)                                                        \
    {                                                                                                  \
        if (K <= SQR_BY_MUL_KMAX)                                                                      \
            amm_pair(r, a, a, m, k0, N, secret, K);                                                    \
        else if (K < SQR_TWO_KMIN)                                                                     \
            amm_sqr_pair(r, a, m, k0, N, secret, K);                                                   \
        else                                                                                           \
            amm_sqr_two(r, a, m, k0, N, secret, K);                                                    \
    }
SQR_K(1) SQR_K(2) SQR_K(3) SQR_K(4) SQR_K(5) SQR_K(6) SQR_K(7) SQR_K(8) SQR_K(9) SQR_K(10)
SQR_K(11) SQR_K(12) SQR_K(13) SQR_K(14) SQR_K(15) SQR_K(16) SQR_K(17) SQR_K(18) SQR_K(19) SQR_K(20)

static const sqr_fn sqr_for_k[KMAX + 1] = {
    NULL,    sqr_1,  sqr_2,  sqr_3,  sqr_4,  sqr_5,  sqr_6,  sqr_7,  sqr_8,  sqr_9,  sqr_10,
    sqr_11, sqr_12, sqr_13, sqr_14, sqr_15, sqr_16, sqr_17, sqr_18, sqr_19, sqr_20,
};

static const amm_fn amm_for_k[KMAX + 1] = {
    NULL,    amm_1,  amm_2,  amm_3,  amm_4,  amm_5,  amm_6,  amm_7,  amm_8,  amm_9,  amm_10,
    amm_11, amm_12, amm_13, amm_14, amm_15, amm_16, amm_17, amm_18, amm_19, amm_20,
};

void jbigi_ifma_mul(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    amm_for_k[ctx->words / 8](r, a, b, ctx->m, ctx->k0, ctx->digits, ctx->secret_values);
}

void jbigi_ifma_sqr(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a)
{
    sqr_for_k[ctx->words / 8](r, a, ctx->m, ctx->k0, ctx->digits, ctx->secret_values);
}

/* 2 a is digit j's low 51 bits moved up one place, plus the top bit of
 * digit j - 1: no carry goes further, so each register is a few
 * independent operations.  Nothing is subtracted: with 16 m < R (which
 * jbigi_ifma_ctx_init checks) a value below 4 m still squares into
 * [0, 2 m) (ifma.h). */
JBIGI_AVX512_TARGET("avx512f") void jbigi_ifma_double_if(const jbigi_ifma_ctx *ctx, uint64_t *a, uint64_t bit)
{
    uint64_t keep_doubled = 0 - (bit & 1);
#if !defined(JBIGI_IFMA_MODEL)
    JBIGI_OPAQUE(keep_doubled); /* no branch on a secret bit */
#endif
    const __m512i take = _mm512_set1_epi64((long long)keep_doubled), mask52 = _mm512_set1_epi64((long long)M52);
    __m512i carry_below = _mm512_setzero_si512();
    for (int w = 0; w < ctx->words; w += 8) {
        const __m512i x = _mm512_load_si512((const void *)(a + w));
        const __m512i twice = _mm512_add_epi64(x, x), carry = _mm512_srli_epi64(twice, 52);
        const __m512i doubled =
            _mm512_add_epi64(_mm512_and_si512(twice, mask52), _mm512_alignr_epi64(carry, carry_below, 7));
        carry_below = carry;
        /* take ? doubled : x */
        _mm512_store_si512((void *)(a + w), _mm512_ternarylogic_epi64(take, doubled, x, 0xCA));
    }
}

#else /* not x86-64: ctx_init refuses, so these are never reached */

void jbigi_ifma_double_if(const jbigi_ifma_ctx *ctx, uint64_t *a, uint64_t bit)
{
    (void)ctx;
    (void)a;
    (void)bit;
    abort();
}

void jbigi_ifma_mul(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    (void)ctx;
    (void)r;
    (void)a;
    (void)b;
    abort();
}

void jbigi_ifma_sqr(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a)
{
    (void)ctx;
    (void)r;
    (void)a;
    abort();
}

#endif
