/*
 * adx_ctx.c - the MULX/ADX engine's contexts (see adx.h): a modulus
 * prepared (-m^-1 mod 2^128, R^2 mod m and R mod m, or for a public
 * four-limb power no R^2 at all), its memory, and the conversions into and
 * out of the Montgomery domain.  The products and the reduction they call
 * are adx_mont.c's and adx_mont4.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/adx/adx.h"
#include "support/limb_inverse.h"
#include "platform/platform.h"

#if JBIGI_ADX_CODE
/* The high limb of -m^-1 mod 2^128, whose low one is k0 = -m0^-1 mod
 * 2^64: Newton's step x (2 - m x) doubles the 64 correct bits of m0's
 * inverse; unsigned __int128 wraps mod 2^128. */
static mp_limb_t negated_inverse_high(mp_limb_t k0, const mp_limb_t *m, mp_size_t n)
{
    const unsigned __int128 low = (unsigned __int128)(n > 1 ? m[1] : 0) << 64 | m[0];
    unsigned __int128 x = (mp_limb_t)0 - k0;
    x *= 2 - low * x;
    return (mp_limb_t)((0 - x) >> 64);
}

#endif

int jbigi_adx_ctx_init(jbigi_adx_ctx *ctx, const mp_limb_t *m, mp_size_t n, int flags)
{
    return jbigi_adx_ctx_init_in(ctx, m, n, flags, NULL, 0);
}

/* The plain 1, four limbs: a Montgomery product by it divides by R. */
static const mp_limb_t plain_one4[4] = {1, 0, 0, 0};

int jbigi_adx_ctx_init_in(jbigi_adx_ctx *ctx, const mp_limb_t *m, mp_size_t n, int flags, mp_limb_t *buffer,
                          size_t buffer_limbs)
{
    const mp_size_t N = (n + 3) & ~(mp_size_t)3;
    const int secret = (flags & JBIGI_ADX_SECRET) && !(flags & JBIGI_ADX_PUBLIC_MODULUS);
    /* Field by field: a memset of the whole context (its mk4 included) is
     * a string store, whose start-up a four-limb call's setup notices. */
    ctx->n = n;
    ctx->N = N;
    ctx->secret = (flags & JBIGI_ADX_SECRET) != 0;
    ctx->k0 = jbigi_negated_inverse(m[0]);
    ctx->k1 = 0;
    ctx->m = ctx->rr = ctx->one = ctx->work = ctx->mem = NULL;
    ctx->mem_limbs = 0;
    ctx->mem_is_callers = 0;
    ctx->divide_to_mont = 0;
    for (size_t i = 0; i < 6; i++)
        ctx->mk4[i] = 0;
#if JBIGI_ADX_CODE
    ctx->k1 = negated_inverse_high(ctx->k0, m, n);
    if (N == 4) {
        for (mp_size_t i = 0; i < 4; i++)
            ctx->mk4[i] = i < n ? m[i] : 0;
        ctx->mk4[4] = ctx->k0;
        ctx->mk4[5] = ctx->k1;
    }
#endif
#if JBIGI_ADX_CODE
    if ((flags & JBIGI_ADX_DIVIDE_TO_MONT) && N == 4 && !ctx->secret) {
        /* Nothing to allocate: the kernels keep m in mk4, no R^2. */
        ctx->divide_to_mont = 1;
        ctx->m = ctx->mk4;
        return 0;
    }
#endif
    /* m, rr, one; and for R^2 mod m: 2 N + 1 limbs of 2^(128 N) and the
     * division's scratch (or quotient). */
    const mp_size_t div_scratch = secret ? mpn_sec_div_r_itch(2 * N + 1, n) : 2 * N + 2 - n;
    ctx->mem_limbs = 3 * (size_t)N + JBIGI_ADX_WORK_LIMBS(N) + 2 * (size_t)N + 1 + (size_t)div_scratch;
    if (buffer != NULL && ctx->mem_limbs <= buffer_limbs) {
        ctx->mem = buffer;
        ctx->mem_is_callers = 1;
        memset(ctx->mem, 0, ctx->mem_limbs * sizeof(mp_limb_t));
    } else {
        ctx->mem = calloc(ctx->mem_limbs, sizeof(mp_limb_t));
        if (ctx->mem == NULL)
            return -1;
    }
    ctx->m = ctx->mem;
    ctx->rr = ctx->m + N;
    ctx->one = ctx->rr + N;
    ctx->work = ctx->one + N;
    mp_limb_t *power = ctx->work + JBIGI_ADX_WORK_LIMBS(N), *scratch = power + 2 * N + 1;
    mpn_copyi(ctx->m, m, n);
    /* R^2 = 2^(128 N) mod m, reduced in place. */
    power[2 * N] = 1;
    if (secret) {
        mpn_sec_div_r(power, 2 * N + 1, m, n, scratch);
    } else {
        mpn_tdiv_qr(scratch, power, 0, power, 2 * N + 1, m, n);
    }
    mpn_copyi(ctx->rr, power, n);
    /* R mod m: R^2 reduced once (R^2 / R); at four limbs made when asked
     * (jbigi_adx_one), which the sliding window never does. */
#if JBIGI_ADX_CODE
    if (N != 4) {
        mpn_zero(power, 2 * N + 1);
        mpn_copyi(power, ctx->rr, N);
        jbigi_adx_redc(ctx, ctx->one, power);
    }
#endif
    jbigi_secure_zero(power, sizeof(mp_limb_t) * (2 * (size_t)N + 1 + (size_t)div_scratch));
    return 0;
}

