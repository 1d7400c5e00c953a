/*
 * limb_inverse.h - the Montgomery constant -m0^-1 mod 2^GMP_NUMB_BITS of an
 * odd low limb m0, for every engine (the IFMA engine keeps its low 52 bits).
 */
#ifndef JBIGI_LIMB_INVERSE_H
#define JBIGI_LIMB_INVERSE_H

#include <gmp.h>

/* Newton's iteration with a fixed step count: m0 m0 = 1 mod 8 gives 3
 * correct bits, each step doubles them (6, 12, ... 192). */
static inline mp_limb_t jbigi_negated_inverse(mp_limb_t m0)
{
    mp_limb_t x = m0;
    for (int i = 0; i < 6; i++)
        x *= 2 - m0 * x;
    return (mp_limb_t)0 - x;
}

#endif
