/*
 * gmp_limbs.h - what the engines that keep values as GMP's limbs share
 * (the GMP engine's mpn_mont.c and the MULX/ADX engine): the fixed-base
 * table format both read, and the doubling of the drivers' base-2 path.
 * Written here, beside the drivers, so that neither engine calls the other.
 */
#ifndef JBIGI_GMP_LIMBS_H
#define JBIGI_GMP_LIMBS_H

#include <gmp.h>

#include "engines/engine.h"

/* Fixed-base tables in GMP's format: entries of n limbs in Montgomery form,
 * R = 2^(GMP_NUMB_BITS n), fully reduced.  An engine whose values are these
 * numbers names this format and so multiplies such tables. */
extern const jbigi_table_format jbigi_gmp_table_format;

/*
 * a = 2 a mod m when bit is 1, unchanged when 0, for a in [0, m) of n limbs
 * (m: n limbs, any top limb, a zero-padded modulus too): the doubling of
 * the drivers' base-2 path, written once for every engine on GMP limbs.
 * scratch: 2 n limbs, left holding values derived from a.  secret: the same
 * work and addresses for either bit and any a (mpn_cnd_swap); else it
 * doubles only when asked.
 */
void jbigi_mont_double_if(mp_limb_t *a, mp_limb_t bit, const mp_limb_t *m, mp_size_t n, int secret,
                          mp_limb_t *scratch);

#endif
