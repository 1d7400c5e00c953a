/*
 * ifma_amm_two.h - the product from 8 registers up (2944 bits and more),
 * where a step is bound by the vector units rather than by latency: two
 * digits of b a step, the reduction keeping up (no lag), the products
 * straight into the accumulator, one shift by two lanes per register
 * (amm_two).  Also the lone last digit of an odd digit count, which the
 * two-digit squaring (ifma_sqr.h) ends with too (one_digit_step).
 * Internal to src/engines/ifma/: included by ifma_sqr.h and ifma_mul.c,
 * which instantiates it per register count.
 *
 * Invariant of a step (frame i: lane p holds digit i + p): the scalar side
 * knows digit i exactly (D); lane 0 of the vector is stale.  The scalar
 * side reads digits i + 1 and i + 2 as the vector holds them before the
 * step, the two digits the shift drops, and adds what the step puts into
 * them below the vector's view.
 */
#ifndef JBIGI_IFMA_AMM_TWO_H
#define JBIGI_IFMA_AMM_TWO_H

#include <stddef.h>

#include "engines/ifma/ifma_kernel.h"
#include "engines/ifma/ifma_normalize.h"

#if JBIGI_AVX512_CODE

/* Register k of the operand at p in amm_two's step.  From
 * OPERANDS_LOADED_KMIN registers up, a load of its own (the step makes p
 * opaque: see step_operands), which the compiler may neither hoist nor fold
 * into a multiply-add. */
IFMA_INLINE __m512i step_operand(const uint64_t *p, int k, const int K)
{
    __m512i x = _mm512_load_si512((const void *)(p + 8 * k));
    if (K >= OPERANDS_LOADED_KMIN)
        JBIGI_VECTOR_OPAQUE(x);
    return x;
}

/* At the top of amm_two's step: from OPERANDS_LOADED_KMIN
 * registers up, the operands' addresses become opaque, so that their loads
 * stay in the step. */
#define step_operands(p, q, K)                                                                         \
    do {                                                                                               \
        if (K >= OPERANDS_LOADED_KMIN)                                                                 \
            __asm__("" : "+r"(p), "+r"(q));                                                            \
    } while (0)

/* The last digit when N is odd, one digit on its own as the two-digit
 * kernels' steps take them two at a time: S, the bottom digit exactly
 * with lo(x_0 b) in; e1, what b adds to the next digit below the vector's
 * view.  x (a, or NULL when b adds nothing to the vector) times b, plus
 * q m: low halves, down one lane, high halves.  Returns the new bottom
 * digit exactly. */
IFMA_INLINE uint64_t one_digit_step(__m512i *R, uint64_t S, uint64_t e1, const uint64_t *x, uint64_t b,
                                    const uint64_t *m, uint64_t k0s, const int K)
{
    const __m512i zero = _mm512_setzero_si512();
    const uint64_t v1 = lane1_via_memory(R[0]);
    const uint64_t qs = S * k0s;
    const uint64_t c = (S + M52) >> 52;
    const uint64_t D = v1 + e1 + c + ((m[1] * qs) >> 12) + (uint64_t)(((u128)m[0] * qs) >> 64);
    const __m512i B = _mm512_set1_epi64((long long)b), Q = _mm512_set1_epi64((long long)(qs >> 12));
    __m512i L[KMAX + 1];
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        L[k] = _mm512_madd52lo_epu64(R[k], _mm512_load_si512((const void *)(m + 8 * k)), Q);
        if (x != NULL)
            L[k] = _mm512_madd52lo_epu64(L[k], _mm512_load_si512((const void *)(x + 8 * k)), B);
    }
    L[K] = zero;
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        R[k] = _mm512_madd52hi_epu64(_mm512_alignr_epi64(L[k + 1], L[k], 1),
                                     _mm512_load_si512((const void *)(m + 8 * k)), Q);
        if (x != NULL)
            R[k] = _mm512_madd52hi_epu64(R[k], _mm512_load_si512((const void *)(x + 8 * k)), B);
    }
    return D;
}

/* Register k of frame i before the shift: the accumulator plus lo(a b_i)
 * and lo(m q_i). */
IFMA_INLINE __m512i frame_lo(__m512i acc, const uint64_t *a, const uint64_t *m, __m512i B0, __m512i Q0, int k,
                             const int K)
{
    return _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(acc, step_operand(a, k, K), B0), step_operand(m, k, K), Q0);
}

/* The scalar side of a two-digit step from 8 registers up.  D: digit i
 * exactly; v1, v2: digits i + 1 and i + 2 as the vector holds them before
 * the step; e1: what b_i adds to digit i + 1 below the vector's view (plus
 * lo(a_0 b_(i+1)) once q_i is known: f1), e2 what b_i and b_(i+1) add to
 * digit i + 2.  Makes q_i and q_(i+1) (shifted left 12 bits) and returns
 * digit i + 2 exactly. */
IFMA_INLINE uint64_t two_scalar_step(uint64_t qs[2], uint64_t D, uint64_t v1, uint64_t v2, uint64_t e1, uint64_t f1,
                                     uint64_t e2, uint64_t k0s, uint64_t m0, uint64_t m1, uint64_t m2)
{
    /* q shifted left 12 bits as in pair_scalar_step; D + lo(m_0 q_i) is D
     * rounded up to a multiple of 2^52, so the carry out of digit i is
     * known before q_i (one multiplication less on the chain). */
    const uint64_t q0 = D * k0s;
    const uint64_t c0 = (D + M52) >> 52;
    const u128 y0 = (u128)m0 * q0, y1 = (u128)m1 * q0;
    /* Digit i + 1 exactly, then q_(i+1) from it; digit i + 2 takes both
     * q's shares. */
    const uint64_t S1 = v1 + e1 + c0 + ((uint64_t)y1 >> 12) + (uint64_t)(y0 >> 64) + f1;
    const uint64_t q1 = S1 * k0s;
    const uint64_t c1 = (S1 + M52) >> 52;
    qs[0] = q0;
    qs[1] = q1;
    return v2 + e2 + c1 + ((m2 * q0) >> 12) + (uint64_t)(y1 >> 64) + ((m1 * q1) >> 12) +
           (uint64_t)(((u128)m0 * q1) >> 64);
}

