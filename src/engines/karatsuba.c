/*
 * karatsuba.c - Karatsuba's square and product without secret-dependent
 * branches, see karatsuba.h.
 *
 * With h = n / 2, a = a1 B^h + a0 and b = b1 B^h + b0 (B = 2^64):
 *
 *     a a = a1^2 B^n + (a0^2 + a1^2 - (a0 - a1)^2) B^h + a0^2
 *     a b = a1 b1 B^n + (a0 b0 + a1 b1 + (a0 - a1)(b1 - b0)) B^h + a0 b0
 *
 * The middle term is a0 a1 twice, or a0 b1 + a1 b0: below 2 B^n, so it
 * fits in n limbs and a carry of 0 or 1.  |a0 - a1| is both differences
 * computed and the non-negative one swapped into place under the first
 * subtraction's borrow; for the product the sign of (a0 - a1)(b1 - b0) is
 * the XOR of the two borrows and picks between mpn_cnd_add_n and
 * mpn_cnd_sub_n, both of which always run.
 *
 * Scratch, for a split of n limbs: n limbs for the differences (later the
 * middle term), n for their square or product, and what the halves' own
 * splits need above that: 2 n + 2 (n / 2) + ... < 4 n limbs; plus what
 * GMP's side-channel-silent functions ask for (mpn_sec_mul_itch,
 * mpn_sec_sqr_itch, mpn_sec_add_1_itch), added where they run: 0 in GMP 6,
 * but a library built against a shared libgmp runs whichever GMP the
 * system has, so jbigi_karatsuba_scratch asks them and never assumes.
 */
#include "engines/karatsuba.h"

static int splits(mp_size_t n, mp_size_t min)
{
    return n >= min && n % 2 == 0;
}

static size_t sqr_itch(mp_size_t n)
{
    return (size_t)mpn_sec_sqr_itch(n);
}

static size_t mul_itch(mp_size_t n)
{
    return (size_t)mpn_sec_mul_itch(n, n);
}

/* The scratch a square (min: JBIGI_KARATSUBA_SQR_MIN_LIMBS, leaf_itch:
 * sqr_itch) or product of n limbs takes: at a split, the differences and
 * their square or product (2 n), then the larger of the halves' own needs
 * and what add_middle's mpn_sec_add_1 needs beyond the n limbs it starts
 * at; at a leaf, GMP's own. */
static size_t scratch_of(mp_size_t n, mp_size_t min, size_t (*leaf_itch)(mp_size_t))
{
    if (!splits(n, min))
        return leaf_itch(n);
    const mp_size_t h = n / 2;
    size_t above = scratch_of(h, min, leaf_itch);
    const size_t add = (size_t)mpn_sec_add_1_itch(h);
    if (add > (size_t)n + above)
        above = add - (size_t)n;
    return 2 * (size_t)n + above;
}

size_t jbigi_karatsuba_scratch(mp_size_t n)
{
    const size_t sqr = scratch_of(n, JBIGI_KARATSUBA_SQR_MIN_LIMBS, sqr_itch),
                 mul = scratch_of(n, JBIGI_KARATSUBA_MUL_MIN_LIMBS, mul_itch);
    return sqr > mul ? sqr : mul;
}

/* r[0 .. 2 h) += the middle term t (n = 2 h limbs) at B^h, with its carry
 * c, every limb of r above it visited whatever the carry; scratch: n limbs
 * and the caller's deeper scratch after them (scratch_of). */
static void add_middle(mp_limb_t *r, const mp_limb_t *t, mp_limb_t c, mp_size_t n, mp_limb_t *scratch)
{
    const mp_size_t h = n / 2;
    c += mpn_add_n(r + h, r + h, t, n);
    mpn_sec_add_1(r + n + h, r + n + h, h, c, scratch); /* the total fits: no carry out */
}

/* d = |x - y| (h limbs each), using alt (h limbs); returns 1 when x < y. */
static mp_limb_t absolute_difference(mp_limb_t *d, mp_limb_t *alt, const mp_limb_t *x, const mp_limb_t *y,
                                     mp_size_t h)
{
    const mp_limb_t borrow = mpn_sub_n(d, x, y, h);
    mpn_sub_n(alt, y, x, h);
    mpn_cnd_swap(borrow, d, alt, h);
    return borrow;
}

void jbigi_karatsuba_sqr(mp_limb_t *r, const mp_limb_t *a, mp_size_t n, int secret, mp_limb_t *scratch)
{
    if (!splits(n, JBIGI_KARATSUBA_SQR_MIN_LIMBS)) {
        if (secret)
            mpn_sec_sqr(r, a, n, scratch); /* sqr_itch(n) limbs: jbigi_karatsuba_scratch */
        else
            mpn_sqr(r, a, n);
        return;
    }
    const mp_size_t h = n / 2;
    mp_limb_t *d = scratch, *square = scratch + n, *deeper = scratch + 2 * n;
    jbigi_karatsuba_sqr(r, a, h, secret, deeper);         /* a0^2 */
    jbigi_karatsuba_sqr(r + n, a + h, h, secret, deeper); /* a1^2 */
    absolute_difference(d, d + h, a, a + h, h);
    jbigi_karatsuba_sqr(square, d, h, secret, deeper); /* (a0 - a1)^2 */
    mp_limb_t *t = d;
    mp_limb_t c = mpn_add_n(t, r, r + n, n);
    c -= mpn_sub_n(t, t, square, n);
    add_middle(r, t, c, n, square);
}

void jbigi_karatsuba_mul(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, mp_size_t n, int secret,
                         mp_limb_t *scratch)
{
    if (!splits(n, JBIGI_KARATSUBA_MUL_MIN_LIMBS)) {
        if (secret)
            mpn_sec_mul(r, a, n, b, n, scratch); /* mul_itch(n) limbs: jbigi_karatsuba_scratch */
        else
            mpn_mul_n(r, a, b, n);
        return;
    }
    const mp_size_t h = n / 2;
    mp_limb_t *da = scratch, *db = scratch + h, *product = scratch + n, *deeper = scratch + 2 * n;
    jbigi_karatsuba_mul(r, a, b, h, secret, deeper);             /* a0 b0 */
    jbigi_karatsuba_mul(r + n, a + h, b + h, h, secret, deeper); /* a1 b1 */
    /* The differences' second forms go where their product will be. */
    const mp_limb_t negative = absolute_difference(da, product, a, a + h, h) ^
                               absolute_difference(db, product + h, b + h, b, h);
    jbigi_karatsuba_mul(product, da, db, h, secret, deeper); /* |a0 - a1| |b1 - b0| */
    mp_limb_t *t = da;
    mp_limb_t c = mpn_add_n(t, r, r + n, n);
    c += mpn_cnd_add_n(negative ^ 1, t, t, product, n);
    c -= mpn_cnd_sub_n(negative, t, t, product, n);
    add_middle(r, t, c, n, product);
}
