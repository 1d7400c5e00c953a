/*
 * gmp_limbs.c - the table format and the doubling shared by the engines on
 * GMP's limbs, see gmp_limbs.h.
 */
#include "engines/gmp_limbs.h"

#include <limits.h>

static size_t limbs_per_entry(mp_size_t n)
{
    return (size_t)n;
}

/* "JBF2": version 2 of the comb's layout (blocks of consecutive bits). */
const jbigi_table_format jbigi_gmp_table_format = {
    .magic = 0x4a424632,
    .entry_limbs = limbs_per_entry,
    .max_limbs = INT_MAX / 64,
};

/* 2 a = carry R + twice is below 2 m: m comes off when carry is set or
 * twice - m does not borrow.  The public form doubles only when asked; the
 * secret one always computes both and keeps them under masks
 * (mpn_cnd_swap: no branch, no address from bit or a). */
void jbigi_mont_double_if(mp_limb_t *a, mp_limb_t bit, const mp_limb_t *m, mp_size_t n, int secret,
                          mp_limb_t *scratch)
{
    if (!secret) {
        if (bit && (mpn_lshift(a, a, n, 1) != 0 || mpn_cmp(a, m, n) >= 0))
            mpn_sub_n(a, a, m, n);
        return;
    }
    mp_limb_t *twice = scratch, *less = scratch + n;
    const mp_limb_t carry = mpn_lshift(twice, a, n, 1);
    const mp_limb_t borrow = mpn_sub_n(less, twice, m, n);
    mpn_cnd_swap(carry | (borrow ^ 1), twice, less, n);
    mpn_cnd_swap(bit & 1, a, twice, n);
}