void jbigi_adx_ctx_clear(jbigi_adx_ctx *ctx)
{
    if (ctx->mem != NULL) {
        jbigi_secure_zero(ctx->mem, ctx->mem_limbs * sizeof(mp_limb_t));
        if (!ctx->mem_is_callers)
            free(ctx->mem);
    }
    /* What the modulus gave (a secret one on the constant-time paths):
     * wiped; the rest only forgotten. */
    jbigi_secure_zero(ctx->mk4, sizeof ctx->mk4);
    jbigi_secure_zero(&ctx->k0, sizeof ctx->k0);
    jbigi_secure_zero(&ctx->k1, sizeof ctx->k1);
    ctx->m = ctx->rr = ctx->one = ctx->work = ctx->mem = NULL;
    ctx->mem_limbs = 0;
}

void jbigi_adx_to_mont(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    if (ctx->divide_to_mont) { /* a R mod m by one division (public values, N = 4) */
        mp_limb_t shifted[8] = {0}, q[8];
        mpn_copyi(shifted + 4, a, ctx->n);
        mpn_zero(r, 4);
        mpn_tdiv_qr(q, r, 0, shifted, 4 + ctx->n, ctx->m, ctx->n);
        return;
    }
    mp_limb_t padded[JBIGI_ADX_MAX_LIMBS];
    mpn_zero(padded, ctx->N);
    mpn_copyi(padded, a, ctx->n);
    jbigi_adx_mul(ctx, r, padded, ctx->rr);
    jbigi_secure_zero(padded, sizeof(mp_limb_t) * (size_t)ctx->N);
}

void jbigi_adx_one(const jbigi_adx_ctx *ctx, mp_limb_t *r)
{
    if (ctx->divide_to_mont) {
        jbigi_adx_to_mont(ctx, r, plain_one4);
        return;
    }
#if JBIGI_ADX_CODE
    if (ctx->N == 4) {
        jbigi_adx_mul4(r, ctx->rr, plain_one4, ctx->mk4);
        return;
    }
#endif
    mpn_copyi(r, ctx->one, ctx->N);
}

void jbigi_adx_from_mont(const jbigi_adx_ctx *ctx, mp_limb_t *x, const mp_limb_t *a)
{
    mp_limb_t u[2 * JBIGI_ADX_MAX_LIMBS], r[JBIGI_ADX_MAX_LIMBS];
    const mp_size_t N = ctx->N;
#if JBIGI_ADX_CODE
    if (N == 4) { /* a / R: the kernel's product by 1 (constant time in every context) */
        jbigi_adx_mul4(r, a, plain_one4, ctx->mk4);
        mpn_copyi(x, r, ctx->n);
        jbigi_secure_zero(r, sizeof(mp_limb_t) * 4);
        return;
    }
#endif
    mpn_copyi(u, a, N);
    mpn_zero(u + N, N);
    jbigi_adx_redc(ctx, r, u);
    mpn_copyi(x, r, ctx->n);
    jbigi_secure_zero(u, sizeof(mp_limb_t) * 2 * (size_t)N);
    jbigi_secure_zero(r, sizeof(mp_limb_t) * (size_t)N);
}
