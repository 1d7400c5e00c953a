/*
 * ifma_amm_pair.h - the product up to PAIR_KMAX = 7 registers (2912 bits):
 * two digits of b a step, the reduction two digits behind, the products
 * summed apart from the accumulator (amm_pair), and the pieces the
 * squaring of those sizes shares with it (ifma_sqr.h).  Internal to
 * src/engines/ifma/: ifma_mul.c instantiates it per register count.
 *
 * There a step is short, and what costs is latency: the ties between the
 * vector and the scalar side, the accumulator's own chain, and the work
 * around the loop.  A step takes two digits, b_i and b_(i+1), and moves the
 * accumulator down two lanes at once: per register, 8 multiply-adds, one
 * addition and one shift, 5 vector operations a digit, with the products
 * summed apart from the accumulator, whose chain is two multiply-adds, an
 * addition and a shift per two digits.  In the frame of step i (lane p =
 * digit i + p):
 *   - before the shift: lo(a b_i) into lane j (A), and the reduction two
 *     digits behind: q_(i-2) m's low halves two lanes down (Mdd: lane p
 *     holds m_(p+2)), its high halves and q_(i-1) m's low halves one lane
 *     down (Md), q_(i-1) m's high halves in place (Mr);
 *   - after the shift, in the next step's frame (Hp, from zero, added with
 *     the next step's products): hi(a b_i) and lo(a b_(i+1)) from a moved
 *     down one lane (Ad), hi(a b_(i+1)) from a itself.
 * Nothing reaches a lane above the top register.
 *
 * The scalar side reads digits i and i + 1 from the vector once all but
 * q_(i-1)'s products are in: what they still lack is q_(i-1)'s share (corr,
 * computed in scalar a step before), the carry out of digit i - 1, and what
 * this step puts below lane 0 or adds to digit i + 1 only later: hi(a_0 b_i)
 * and lo(a_0 b_(i+1)) (e1), and q_i's share.  Everything else that lands on
 * the two digits the shift drops, the vector has, so from step to step the
 * scalar side carries only the carry and corr: 7 multiplications a step,
 * and a chain from one q to the next that waits for two multiply-adds and
 * an extraction.  N is even (digits_for in ifma_digits.c rounds it up).
 * Scratch is wiped with inline stores, not library calls.  What this
 * replaced and why it stops at 7 registers:
 * doc/measurements.md: "Two digits a step up to 7 registers (2026-12-01, Intel Xeon)"
 */
#ifndef JBIGI_IFMA_AMM_PAIR_H
#define JBIGI_IFMA_AMM_PAIR_H

#include "engines/ifma/ifma_kernel.h"
#include "engines/ifma/ifma_normalize.h"

#if JBIGI_AVX512_CODE

/* What a step's scalar side passes to the next step. */
struct pair_carry {
    uint64_t c;            /* the carry out of digit i + 1 into digit i + 2 */
    uint64_t corr0, corr1; /* q_(i+1) m's share of digits i + 2 and i + 3 */
};

/*
 * The scalar side of a step.  u0, u1: digits i and i + 1 as the vector holds
 * them before q_(i-1)'s products; e0, e1: what this step adds to them that
 * the vector does not hold.  Makes q_i and q_(i+1), kept shifted left by 12
 * bits (then S k0s is one without a mask, and the high 64 bits of
 * m_j (q << 12) are hi(m_j q)), and the next step's carry-in and corr.
 */
IFMA_INLINE void pair_scalar_step(uint64_t qs[2], struct pair_carry *pc, uint64_t u0, uint64_t u1, uint64_t e0,
                                  uint64_t e1, uint64_t k0s, const uint64_t *m)
{
    const uint64_t S0 = u0 + pc->c + pc->corr0 + e0;
    const uint64_t q0 = S0 * k0s;
    /* S0 + lo(m_0 q_i) is S0 rounded up to a multiple of 2^52. */
    const uint64_t c0 = (S0 + M52) >> 52;
    const uint64_t h00 = (uint64_t)(((u128)m[0] * q0) >> 64);
    const uint64_t S1 = u1 + pc->corr1 + e1 + c0 + ((m[1] * q0) >> 12) + h00;
    const uint64_t q1 = S1 * k0s;
    pc->c = (S1 + M52) >> 52;
    const u128 y0 = (u128)m[0] * q1, y1 = (u128)m[1] * q1;
    pc->corr0 = ((uint64_t)y1 >> 12) + (uint64_t)(y0 >> 64);
    pc->corr1 = ((m[2] * q1) >> 12) + (uint64_t)(y1 >> 64);
    qs[0] = q0;
    qs[1] = q1;
}

