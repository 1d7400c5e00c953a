/*
 * adx_mont.c - the MULX/ADX engine's Montgomery layer, see adx.h.
 *
 * Invariants: N is a multiple of 4 and at least n; the modulus is odd and
 * zero-padded to N limbs, so m < R = 2^(64 N); every value handed in is
 * below m, so a product u = a b is below m R and its reduction
 * (u + q m) / R is below 2 m: one masked subtraction brings it into
 * [0, m).  Nothing here branches on a value: the loops run over N, the
 * carries stay in the flags, and the last subtraction is kept or dropped
 * under a mask, so the secret paths (ctx->secret) are constant time as
 * long as GMP's products are, which mpn_sec_mul and mpn_sec_sqr are.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adx.h"
#include "limb_inverse.h"
#include "cpu_check.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && GMP_LIMB_BITS == 64 && GMP_NAIL_BITS == 0
#define ADX_CODE 1
#else
#define ADX_CODE 0
#endif

#if ADX_CODE

/*
 * rp[0..n) += up[0..n) * v; returns the limb that carries out.  n is a
 * positive multiple of 4.  Per limb: MULX gives hi:lo of up[i] v; ADCX adds
 * rp[i] into lo on the CF chain, ADOX adds the previous limb's hi on the OF
 * chain.  The two chains are independent, so the additions of neighbouring
 * limbs overlap.  The loop counter runs from -n up to 0 and is tested with
 * JRCXZ, which leaves both flags alone (DEC or CMP would clobber OF).
 */
static inline mp_limb_t addmul_row(mp_limb_t *rp, const mp_limb_t *up, mp_size_t n, mp_limb_t v)
{
    mp_limb_t lo, hi, carry, t0, t1;
    long i = -(long)n;
    rp += n;
    up += n;
    __asm__ volatile("xor %k[c], %k[c]\n\t" /* carry = 0; CF = OF = 0 */
                     "1:\n\t"
                     "mulx (%[up],%[i],8), %[lo], %[hi]\n\t"
                     "mov (%[rp],%[i],8), %[t0]\n\t"
                     "mov 8(%[rp],%[i],8), %[t1]\n\t"
                     "adcx %[lo], %[t0]\n\t"
                     "adox %[c], %[t0]\n\t"
                     "mov %[t0], (%[rp],%[i],8)\n\t"
                     "mulx 8(%[up],%[i],8), %[lo], %[c]\n\t"
                     "mov 16(%[rp],%[i],8), %[t0]\n\t"
                     "adcx %[lo], %[t1]\n\t"
                     "adox %[hi], %[t1]\n\t"
                     "mov %[t1], 8(%[rp],%[i],8)\n\t"
                     "mulx 16(%[up],%[i],8), %[lo], %[hi]\n\t"
                     "mov 24(%[rp],%[i],8), %[t1]\n\t"
                     "adcx %[lo], %[t0]\n\t"
                     "adox %[c], %[t0]\n\t"
                     "mov %[t0], 16(%[rp],%[i],8)\n\t"
                     "mulx 24(%[up],%[i],8), %[lo], %[c]\n\t"
                     "adcx %[lo], %[t1]\n\t"
                     "adox %[hi], %[t1]\n\t"
                     "mov %[t1], 24(%[rp],%[i],8)\n\t"
                     "lea 4(%[i]), %[i]\n\t"
                     "jrcxz 2f\n\t"
                     "jmp 1b\n"
                     "2:\n\t"
                     "mov $0, %k[hi]\n\t" /* MOV keeps the flags */
                     "adcx %[hi], %[c]\n\t"
                     "adox %[hi], %[c]\n\t"
                     : [c] "=&r"(carry), [lo] "=&r"(lo), [hi] "=&r"(hi), [t0] "=&r"(t0), [t1] "=&r"(t1), [i] "+c"(i)
                     : [up] "r"(up), [rp] "r"(rp), "d"(v)
                     : "cc", "memory");
    return carry;
}

/* A mask of all ones when bit is 1, of zeros when 0, that the compiler
 * cannot see through (it might otherwise bring back a branch). */
static inline mp_limb_t mask_of(mp_limb_t bit)
{
    mp_limb_t mask = (mp_limb_t)0 - bit;
    __asm__("" : "+r"(mask));
    return mask;
}

void jbigi_adx_redc(const jbigi_adx_ctx *ctx, mp_limb_t *r, mp_limb_t *u)
{
    const mp_size_t N = ctx->N;
    const mp_limb_t *m = ctx->m;
    /* Row i clears u[i]; the row's carry is parked there (GMP's redc_1
     * does the same) and all of them are added in one pass at the end. */
    for (mp_size_t i = 0; i < N; i++)
        u[i] = addmul_row(u + i, m, N, u[i] * ctx->k0);
    mp_limb_t high = mpn_add_n(r, u + N, u, N);
    /* r + high R < 2 m: subtract m when that is still >= m, which is when
     * high is set or the subtraction does not borrow. */
    mp_limb_t *d = u; /* u's low half is free now */
    mp_limb_t borrow = mpn_sub_n(d, r, m, N);
    const mp_limb_t keep_difference = mask_of((high | (borrow ^ 1)) & 1);
    for (mp_size_t i = 0; i < N; i++)
        r[i] = (d[i] & keep_difference) | (r[i] & ~keep_difference);
}

