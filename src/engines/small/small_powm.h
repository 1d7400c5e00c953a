/*
 * small_powm.h - modPow for small odd moduli, faster than mpz_powm there
 * (see small_powm.c).  No JNI here.
 */
#ifndef JBIGI_SMALL_POWM_H
#define JBIGI_SMALL_POWM_H

#include <gmp.h>

/* The largest modulus, in limbs, small_powm handles. */
#define JBIGI_SMALL_MAX_LIMBS 2

/*
 * r = b^e mod m, variable time.  m: n limbs, 1 <= n <= JBIGI_SMALL_MAX_LIMBS,
 * odd, > 1, top limb non-zero; b: n limbs, b < m; e: en >= 1 limbs, e > 0.
 * r: n limbs in [0, m), exactly mpz_powm's value.  Returns 0, or -1 for a
 * size it does not handle or when memory ran out (the caller uses mpz_powm).
 */
int jbigi_small_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                     mp_size_t n);

#endif
