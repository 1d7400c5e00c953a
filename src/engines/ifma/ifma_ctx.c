/*
 * ifma_ctx.c - a modulus prepared for the engine (jbigi_ifma_ctx_init:
 * its digits, -m^-1 mod 2^52, R^2 mod m) and the engine's memory: the
 * context's one allocation and the digit arrays of jbigi_ifma_alloc, all
 * 64-byte aligned for the kernels' aligned loads and stores, all wiped
 * before they are freed (a context may hold a secret modulus, an array
 * secret values).
 */
#include <stdlib.h>
#include <string.h>

#include "engines/ifma/ifma.h"
#include "engines/ifma/ifma_kernel.h"
#include "support/limb_inverse.h"
#include "platform/platform.h"

/* ---- Memory ---- */

static size_t round64(size_t size)
{
    return (size + 63) & ~(size_t)63;
}

uint64_t *jbigi_ifma_alloc(const jbigi_ifma_ctx *ctx, size_t count)
{
    size_t size = round64((size_t)ctx->words * sizeof(uint64_t) * count);
    uint64_t *p = jbigi_aligned_alloc(64, size);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

void jbigi_ifma_free(uint64_t *p, const jbigi_ifma_ctx *ctx, size_t count)
{
    if (p == NULL)
        return;
    jbigi_secure_zero(p, round64((size_t)ctx->words * sizeof(uint64_t) * count));
    jbigi_aligned_free(p);
}

void jbigi_ifma_ctx_clear(jbigi_ifma_ctx *ctx)
{
    if (ctx->mem != NULL) {
        jbigi_secure_zero(ctx->mem, ctx->mem_size);
        jbigi_aligned_free(ctx->mem);
    }
    memset(ctx, 0, sizeof *ctx);
}

/* -m^-1 mod 2^52 (m odd). */
static uint64_t neg_inverse52(uint64_t m0)
{
    return jbigi_negated_inverse(m0) & M52;
}

/* R^2 mod m, R = 2^(52 N), into ctx->rr; 0 or JBIGI_IFMA_NO_MEMORY. */
static int compute_rr(jbigi_ifma_ctx *ctx, int constant_time)
{
    const mp_size_t n = ctx->n;
    const size_t bit = (size_t)104 * (size_t)ctx->digits;
    const mp_size_t nn = (mp_size_t)(bit / 64 + 1);
    size_t scratch = constant_time ? (size_t)mpn_sec_div_r_itch(nn, n) : (size_t)(nn - n + 1);
    mp_limb_t *num = calloc((size_t)nn + (size_t)n + scratch, sizeof(mp_limb_t));
    if (num == NULL)
        return JBIGI_IFMA_NO_MEMORY;
    mp_limb_t *rem = num + nn, *tmp = rem + n;
    num[bit / 64] = (mp_limb_t)1 << (bit % 64);
    if (constant_time) {
        mpn_sec_div_r(num, nn, ctx->m_limbs, n, tmp);
        memcpy(rem, num, (size_t)n * sizeof(mp_limb_t));
    } else {
        mpn_tdiv_qr(tmp, rem, 0, num, nn, ctx->m_limbs, n);
    }
    jbigi_ifma_to_digits(ctx->rr, ctx->words, rem, n);
    jbigi_secure_zero(num, ((size_t)nn + (size_t)n + scratch) * sizeof(mp_limb_t));
    free(num);
    return 0;
}

int jbigi_ifma_ctx_init(jbigi_ifma_ctx *ctx, const mp_limb_t *m, mp_size_t n, int flags)
{
    memset(ctx, 0, sizeof *ctx);
    if (n < 1 || n > JBIGI_IFMA_MAX_LIMBS || !jbigi_ifma_cpu())
        return JBIGI_IFMA_UNSUPPORTED;
    /* 16 m < R: jbigi_ifma_double_if's bound (ifma.h). */
    if (!jbigi_ifma_headroom_ok(n, jbigi_ifma_digits(n)))
        return JBIGI_IFMA_UNSUPPORTED;
    ctx->n = n;
    ctx->digits = jbigi_ifma_digits(n);
    ctx->words = (ctx->digits + 7) & ~7;
    size_t words = (size_t)ctx->words * sizeof(uint64_t);
    ctx->mem_size = 2 * words + round64((size_t)n * sizeof(mp_limb_t));
    ctx->mem = jbigi_aligned_alloc(64, ctx->mem_size);
    if (ctx->mem == NULL)
        return JBIGI_IFMA_NO_MEMORY;
    ctx->m = ctx->mem;
    ctx->rr = ctx->m + ctx->words;
    ctx->m_limbs = (mp_limb_t *)(ctx->rr + ctx->words);
    memcpy(ctx->m_limbs, m, (size_t)n * sizeof(mp_limb_t));
    jbigi_ifma_to_digits(ctx->m, ctx->words, m, n);
    ctx->k0 = neg_inverse52(m[0]);
    ctx->secret_values = (flags & JBIGI_IFMA_SECRET_VALUES) != 0;
    int rc = compute_rr(ctx, (flags & JBIGI_IFMA_SECRET_MODULUS) != 0);
    if (rc != 0)
        jbigi_ifma_ctx_clear(ctx);
    return rc;
}
