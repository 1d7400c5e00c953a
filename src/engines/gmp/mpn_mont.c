/*
 * mpn_mont.c - Montgomery arithmetic on GMP's public mpn functions, see
 * mpn_mont.h.
 *
 * Invariants: values are below m < R = 2^(GMP_NUMB_BITS n), so a product u
 * is below m R and its reduction (u + q m) / R below 2 m: one subtraction
 * of m brings it into [0, m).
 *
 * TODO: a reduction on addmul_2 (GMP's internal mpn_redc_2) would be faster
 * than the public mpn_addmul_1 rows used here.
 */
#include "engines/gmp/mpn_mont.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/gmp_limbs.h"
#include "support/limb_inverse.h"
#include "support/scratch.h"
#include "platform/platform.h"

/* r = 2^(GMP_NUMB_BITS k) mod m, for k >= n, by the side-channel-silent
 * division: power (k + 1 limbs) and scratch as mpn_sec_div_r_itch says. */
static void power_of_r(const jbigi_mpn_ctx *ctx, mp_limb_t *r, mp_size_t k, mp_limb_t *power, mp_limb_t *scratch)
{
    mpn_zero(power, k);
    power[k] = 1;
    mpn_sec_div_r(power, k + 1, ctx->m, ctx->n, scratch);
    mpn_copyi(r, power, ctx->n);
}

int jbigi_mpn_ctx_init(jbigi_mpn_ctx *ctx, const mp_limb_t *m, mp_size_t n, int secret)
{
    memset(ctx, 0, sizeof *ctx);
    const size_t sn = (size_t)n;
    size_t sec_limbs = 0;
    if (secret) {
        const mp_size_t mul = mpn_sec_mul_itch(n, n), sqr = mpn_sec_sqr_itch(n);
        sec_limbs = (size_t)(mul > sqr ? mul : sqr);
    }
    /* The division's dividend and scratch, for R^2 mod m (the larger). */
    const size_t div_limbs = 2 * sn + 1 + (size_t)mpn_sec_div_r_itch(2 * n + 1, n);
    /* m, rr, one, product (2 n), spare; then the products' or the
     * division's scratch, which are never needed at once. */
    const size_t work = sec_limbs > div_limbs ? sec_limbs : div_limbs;
    if (sn > (SIZE_MAX / sizeof(mp_limb_t) - work) / 6)
        return -1;
    ctx->mem_limbs = 6 * sn + work;
    ctx->mem = jbigi_scratch_alloc(ctx->mem_limbs);
    if (ctx->mem == NULL)
        return -1;
    ctx->n = n;
    ctx->k0 = jbigi_negated_inverse(m[0]);
    ctx->secret = secret;
    ctx->m = ctx->mem;
    ctx->rr = ctx->m + n;
    ctx->one = ctx->rr + n;
    ctx->product = ctx->one + n;
    ctx->spare = ctx->product + 2 * n;
    mp_limb_t *scratch = ctx->spare + n;
    ctx->sec = secret ? scratch : NULL;
    mpn_copyi(ctx->m, m, n);
    power_of_r(ctx, ctx->rr, 2 * n, scratch, scratch + 2 * n + 1);
    power_of_r(ctx, ctx->one, n, scratch, scratch + 2 * n + 1);
    jbigi_secure_zero(scratch, work * sizeof(mp_limb_t));
    return 0;
}

void jbigi_mpn_ctx_clear(jbigi_mpn_ctx *ctx)
{
    jbigi_scratch_free(ctx->mem, ctx->mem_limbs);
    memset(ctx, 0, sizeof *ctx);
}

/*
 * r = u / R mod m for the product u in ctx->product (2 n limbs, below m R),
 * which it overwrites.  Each row clears the lowest limb by adding q m; the
 * row's carry is parked in that cleared limb and all of them are added in
 * one pass at the end.
 */
