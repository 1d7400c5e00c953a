/*
 * limb_inverse.h - the Montgomery constant -m0^-1 mod 2^GMP_NUMB_BITS of an
 * odd low limb m0, for every engine (the IFMA engine keeps its low 52 bits).
 */
#ifndef JBIGI_LIMB_INVERSE_H
#define JBIGI_LIMB_INVERSE_H

#include <gmp.h>

/* Newton's iteration with a fixed step count: (3 m0) XOR 2 is m0's inverse
 * mod 2^5 for every odd m0, and each step x (2 - m0 x) doubles the correct
 * bits (10, 20, 40, 80), four steps where m0 itself as the start (3 bits)
 * takes six: the steps are one chain of dependent products, which a
 * single call's setup waits on. */
static inline mp_limb_t jbigi_negated_inverse(mp_limb_t m0)
{
    mp_limb_t x = (3 * m0) ^ 2;
    for (int i = 0; i < 4; i++)
        x *= 2 - m0 * x;
    return (mp_limb_t)0 - x;
}

#endif
