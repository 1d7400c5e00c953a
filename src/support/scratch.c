/*
 * scratch.c - wiped working memory, see scratch.h.
 */
#include "support/scratch.h"
#include "platform/platform.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

mp_limb_t *jbigi_scratch_alloc(size_t limbs)
{
    if (limbs == 0)
        limbs = 1;
    if (limbs > SIZE_MAX / sizeof(mp_limb_t))
        return NULL;
    mp_limb_t *scratch = malloc(limbs * sizeof(mp_limb_t));
    /* jbigi_secure_zero rather than memset: the compiler may turn malloc plus
     * memset into calloc, which allocators that watch malloc do not see. */
    if (scratch != NULL)
        jbigi_secure_zero(scratch, limbs * sizeof(mp_limb_t));
    return scratch;
}

void jbigi_scratch_free(mp_limb_t *scratch, size_t limbs)
{
    if (scratch == NULL)
        return;
    /* jbigi_secure_zero, unlike memset, is not removed as a dead store. */
    jbigi_secure_zero(scratch, limbs * sizeof(mp_limb_t));
    free(scratch);
}
