/*
 * small_powm.c - modPow for one- and two-limb odd moduli, variable time, in
 * plain C.
 *
 * For the smallest moduli mpz_powm spends most of its time around the
 * arithmetic: a squaring and a separate REDC per step, each a call into code
 * made for longer operands.  Here one function per limb count, with the
 * count a compile-time constant, multiplies and reduces in one pass
 * (coarsely integrated operand scanning) in registers; the exponent is
 * scanned by the shared sliding window (powm_driver.h), which inlines these
 * products.  It beats mpz_powm at one limb only (at two it draws level, and
 * GMP's assembly wins above), so the registry gives it one limb:
 * doc/measurements.md: "One limb against mpz_powm (2026-11-30)"
 * Results are mpz_powm's, bit for bit: everything is reduced into [0, m) at
 * the end.
 *
 * Edge cases, handled by the caller: m even or m = 1 (no Montgomery form),
 * exponent 0, base not yet reduced into [0, m).
 */
#include "engines/small/small_powm.h"
#include "support/limb_inverse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/powm_driver.h"

/* A product of two limbs and what carries into it: twice a limb's width. */
#if GMP_LIMB_BITS == 64 && GMP_NAIL_BITS == 0
typedef unsigned __int128 wide;
#elif GMP_LIMB_BITS == 32 && GMP_NAIL_BITS == 0
typedef uint64_t wide;
#else
#error "small_powm.c needs 32- or 64-bit GMP limbs without nails"
#endif
#define LIMB_BITS GMP_LIMB_BITS

/*
 * r = a b / 2^(LIMB_BITS n) mod m for a, b in [0, m), r in [0, m).  r may alias a
 * or b.  The product is accumulated and reduced one limb of b at a time;
 * the running value stays below 2 m, so one conditional subtraction ends it.
 */
static inline __attribute__((always_inline)) void mont_mul(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b,
                                                          const mp_limb_t *m, mp_limb_t minv, const int n)
{
    mp_limb_t t[JBIGI_SMALL_MAX_LIMBS + 2];
    for (int j = 0; j < n + 2; j++)
        t[j] = 0;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        wide c = 0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) {
            c = (wide)a[j] * b[i] + t[j] + (mp_limb_t)(c >> LIMB_BITS);
            t[j] = (mp_limb_t)c;
        }
        c = (wide)t[n] + (mp_limb_t)(c >> LIMB_BITS);
        t[n] = (mp_limb_t)c;
        t[n + 1] = (mp_limb_t)(c >> LIMB_BITS);

        const mp_limb_t q = t[0] * minv;
        c = (wide)q * m[0] + t[0];
#pragma GCC unroll 8
        for (int j = 1; j < n; j++) {
            c = (wide)q * m[j] + t[j] + (mp_limb_t)(c >> LIMB_BITS);
            t[j - 1] = (mp_limb_t)c;
        }
        c = (wide)t[n] + (mp_limb_t)(c >> LIMB_BITS);
        t[n - 1] = (mp_limb_t)c;
        t[n] = t[n + 1] + (mp_limb_t)(c >> LIMB_BITS);
    }
    /* t < 2 m: subtract m once if t >= m. */
    int subtract = t[n] != 0;
    if (!subtract) {
        subtract = 1;
        for (int j = n; j-- > 0;) {
            if (t[j] != m[j]) {
                subtract = t[j] > m[j];
                break;
            }
        }
    }
    if (subtract) {
        mp_limb_t borrow = 0;
        for (int j = 0; j < n; j++) {
            wide d = (wide)t[j] - m[j] - borrow;
            r[j] = (mp_limb_t)d;
            borrow = (mp_limb_t)(d >> LIMB_BITS) & 1;
        }
    } else {
        for (int j = 0; j < n; j++)
            r[j] = t[j];
    }
}

/* The modulus as the driver's context: one per limb count, so that each
 * engine below has n as a constant. */
typedef struct {
    const mp_limb_t *m;
    mp_limb_t minv;
} small_ctx;

static mp_limb_t *small_alloc(const void *ctx, size_t count, int n)
{
    (void)ctx;
    return calloc(count * (size_t)n, sizeof(mp_limb_t));
}

