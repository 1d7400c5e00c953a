/*
 * adx_powm.c - b^e mod m on the MULX/ADX Montgomery layer (adx_mont.c),
 * through the shared drivers of powm_driver.h.
 *
 * Edge cases (m odd, n limbs, top limb non-zero; b < m): e = 0 gives 1 mod
 * m on the variable-time path before anything is prepared (0 for m = 1);
 * the constant-time path computes it like any exponent.  b = 0 gives 0
 * through the arithmetic: every value is fully reduced.  b = 2 takes the
 * drivers' base-2 path (squarings and doublings, no table).
 */
#include <stdlib.h>
#include <string.h>

#include "engines/adx/adx.h"
#include "engines/powm_driver.h"
#include "platform/platform.h"

static size_t adx_elem_limbs(const void *ctx)
{
    return (size_t)((const jbigi_adx_ctx *)ctx)->N;
}

static mp_limb_t *adx_alloc(const void *ctx, size_t count)
{
    return calloc(count * adx_elem_limbs(ctx), sizeof(mp_limb_t));
}

static void adx_release(const void *ctx, mp_limb_t *p, size_t count)
{
    jbigi_secure_zero(p, count * adx_elem_limbs(ctx) * sizeof(mp_limb_t));
    free(p);
}

static void adx_to_mont(const void *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    jbigi_adx_to_mont(ctx, r, a);
}

static void adx_from_mont(const void *ctx, mp_limb_t *x, const mp_limb_t *a)
{
    jbigi_adx_from_mont(ctx, x, a);
}

static void adx_one(const void *ctx, mp_limb_t *r)
{
    jbigi_adx_one(ctx, r);
}

static void adx_mul(const void *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    jbigi_adx_mul(ctx, r, a, b);
}

static void adx_sqr(const void *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    jbigi_adx_sqr(ctx, r, a);
}

static void adx_double_if(const void *ctx, mp_limb_t *a, mp_limb_t bit)
{
    jbigi_adx_double_if(ctx, a, bit);
}

const jbigi_mont_ops jbigi_adx_mont_ops = {
    .elem_limbs = adx_elem_limbs,
    .alloc = adx_alloc,
    .release = adx_release,
    .to_mont = adx_to_mont,
    .from_mont = adx_from_mont,
    .one = adx_one,
    .mul = adx_mul,
    .sqr = adx_sqr,
    .select = NULL,
    .select_any = jbigi_adx_select,
    .double_if = adx_double_if,
};

/* N = 4: the four-limb kernels called straight from the drivers. */
static void adx4_mul(const void *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    jbigi_adx_mul4(r, a, b, ((const jbigi_adx_ctx *)ctx)->mk4);
}

static void adx4_sqr(const void *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    jbigi_adx_sqr4(r, a, ((const jbigi_adx_ctx *)ctx)->mk4);
}

static void adx4_sqr_times(const void *ctx, mp_limb_t *r, const mp_limb_t *a, size_t count)
{
    jbigi_adx_sqr4_times(r, a, ((const jbigi_adx_ctx *)ctx)->mk4, count);
}

static void adx4_sqr_times_mul(const void *ctx, mp_limb_t *r, const mp_limb_t *a, size_t count,
                               const mp_limb_t *b)
{
    jbigi_adx_sqr4_times_mul(r, a, ((const jbigi_adx_ctx *)ctx)->mk4, count, b);
}

static const jbigi_mont_ops adx4_mont_ops = {
    .elem_limbs = adx_elem_limbs,
    .alloc = adx_alloc,
    .release = adx_release,
    .to_mont = adx_to_mont,
    .from_mont = adx_from_mont,
    .one = adx_one,
    .mul = adx4_mul,
    .sqr = adx4_sqr,
    .sqr_times = adx4_sqr_times,
    .sqr_times_mul = adx4_sqr_times_mul,
    .select = NULL,
    .select_any = jbigi_adx_select,
    .double_if = adx_double_if,
};

static int supported(mp_size_t n)
{
    return n >= 1 && n <= JBIGI_ADX_MAX_LIMBS && jbigi_adx_cpu();
}

int jbigi_adx_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                   mp_size_t n)
{
    if (!supported(n))
        return JBIGI_ADX_UNSUPPORTED;
    while (en > 0 && e[en - 1] == 0)
        en--;
    if (en == 0) { /* b^0 = 1, and 1 mod 1 = 0 */
        mpn_zero(r, n);
        r[0] = (n == 1 && m[0] == 1) ? 0 : 1;
        return 0;
    }
    const int two = jbigi_is_two(b, (size_t)n);
    jbigi_adx_ctx ctx;
    mp_limb_t ctx_mem[JBIGI_ADX_CTX_STACK_LIMBS];
    if (jbigi_adx_ctx_init_in(&ctx, m, n, two ? 0 : JBIGI_ADX_DIVIDE_TO_MONT, ctx_mem, JBIGI_ADX_CTX_STACK_LIMBS) != 0)
        return JBIGI_ADX_NO_MEMORY;
    const jbigi_mont_ops *ops = ctx.N == 4 ? &adx4_mont_ops : &jbigi_adx_mont_ops;
    int rc = two ? jbigi_drive_base2(ops, &ctx, r, e, en, 0) : jbigi_drive_window(ops, &ctx, r, b, e, en);
    jbigi_adx_ctx_clear(&ctx);
    return rc == JBIGI_DRIVER_OK ? 0 : JBIGI_ADX_NO_MEMORY;
}

int jbigi_adx_powm_sec_bits(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                            const mp_limb_t *m, mp_size_t n)
{
    if (!supported(n) || ebits < 1)
        return JBIGI_ADX_UNSUPPORTED;
    jbigi_adx_ctx ctx;
    mp_limb_t ctx_mem[JBIGI_ADX_CTX_STACK_LIMBS];
    if (jbigi_adx_ctx_init_in(&ctx, m, n, JBIGI_ADX_SECRET, ctx_mem, JBIGI_ADX_CTX_STACK_LIMBS) != 0)
        return JBIGI_ADX_NO_MEMORY;
    const jbigi_mont_ops *ops = ctx.N == 4 ? &adx4_mont_ops : &jbigi_adx_mont_ops;
    const mp_size_t en = (mp_size_t)((ebits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    int rc = jbigi_is_two(b, (size_t)n) ? jbigi_drive_base2(ops, &ctx, r, e, en, ebits)
                                        : jbigi_drive_fixed_window(ops, &ctx, r, b, e, ebits);
    jbigi_adx_ctx_clear(&ctx);
    return rc == JBIGI_DRIVER_OK ? 0 : JBIGI_ADX_NO_MEMORY;
}

int jbigi_adx_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                       mp_size_t n)
{
    if (en < 1)
        return JBIGI_ADX_UNSUPPORTED;
    return jbigi_adx_powm_sec_bits(r, b, e, (size_t)en * GMP_NUMB_BITS, m, n);
}