void jbigi_adx_mul(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    mp_limb_t u[2 * JBIGI_ADX_MAX_LIMBS];
    const mp_size_t N = ctx->N;
    if (ctx->secret)
        mpn_sec_mul(u, a, N, b, N, NULL); /* mpn_sec_mul_itch is 0 */
    else
        mpn_mul_n(u, a, b, N);
    jbigi_adx_redc(ctx, r, u);
    if (ctx->secret)
        explicit_bzero(u, sizeof(mp_limb_t) * 2 * (size_t)N);
}

void jbigi_adx_sqr(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    mp_limb_t u[2 * JBIGI_ADX_MAX_LIMBS];
    const mp_size_t N = ctx->N;
    if (ctx->secret)
        mpn_sec_sqr(u, a, N, NULL); /* mpn_sec_sqr_itch is 0 */
    else
        mpn_sqr(u, a, N);
    jbigi_adx_redc(ctx, r, u);
    if (ctx->secret)
        explicit_bzero(u, sizeof(mp_limb_t) * 2 * (size_t)N);
}

#else /* not x86-64: the engine is never available, these are never reached */

void jbigi_adx_redc(const jbigi_adx_ctx *ctx, mp_limb_t *r, mp_limb_t *u)
{
    (void)ctx, (void)r, (void)u;
    abort();
}

void jbigi_adx_mul(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    (void)ctx, (void)r, (void)a, (void)b;
    abort();
}

void jbigi_adx_sqr(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    (void)ctx, (void)r, (void)a;
    abort();
}

#endif

int jbigi_adx_ctx_init(jbigi_adx_ctx *ctx, const mp_limb_t *m, mp_size_t n, int secret)
{
    const mp_size_t N = (n + 3) & ~(mp_size_t)3;
    memset(ctx, 0, sizeof *ctx);
    ctx->n = n;
    ctx->N = N;
    ctx->secret = secret != 0;
    ctx->k0 = jbigi_negated_inverse(m[0]);
    /* m, rr, one; and for R^2 mod m: 2 N + 1 limbs of 2^(128 N) and the
     * division's scratch (or quotient). */
    const mp_size_t div_scratch = secret ? mpn_sec_div_r_itch(2 * N + 1, n) : 2 * N + 2 - n;
    ctx->mem_limbs = 3 * (size_t)N + 2 * (size_t)N + 1 + (size_t)div_scratch;
    ctx->mem = calloc(ctx->mem_limbs, sizeof(mp_limb_t));
    if (ctx->mem == NULL)
        return -1;
    ctx->m = ctx->mem;
    ctx->rr = ctx->m + N;
    ctx->one = ctx->rr + N;
    mp_limb_t *power = ctx->one + N, *scratch = power + 2 * N + 1;
    mpn_copyi(ctx->m, m, n);
    /* R^2 = 2^(128 N) mod m, reduced in place. */
    power[2 * N] = 1;
    if (secret) {
        mpn_sec_div_r(power, 2 * N + 1, m, n, scratch);
    } else {
        mpn_tdiv_qr(scratch, power, 0, power, 2 * N + 1, m, n);
    }
    mpn_copyi(ctx->rr, power, n);
    /* R mod m: R^2 reduced once (R^2 / R). */
    mpn_zero(power, 2 * N + 1);
    mpn_copyi(power, ctx->rr, N);
#if ADX_CODE
    jbigi_adx_redc(ctx, ctx->one, power);
#endif
    explicit_bzero(power, sizeof(mp_limb_t) * (2 * (size_t)N + 1 + (size_t)div_scratch));
    return 0;
}

void jbigi_adx_ctx_clear(jbigi_adx_ctx *ctx)
{
    if (ctx->mem != NULL) {
        explicit_bzero(ctx->mem, ctx->mem_limbs * sizeof(mp_limb_t));
        free(ctx->mem);
    }
    memset(ctx, 0, sizeof *ctx);
}

void jbigi_adx_to_mont(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    mp_limb_t padded[JBIGI_ADX_MAX_LIMBS];
    mpn_zero(padded, ctx->N);
    mpn_copyi(padded, a, ctx->n);
    jbigi_adx_mul(ctx, r, padded, ctx->rr);
    explicit_bzero(padded, sizeof(mp_limb_t) * (size_t)ctx->N);
}

void jbigi_adx_from_mont(const jbigi_adx_ctx *ctx, mp_limb_t *x, const mp_limb_t *a)
{
    mp_limb_t u[2 * JBIGI_ADX_MAX_LIMBS], r[JBIGI_ADX_MAX_LIMBS];
    const mp_size_t N = ctx->N;
    mpn_copyi(u, a, N);
    mpn_zero(u + N, N);
    jbigi_adx_redc(ctx, r, u);
    mpn_copyi(x, r, ctx->n);
    explicit_bzero(u, sizeof(mp_limb_t) * 2 * (size_t)N);
    explicit_bzero(r, sizeof(mp_limb_t) * (size_t)N);
}

static int cpu_has_adx(void)
{
    const char *env = getenv("JBIGI_ENGINE");
    if (env != NULL && strcmp(env, "gmp") == 0)
        return 0;
#if defined(JBIGI_ADX_VALGRIND)
    /* Test builds for valgrind only, on a host with ADX: valgrind executes
     * ADCX and ADOX but clears ADX in the CPUID it shows the program. */
    return ADX_CODE && jbigi_cpu_has("bmi2") == 1;
#else
    return ADX_CODE && jbigi_cpu_has("bmi2") == 1 && jbigi_cpu_has("adx") == 1;
#endif
}

int jbigi_adx_cpu(void)
{
    /* -1 not known yet; two threads computing it at once get one answer. */
    static _Atomic int known = -1;
    int v = known;
    if (v < 0)
        known = v = cpu_has_adx();
    return v;
}