/*
 * r = a b / 2^(52 N) + (0 or m) from 8 registers up, two digits of b a step
 * and one shift (by two lanes) per register: in frame i (lane p: digit
 * i + p), lo(a b_i) and lo(m q_i); then down two lanes; then, in frame
 * i + 2, hi(a b_i) and lo(a b_(i+1)) from a moved down one lane (ad),
 * hi(a b_(i+1)) from a, and the same for m and q_i, q_(i+1).  ad and md
 * are loaded at each step (they do not fit in registers next to the
 * accumulator), a and m from OPERANDS_LOADED_KMIN registers up.  The scalar
 * side (two_scalar_step) knows digit i exactly and reads digits i + 1 and
 * i + 2 as the vector holds them before the step, the two digits the shift
 * drops: lane 0 of a frame is stale.  An odd N ends with one_digit_step.
 */
IFMA_INLINE void amm_two(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t k0, int N,
                         int secret, const int K)
{
    const __m512i zero = _mm512_setzero_si512();
    /* For the scalar side, for all of b at once: lo(a_0 b_i) (F), the rest
     * of a_0's and a_1's share of digit i + 1 (E) and a_1's and a_2's of
     * digit i + 2 (G). */
    _Alignas(64) uint64_t F[KMAX * 8], E[KMAX * 8], G[KMAX * 8], ad[KMAX * 8], md[KMAX * 8];
    {
        const __m512i A0 = _mm512_set1_epi64((long long)a[0]), A1 = _mm512_set1_epi64((long long)a[1]),
                      A2 = _mm512_set1_epi64((long long)a[2]);
UNROLL_ALL
        for (int k = 0; k < K; k++) {
            const __m512i x = _mm512_load_si512((const void *)(b + 8 * k));
            _mm512_store_si512((void *)(F + 8 * k), _mm512_madd52lo_epu64(zero, A0, x));
            _mm512_store_si512((void *)(E + 8 * k), _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, A1, x), A0, x));
            _mm512_store_si512((void *)(G + 8 * k), _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, A2, x), A1, x));
        }
    }
    store_moved_down(ad, a, K);
    store_moved_down(md, m, K);
    const uint64_t *f = F, *e = E, *g = G, *adp = ad, *mdp = md;
    __asm__("" : "+r"(f), "+r"(e), "+r"(g) : : "memory");
    __asm__("" : "+r"(adp), "+r"(mdp) : : "memory");
    const uint64_t m0 = m[0], m1 = m[1], m2 = m[2], k0s = k0 << 12;

    __m512i R[KMAX];
UNROLL_ALL
    for (int k = 0; k < K; k++)
        R[k] = zero;
    uint64_t D = 0; /* the bottom digit, exactly */
    for (int i = 0; i + 1 < N; i += 2) {
        step_operands(a, m, K);
        __asm__("" : "+r"(adp), "+r"(mdp));
        uint64_t v1, v2, qs[2];
        lanes_1_2_via_memory(&v1, &v2, R[0]);
        D = two_scalar_step(qs, D + f[i], v1, v2, e[i], f[i + 1], g[i] + e[i + 1], k0s, m0, m1, m2);
        const __m512i B0 = _mm512_set1_epi64((long long)b[i]), B1 = _mm512_set1_epi64((long long)b[i + 1]);
        const __m512i Q0 = broadcast_via_memory(qs[0] >> 12), Q1 = broadcast_via_memory(qs[1] >> 12);
        /* Register by register, so that only two pre-shift values are live
         * at a time. */
        __m512i lo = frame_lo(R[0], a, m, B0, Q0, 0, K);
UNROLL_ALL
        for (int k = 0; k < K; k++) {
            const __m512i up = k + 1 < K ? frame_lo(R[k + 1], a, m, B0, Q0, k + 1, K) : zero;
            __m512i t = _mm512_alignr_epi64(up, lo, 2);
            const __m512i ad_k = loaded_operand(adp, k), md_k = loaded_operand(mdp, k);
            t = _mm512_madd52hi_epu64(t, ad_k, B0);
            t = _mm512_madd52lo_epu64(t, ad_k, B1);
            t = _mm512_madd52hi_epu64(t, step_operand(a, k, K), B1);
            t = _mm512_madd52hi_epu64(t, md_k, Q0);
            t = _mm512_madd52lo_epu64(t, md_k, Q1);
            R[k] = _mm512_madd52hi_epu64(t, step_operand(m, k, K), Q1);
            lo = up;
        }
    }
    if (N & 1)
        D = one_digit_step(R, D + f[N - 1], e[N - 1], a, b[N - 1], m, k0s, K);
    R[0] = _mm512_mask_set1_epi64(R[0], 1, (long long)D);
    normalize_store(r, R, K, secret);
    /* Products of a and b, and a itself: secret in the constant-time path;
     * the modulus' moved copy too (the context may hold a secret modulus). */
    wipe_registers(F, K);
    wipe_registers(E, K);
    wipe_registers(G, K);
    wipe_registers(ad, K);
    wipe_registers(md, K);
}

#endif /* JBIGI_AVX512_CODE */

#endif
