/*
 * ifma_normalize.h - the kernels' last step: the accumulator's lanes, each
 * up to 62 bits, brought back to 52-bit digits and stored
 * (normalize_store).  Internal to src/engines/ifma/: every kernel inlines
 * it, and ifma_normalize.c exposes it to the tests.
 *
 * One vector pass moves each lane's bits above 52 up one lane; what is left
 * is at most one carry per lane, which ripples through lanes equal to
 * 2^52 - 1: computed at once on bit masks with one integer addition
 * ((generate << 1) + propagate) ^ propagate, then added under mask.  No
 * branch or address depends on the values, unless the context says they
 * are not secret: then the result is stored right after the first pass
 * when no lane exceeds 52 bits (all but always), and the next product
 * waits for one pass, not for the masks' round trip through the general
 * registers.
 */
#ifndef JBIGI_IFMA_NORMALIZE_H
#define JBIGI_IFMA_NORMALIZE_H

#include "engines/ifma/ifma_kernel.h"

#if JBIGI_AVX512_CODE

/* For K <= 4 registers: bit 8 k + j set when lane j of register k is above
 * 2^52 - 1 (generate) or equal to it (propagate: !generate). */
IFMA_INLINE __mmask32 ripple_mask32(const __m512i *R, __m512i mask, const int K, int generate)
{
    __mmask16 m[4];
UNROLL_ALL
    for (int k = 0; k < 4; k++)
        m[k] = k >= K ? 0 : generate ? _mm512_cmpgt_epu64_mask(R[k], mask) : _mm512_cmpeq_epu64_mask(R[k], mask);
    if (K == 1)
        return m[0];
    const __mmask16 low = _mm512_kunpackb(m[1], m[0]);
    if (K == 2)
        return low;
    return _mm512_kunpackw(_mm512_kunpackb(m[3], m[2]), low);
}

/*
 * Normalises the K registers of R into 52-bit digits and stores them at r.
 * The value must be below 2^(52 * 8 K) (it is: below 2 m).  secret: no
 * branch on the values (see below).
 */
IFMA_INLINE void normalize_store(uint64_t *r, __m512i *R, const int K, int secret)
{
    const __m512i mask = _mm512_set1_epi64((long long)M52);
    const __m512i zero = _mm512_setzero_si512();
    __m512i C[KMAX];
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        C[k] = _mm512_srli_epi64(R[k], 52);
        R[k] = _mm512_and_si512(R[k], mask);
    }
    /* Each lane's overflow into the next lane up. */
    R[0] = _mm512_add_epi64(R[0], _mm512_alignr_epi64(C[0], zero, 7));
UNROLL_ALL
    for (int k = 1; k < K; k++)
        R[k] = _mm512_add_epi64(R[k], _mm512_alignr_epi64(C[k], C[k - 1], 7));

    /* Lanes are now <= 2^52 - 1 + 2^12: a lane above 2^52 - 1 generates a
     * carry of exactly 1, a lane equal to it passes one on. */
    if (!secret) {
        /* A lane gets above 2^52 - 1 only when a carry of up to 2^12
         * lands on 52 bits that are about uniform: odds of about 2^-40 a
         * lane.  So store now, and the next product waits for this one
         * pass, not for the masks' round trip through the general
         * registers.  Not for secret values: whether the branch is taken
         * depends on them.  Not marked likely: GCC then moves the
         * branch-free way out of line, which the constant-time
         * exponentiations pay for.
         * doc/measurements.md: "The early store of a product (2026-12-01, Intel Xeon)" */
        __m512i any = R[0];
UNROLL_ALL
        for (int k = 1; k < K; k++)
            any = _mm512_or_si512(any, R[k]);
        if (_mm512_cmpgt_epu64_mask(any, mask) == 0) {
UNROLL_ALL
            for (int k = 0; k < K; k++)
                _mm512_store_si512((void *)(r + 8 * k), R[k]);
            return;
        }
    }
    if (K <= 4) {
        /* Up to 32 lanes: the carries worked out in the mask registers
         * (kunpck, kshift, kadd, kxor), never through the general ones,
         * whose round trip (kmov out, shifts and ors, kmov back) the next
         * product waits for. */
        __mmask32 G = ripple_mask32(R, mask, K, 1), P = ripple_mask32(R, mask, K, 0);
        __mmask32 inc = _kxor_mask32(_kadd_mask32(_kshiftli_mask32(G, 1), P), P);
        const __m512i minus1 = _mm512_set1_epi64(-1);
UNROLL_ALL
        for (int k = 0; k < K; k++) {
            R[k] = _mm512_and_si512(_mm512_mask_sub_epi64(R[k], (__mmask8)inc, R[k], minus1), mask);
            _mm512_store_si512((void *)(r + 8 * k), R[k]);
            inc = _kshiftri_mask32(inc, 8);
        }
        return;
    }
    uint64_t G[(KMAX + 7) / 8] = {0}, P[(KMAX + 7) / 8] = {0};
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        G[k / 8] |= (uint64_t)_mm512_cmpgt_epu64_mask(R[k], mask) << (8 * (k % 8));
        P[k / 8] |= (uint64_t)_mm512_cmpeq_epu64_mask(R[k], mask) << (8 * (k % 8));
    }
    uint64_t inc[(KMAX + 7) / 8];
    uint64_t carry = 0, gtop = 0;
#pragma GCC unroll 3
    for (int w = 0; w < (K + 7) / 8; w++) {
        u128 s = (u128)((G[w] << 1) | gtop) + P[w] + carry;
        gtop = G[w] >> 63;
        carry = (uint64_t)(s >> 64);
        inc[w] = (uint64_t)s ^ P[w];
    }
    const __m512i minus1 = _mm512_set1_epi64(-1);
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        __mmask8 im = (__mmask8)(inc[k / 8] >> (8 * (k % 8)));
        R[k] = _mm512_and_si512(_mm512_mask_sub_epi64(R[k], im, R[k], minus1), mask);
        _mm512_store_si512((void *)(r + 8 * k), R[k]);
    }
}

#endif /* JBIGI_AVX512_CODE */

#endif