static void small_release(const void *ctx, mp_limb_t *p, size_t count, int n)
{
    (void)ctx;
    memset(p, 0, count * (size_t)n * sizeof(mp_limb_t)); /* variable time only: nothing secret */
    free(p);
}

/* a in Montgomery form: a 2^(LIMB_BITS n) mod m, by one division. */
static void small_to_mont(const void *ctx, mp_limb_t *r, const mp_limb_t *a, int n)
{
    const small_ctx *c = ctx;
    mp_limb_t shifted[2 * JBIGI_SMALL_MAX_LIMBS], q[JBIGI_SMALL_MAX_LIMBS + 1];
    for (int j = 0; j < n; j++) {
        shifted[j] = 0;
        shifted[n + j] = a[j];
    }
    mpn_tdiv_qr(q, r, 0, shifted, 2 * n, c->m, n);
}

/* Out of Montgomery form: a / 2^(LIMB_BITS n), already in [0, m). */
static void small_from_mont(const void *ctx, mp_limb_t *x, const mp_limb_t *a, int n)
{
    const small_ctx *c = ctx;
    mp_limb_t one[JBIGI_SMALL_MAX_LIMBS] = {1};
    mont_mul(x, a, one, c->m, c->minv, n);
}

#define SMALL_OPS(N)                                                                                   \
    static size_t small_elem_limbs_##N(const void *ctx)                                                \
    {                                                                                                  \
        (void)ctx;                                                                                     \
        return N;                                                                                      \
    }                                                                                                  \
    static mp_limb_t *small_alloc_##N(const void *ctx, size_t count)                                   \
    {                                                                                                  \
        return small_alloc(ctx, count, N);                                                             \
    }                                                                                                  \
    static void small_release_##N(const void *ctx, mp_limb_t *p, size_t count)                         \
    {                                                                                                  \
        small_release(ctx, p, count, N);                                                               \
    }                                                                                                  \
    static void small_to_mont_##N(const void *ctx, mp_limb_t *r, const mp_limb_t *a)                  \
    {                                                                                                  \
        small_to_mont(ctx, r, a, N);                                                                   \
    }                                                                                                  \
    static void small_from_mont_##N(const void *ctx, mp_limb_t *x, const mp_limb_t *a)                \
    {                                                                                                  \
        small_from_mont(ctx, x, a, N);                                                                 \
    }                                                                                                  \
    static void small_mul_##N(const void *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)  \
    {                                                                                                  \
        const small_ctx *c = ctx;                                                                      \
        mont_mul(r, a, b, c->m, c->minv, N);                                                           \
    }                                                                                                  \
    static void small_sqr_##N(const void *ctx, mp_limb_t *r, const mp_limb_t *a)                      \
    {                                                                                                  \
        const small_ctx *c = ctx;                                                                      \
        mont_mul(r, a, a, c->m, c->minv, N);                                                           \
    }                                                                                                  \
    static const jbigi_mont_ops small_ops_##N = {                                                      \
        .elem_limbs = small_elem_limbs_##N,                                                            \
        .alloc = small_alloc_##N,                                                                      \
        .release = small_release_##N,                                                                  \
        .to_mont = small_to_mont_##N,                                                                  \
        .from_mont = small_from_mont_##N,                                                              \
        .one = NULL, /* the constant-time driver is not used here */                                  \
        .mul = small_mul_##N,                                                                          \
        .sqr = small_sqr_##N,                                                                          \
        .select = NULL,                                                                                \
    };
SMALL_OPS(1)
SMALL_OPS(2)
#undef SMALL_OPS

int jbigi_small_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                     mp_size_t n)
{
    while (en > 0 && e[en - 1] == 0)
        en--;
    if (en == 0 || n < 1 || n > JBIGI_SMALL_MAX_LIMBS)
        return -1;
    const small_ctx ctx = {m, jbigi_negated_inverse(m[0])};
    const int rc = n == 1 ? jbigi_drive_window(&small_ops_1, &ctx, r, b, e, en)
                          : jbigi_drive_window(&small_ops_2, &ctx, r, b, e, en);
    return rc == JBIGI_DRIVER_OK ? 0 : -1;
}