/* Before step 0: the accumulator and the pending high halves zero, no q
 * yet (Q0, Q1: q_(i-2) and q_(i-1), broadcast), no carry or correction. */
IFMA_INLINE void pair_clear(__m512i *Rs, __m512i *Hp, __m512i *Q0, __m512i *Q1, struct pair_carry *pc, const int K)
{
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        Rs[k] = _mm512_setzero_si512();
        Hp[k] = _mm512_setzero_si512();
    }
    *Q0 = _mm512_setzero_si512();
    *Q1 = _mm512_setzero_si512();
    pc->c = pc->corr0 = pc->corr1 = 0;
}

/* The step's q_i and q_(i+1) (kept shifted, see pair_scalar_step),
 * broadcast for the next step, where they are two and one digits behind.
 * q_(i+1)'s products come after the read: through memory, off the ports. */
IFMA_INLINE void broadcast_q(__m512i *Q0, __m512i *Q1, const uint64_t qs[2])
{
    *Q0 = _mm512_set1_epi64((long long)(qs[0] >> 12));
    *Q1 = broadcast_via_memory(qs[1] >> 12);
}

/* Lanes 0 and 1 of x; lane 1, needed after q_i, through memory. */
IFMA_INLINE void lanes_0_1(uint64_t *v0, uint64_t *v1, __m512i x)
{
    const __m128i low = _mm512_castsi512_si128(x);
    *v0 = (uint64_t)_mm_cvtsi128_si64(low);
    *v1 = lane1_via_memory(x);
}

/* t plus q_(i-2) m's products (Q0) in the frame of step i. */
IFMA_INLINE __m512i add_q2m(__m512i t, __m512i Md, __m512i Mdd, __m512i Q0)
{
    return _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(t, Mdd, Q0), Md, Q0);
}

/* The frame of step i before the read: the accumulator Rs plus t plus
 * q_(i-2) m's products.  The two halves of q's products go into the two
 * addends side by side, so that from q to the read there are one
 * multiply-add and one addition, not two and one. */
IFMA_INLINE __m512i pre_read(__m512i Rs, __m512i t, __m512i Md, __m512i Mdd, __m512i Q0)
{
    return _mm512_add_epi64(_mm512_madd52hi_epu64(Rs, Md, Q0), _mm512_madd52lo_epu64(t, Mdd, Q0));
}

/* t plus q_(i-1) m's products (Q1) in the frame of step i. */
IFMA_INLINE __m512i add_q1m(__m512i t, __m512i Mr, __m512i Md, __m512i Q1)
{
    return _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(t, Md, Q1), Mr, Q1);
}

/* m's registers as they are, and moved down one and two lanes. */
IFMA_INLINE void load_m_three_ways(__m512i *Mr, __m512i *Md, __m512i *Mdd, const uint64_t *m, const int K)
{
UNROLL_ALL
    for (int k = 0; k < K; k++)
        Mr[k] = _mm512_load_si512((const void *)(m + 8 * k));
    move_down(Md, Mr, 1, K);
    move_down(Mdd, Mr, 2, K);
}

/* The final frame: the accumulator, the last step's high halves and the
 * last two q's products; digit N lacks only the last carry. */
IFMA_INLINE void pair_finish(__m512i *R, const __m512i *Rs, const __m512i *Hp, const __m512i *Mr, const __m512i *Md,
                             const __m512i *Mdd, __m512i Q0, __m512i Q1, uint64_t carry, const int K)
{
UNROLL_ALL
    for (int k = 0; k < K; k++)
        R[k] = _mm512_add_epi64(Rs[k], add_q1m(add_q2m(Hp[k], Md[k], Mdd[k], Q0), Mr[k], Md[k], Q1));
    R[0] = _mm512_mask_add_epi64(R[0], 1, R[0], _mm512_set1_epi64((long long)carry));
}

