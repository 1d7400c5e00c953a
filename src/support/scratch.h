/*
 * scratch.h - working memory for the arithmetic that holds secrets
 * (intermediate powers of a secret exponent, padded copies of it): taken
 * from the C heap, so that running out is a status rather than GMP's abort,
 * and wiped before it is given back.
 */
#ifndef JBIGI_SCRATCH_H
#define JBIGI_SCRATCH_H

#include <stddef.h>
#include <gmp.h>

/* limbs zeroed limbs, or NULL if there is no memory. */
mp_limb_t *jbigi_scratch_alloc(size_t limbs);

/* Wipes and frees what jbigi_scratch_alloc gave (NULL is ignored). */
void jbigi_scratch_free(mp_limb_t *scratch, size_t limbs);

#endif