static void reduce(const jbigi_mpn_ctx *ctx, mp_limb_t *r)
{
    mp_limb_t *t = ctx->product;
    const mp_size_t n = ctx->n;
    for (mp_size_t i = 0; i < n; i++)
        t[i] = mpn_addmul_1(t + i, ctx->m, n, t[i] * ctx->k0);
    const mp_limb_t carry = mpn_add_n(r, t + n, t, n);
    /* The sum is below 2 m: subtract m once if it is >= m. */
    if (ctx->secret) {
        const mp_limb_t borrow = mpn_sub_n(ctx->spare, r, ctx->m, n);
        mpn_cnd_swap(carry | (borrow ^ 1), r, ctx->spare, n);
    } else if (carry || mpn_cmp(r, ctx->m, n) >= 0) {
        mpn_sub_n(r, r, ctx->m, n);
    }
}

static void mpn_mont_mul(const void *c, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    const jbigi_mpn_ctx *ctx = c;
    if (ctx->secret)
        mpn_sec_mul(ctx->product, a, ctx->n, b, ctx->n, ctx->sec);
    else
        mpn_mul_n(ctx->product, a, b, ctx->n);
    reduce(ctx, r);
}

static void mpn_mont_sqr(const void *c, mp_limb_t *r, const mp_limb_t *a)
{
    const jbigi_mpn_ctx *ctx = c;
    if (ctx->secret)
        mpn_sec_sqr(ctx->product, a, ctx->n, ctx->sec);
    else
        mpn_sqr(ctx->product, a, ctx->n);
    reduce(ctx, r);
}

static size_t mpn_mont_elem_limbs(const void *c)
{
    return (size_t)((const jbigi_mpn_ctx *)c)->n;
}

static mp_limb_t *mpn_mont_alloc(const void *c, size_t count)
{
    const size_t limbs = mpn_mont_elem_limbs(c);
    return count > SIZE_MAX / limbs ? NULL : jbigi_scratch_alloc(count * limbs);
}

static void mpn_mont_release(const void *c, mp_limb_t *p, size_t count)
{
    jbigi_scratch_free(p, count * mpn_mont_elem_limbs(c));
}

static void mpn_mont_to_mont(const void *c, mp_limb_t *r, const mp_limb_t *a)
{
    mpn_mont_mul(c, r, a, ((const jbigi_mpn_ctx *)c)->rr);
}

/* a / R: a times 1, reduced. */
static void mpn_mont_from_mont(const void *c, mp_limb_t *x, const mp_limb_t *a)
{
    const jbigi_mpn_ctx *ctx = c;
    mpn_copyi(ctx->product, a, ctx->n);
    mpn_zero(ctx->product + ctx->n, ctx->n);
    reduce(ctx, x);
}

static void mpn_mont_double_if(const void *c, mp_limb_t *a, mp_limb_t bit)
{
    const jbigi_mpn_ctx *ctx = c;
    jbigi_mont_double_if(a, bit, ctx->m, ctx->n, ctx->secret, ctx->product);
}

static void mpn_mont_one(const void *c, mp_limb_t *r)
{
    const jbigi_mpn_ctx *ctx = c;
    mpn_copyi(r, ctx->one, ctx->n);
}

const jbigi_mont_ops jbigi_mpn_mont_ops = {
    .elem_limbs = mpn_mont_elem_limbs,
    .alloc = mpn_mont_alloc,
    .release = mpn_mont_release,
    .to_mont = mpn_mont_to_mont,
    .from_mont = mpn_mont_from_mont,
    .one = mpn_mont_one,
    .mul = mpn_mont_mul,
    .sqr = mpn_mont_sqr,
    /* The drivers' masked select, which reads the comb's table faster than
     * mpn_sec_tabselect:
     * doc/measurements.md: "The comb's constant-time select (AMD EPYC Zen 5, 2026-12-02)" */
    .select = NULL,
    .select_any = NULL,
    .double_if = mpn_mont_double_if,
};

int jbigi_mpn_powm_base2(mp_limb_t *r, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m, mp_size_t n,
                         size_t fixed_bits)
{
    jbigi_mpn_ctx ctx;
    if (jbigi_mpn_ctx_init(&ctx, m, n, fixed_bits > 0) != 0)
        return -1;
    const int rc = jbigi_drive_base2(&jbigi_mpn_mont_ops, &ctx, r, e, en, fixed_bits);
    jbigi_mpn_ctx_clear(&ctx);
    return rc == JBIGI_DRIVER_OK ? 0 : -1;
}