/* Step i of amm_pair (first: i = 0, with no q behind and nothing pending). */
IFMA_INLINE void amm_pair_step(__m512i *Rs, __m512i *Hp, __m512i *Q0, __m512i *Q1, struct pair_carry *pc,
                               const __m512i *A, const __m512i *Ad, const __m512i *Mr, const __m512i *Md,
                               const __m512i *Mdd, const uint64_t *b, const uint64_t *e1, int i, uint64_t k0s,
                               const uint64_t *m, const int first, const int K)
{
    __m512i T[PAIR_KMAX + 1];
    const __m512i B0 = _mm512_set1_epi64((long long)b[i]), B1 = _mm512_set1_epi64((long long)b[i + 1]);
UNROLL_ALL
    for (int k = 0; k < K; k++)
        T[k] = first ? _mm512_madd52lo_epu64(fresh_zero(), A[k], B0)
                     : pre_read(Rs[k], _mm512_madd52lo_epu64(Hp[k], A[k], B0), Md[k], Mdd[k], *Q0);
    uint64_t u0, u1, qs[2];
    lanes_0_1(&u0, &u1, T[0]);
    pair_scalar_step(qs, pc, u0, u1, 0, e1[i], k0s, m);
    if (!first) {
UNROLL_ALL
        for (int k = 0; k < K; k++)
            T[k] = add_q1m(T[k], Mr[k], Md[k], *Q1);
    }
    T[K] = _mm512_setzero_si512();
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        Rs[k] = _mm512_alignr_epi64(T[k + 1], T[k], 2);
        __m512i h = _mm512_madd52hi_epu64(fresh_zero(), Ad[k], B0);
        h = _mm512_madd52lo_epu64(h, Ad[k], B1);
        Hp[k] = _mm512_madd52hi_epu64(h, A[k], B1);
    }
    broadcast_q(Q0, Q1, qs);
}

/* r = a b / 2^(52 N) + (0 or m), two digits of b a step. */
IFMA_INLINE void amm_pair(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t k0, int N,
                          int secret, const int K)
{
    const __m512i zero = _mm512_setzero_si512();
    __m512i A[PAIR_KMAX], Ad[PAIR_KMAX], Mr[PAIR_KMAX], Md[PAIR_KMAX], Mdd[PAIR_KMAX];
UNROLL_ALL
    for (int k = 0; k < K; k++)
        A[k] = _mm512_load_si512((const void *)(a + 8 * k));
    move_down(Ad, A, 1, K);
    load_m_three_ways(Mr, Md, Mdd, m, K);

    /* e1 of every step: E1[i] = hi(a_0 b_i) + lo(a_0 b_(i+1)) (odd i: unused). */
    _Alignas(64) uint64_t E1[PAIR_KMAX * 8];
    {
        const __m512i A0 = _mm512_set1_epi64((long long)a[0]);
        __m512i L[PAIR_KMAX], Ld[PAIR_KMAX];
UNROLL_ALL
        for (int k = 0; k < K; k++)
            L[k] = _mm512_madd52lo_epu64(zero, A0, _mm512_load_si512((const void *)(b + 8 * k)));
        move_down(Ld, L, 1, K);
UNROLL_ALL
        for (int k = 0; k < K; k++) {
            const __m512i h = _mm512_madd52hi_epu64(Ld[k], A0, _mm512_load_si512((const void *)(b + 8 * k)));
            _mm512_store_si512((void *)(E1 + 8 * k), h);
        }
    }
    /* Opaque to the compiler: read back as scalars, not kept in registers. */
    const uint64_t *e1 = E1;
    __asm__("" : "+r"(e1) : : "memory");

    __m512i Rs[PAIR_KMAX], Hp[PAIR_KMAX], Q0, Q1;
    struct pair_carry pc;
    pair_clear(Rs, Hp, &Q0, &Q1, &pc, K);
    const uint64_t k0s = k0 << 12;
    /* Step 0 has no q behind it and nothing to add yet: on its own, it
     * starts from the first products rather than from zeros.
     * doc/measurements.md: "Step 0 on its own (2026-12-01, Intel Xeon)" */
    amm_pair_step(Rs, Hp, &Q0, &Q1, &pc, A, Ad, Mr, Md, Mdd, b, e1, 0, k0s, m, 1, K);
    for (int i = 2; i < N; i += 2)
        amm_pair_step(Rs, Hp, &Q0, &Q1, &pc, A, Ad, Mr, Md, Mdd, b, e1, i, k0s, m, 0, K);
    __m512i R[PAIR_KMAX];
    pair_finish(R, Rs, Hp, Mr, Md, Mdd, Q0, Q1, pc.c, K);
    normalize_store(r, R, K, secret);
    /* Products of a and b: secret in the constant-time path. */
    wipe_registers(E1, K);
}

#endif /* JBIGI_AVX512_CODE */

#endif
