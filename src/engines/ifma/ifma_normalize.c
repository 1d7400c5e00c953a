/*
 * ifma_normalize.c - the kernels' last step on its own, for the tests
 * (jbigi_ifma_normalize, ifma.h): a product all but never takes the way
 * that stores a result without the early branch, so test_ifma drives both
 * ways here, with lanes made to carry and ripple.  The same
 * normalize_store (ifma_normalize.h) the kernels inline, one instance per
 * register count.
 */
#include <stdlib.h>

#include "engines/ifma/ifma.h"
#include "engines/ifma/ifma_kernel.h"
#include "engines/ifma/ifma_normalize.h"

#if JBIGI_AVX512_CODE

/* K registers from x, normalised into r. */
IFMA_INLINE void load_normalize_store(uint64_t *r, const uint64_t *x, int secret, const int K)
{
    __m512i R[KMAX];
UNROLL_ALL
    for (int k = 0; k < K; k++)
        R[k] = _mm512_load_si512((const void *)(x + 8 * k));
    normalize_store(r, R, K, secret);
}

IFMA_TARGET void jbigi_ifma_normalize(uint64_t *r, const uint64_t *x, int words, int secret)
{
    switch (words / 8) {
#define NORMALIZE_K(K)                                                                                 \
    case K:                                                                                            \
        load_normalize_store(r, x, secret, K);                                                         \
        break;
        NORMALIZE_K(1) NORMALIZE_K(2) NORMALIZE_K(3) NORMALIZE_K(4) NORMALIZE_K(5) NORMALIZE_K(6) NORMALIZE_K(7)
        NORMALIZE_K(8) NORMALIZE_K(9) NORMALIZE_K(10) NORMALIZE_K(11) NORMALIZE_K(12) NORMALIZE_K(13)
        NORMALIZE_K(14) NORMALIZE_K(15) NORMALIZE_K(16) NORMALIZE_K(17) NORMALIZE_K(18) NORMALIZE_K(19)
        NORMALIZE_K(20)
#undef NORMALIZE_K
    default:
        abort();
    }
}

#else /* not x86-64: ctx_init refuses, so this is never reached */

void jbigi_ifma_normalize(uint64_t *r, const uint64_t *x, int words, int secret)
{
    (void)r;
    (void)x;
    (void)words;
    (void)secret;
    abort();
}

#endif
