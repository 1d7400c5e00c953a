/*
 * karatsuba.h - one level (or more) of Karatsuba's product and square on
 * GMP's mpn layer, with no branch and no address that depends on a value:
 * the halves' differences are taken both ways and chosen with
 * mpn_cnd_swap, the middle term is added or subtracted with mpn_cnd_add_n
 * and mpn_cnd_sub_n, and the last carry goes in with mpn_sec_add_1.  The
 * halves are GMP's side-channel-silent products (mpn_sec_mul, mpn_sec_sqr)
 * when secret is set, else its fastest (mpn_mul_n, mpn_sqr).
 *
 * GMP's own Karatsuba (in mpn_mul_n and mpn_sqr) branches on which half
 * is larger, and mpn_sec_mul and mpn_sec_sqr never split; this one takes
 * over from them at the lengths below.  No JNI here.
 */
#ifndef JBIGI_KARATSUBA_H
#define JBIGI_KARATSUBA_H

#include <stddef.h>

#include <gmp.h>

/* Even lengths from these are split, the halves again while they are; below
 * them, and at odd lengths, GMP multiplies: there the split gained nothing
 * over mpn_sec_sqr and mpn_sec_mul:
 * doc/measurements.md: "The secret products' Karatsuba thresholds (Intel Xeon, 2026-12-03)" */
#define JBIGI_KARATSUBA_SQR_MIN_LIMBS 48
#define JBIGI_KARATSUBA_MUL_MIN_LIMBS 24

/* The scratch, in limbs, for a square or product of n limbs: below 4 n
 * with GMP 6, whose mpn_sec_*_itch are 0, and with what the running GMP's
 * mpn_sec_mul_itch, mpn_sec_sqr_itch and mpn_sec_add_1_itch ask for. */
size_t jbigi_karatsuba_scratch(mp_size_t n);

/*
 * r (2 n limbs) = a a, and r = a b, for a, b of n >= 1 limbs.  r must not
 * overlap a, b or scratch; scratch holds jbigi_karatsuba_scratch(n) limbs
 * and is left holding values derived from the inputs (the caller wipes it
 * when they are secret).  With secret set, time and addresses depend on n
 * alone.
 */
void jbigi_karatsuba_sqr(mp_limb_t *r, const mp_limb_t *a, mp_size_t n, int secret, mp_limb_t *scratch);
void jbigi_karatsuba_mul(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, mp_size_t n, int secret,
                         mp_limb_t *scratch);

#endif
