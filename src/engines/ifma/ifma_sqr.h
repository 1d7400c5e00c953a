/*
 * ifma_sqr.h - the squarings r = a a / R mod m, each cross product once:
 * amm_sqr_pair below SQR_TWO_KMIN registers (the reduction two digits
 * behind, as amm_pair), amm_sqr_two from there (no lag, as amm_two).  Up to
 * SQR_BY_MUL_KMAX registers ifma_mul.c squares with the multiplication
 * instead.  Internal to src/engines/ifma/: ifma_mul.c instantiates it per
 * register count.
 *
 * a a = diag + sum_i a_i 2^(52 i) sum_(j >= i + 2) d_j 2^(52 j), with
 * d = 2 a normalised: row i needs only d's digits from i + 2 up, so each
 * cross product is made once, already doubled; what is special about lanes
 * i and i + 1 is in diag, which the scalar side adds digit by digit.  Which
 * lanes a step touches depends on i alone (public), never on the values.
 */
#ifndef JBIGI_IFMA_SQR_H
#define JBIGI_IFMA_SQR_H

#include <stddef.h>

#include "engines/ifma/ifma_kernel.h"
#include "engines/ifma/ifma_normalize.h"
#include "engines/ifma/ifma_amm_pair.h"
#include "engines/ifma/ifma_amm_two.h"

#if JBIGI_AVX512_CODE

/*
 * The square's diagonal, from a's registers X (a) and D (2 a digitwise mod
 * 2^52): sum_i (a_i^2 + a_i (2 a_(i+1) mod 2^52) 2^52) 2^(104 i), as
 * unnormalised digits (each below 2^54), digits 0 .. 16 K - 1, and one zero
 * register above.
 */
IFMA_INLINE void square_diagonal(uint64_t *diag, const __m512i *X, const __m512i *D, const int K)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i lo_idx = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    const __m512i hi_idx = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    __m512i Dd[KMAX];
    move_down(Dd, D, 1, K); /* lane i: 2 a_(i+1) mod 2^52 */
    __m512i hq_prev = zero;
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        const __m512i x = X[k], y = Dd[k];
        const __m512i lp = _mm512_madd52lo_epu64(zero, x, x), hp = _mm512_madd52hi_epu64(zero, x, x);
        const __m512i lq = _mm512_madd52lo_epu64(zero, x, y), hq = _mm512_madd52hi_epu64(zero, x, y);
        /* Digit 2 i: lo(a_i^2) + hi(a_(i-1) d_i); digit 2 i + 1: hi(a_i^2) + lo(a_i d_(i+1)). */
        const __m512i even = _mm512_add_epi64(lp, _mm512_alignr_epi64(hq, hq_prev, 7));
        const __m512i odd = _mm512_add_epi64(hp, lq);
        hq_prev = hq;
        _mm512_store_si512((void *)(diag + 16 * k), _mm512_permutex2var_epi64(even, lo_idx, odd));
        _mm512_store_si512((void *)(diag + 16 * k + 8), _mm512_permutex2var_epi64(even, hi_idx, odd));
    }
    _mm512_store_si512((void *)(diag + 16 * K), zero);
}

/* For a squaring: X = d = 2 a normalised (digit j is (2 a_j mod 2^52) plus
 * the top bit of a_(j-1)), and diag (see square_diagonal). */
IFMA_INLINE void square_prepare(__m512i *X, uint64_t *diag, const uint64_t *a, const int K)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i mask52 = _mm512_set1_epi64((long long)M52);
    /* 2 a digitwise mod 2^52 (Dnc) and each digit's carry (C). */
    __m512i Aa[KMAX], Dnc[KMAX], C[KMAX];
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        Aa[k] = _mm512_load_si512((const void *)(a + 8 * k));
        const __m512i dbl = _mm512_add_epi64(Aa[k], Aa[k]);
        Dnc[k] = _mm512_and_si512(dbl, mask52);
        C[k] = _mm512_srli_epi64(dbl, 52);
    }
UNROLL_ALL
    for (int k = 0; k < K; k++)
        X[k] = _mm512_add_epi64(Dnc[k], _mm512_alignr_epi64(C[k], k > 0 ? C[k - 1] : zero, 7));
    square_diagonal(diag, Aa, Dnc, K);
}

/* t plus lo or hi of x's lanes L and up (frame lanes: register k holds lanes
 * 8 k .. 8 k + 7) times B; the lanes below L get nothing.  L and k are
 * known at compile time: a whole register, a masked one, or none. */
IFMA_INLINE __m512i madd_from_lane(__m512i t, __m512i x, __m512i B, int k, int L, int hi)
{
    if (8 * k + 8 <= L)
        return t;
    if (8 * k >= L)
        return hi ? _mm512_madd52hi_epu64(t, x, B) : _mm512_madd52lo_epu64(t, x, B);
    const __mmask8 from = (__mmask8)(0xffu << (L - 8 * k));
    return hi ? _mm512_mask_madd52hi_epu64(t, from, x, B) : _mm512_mask_madd52lo_epu64(t, from, x, B);
}

/*
 * r = a a / 2^(52 N) + (0 or m), two digits a step, each cross product once.
 * a a = diag + sum_i a_i 2^(52 i) sum_(j >= i + 2) d_j 2^(52 j), d = 2 a
 * normalised (d_j = (2 a_j mod 2^52) + the top bit of a_(j-1)): a row needs
 * only d's registers under a mask, and what is special about lanes i and
 * i + 1 (a_i itself, and 2 a_(i+1) without a_i's own carry) is in diag,
 * which the scalar side adds digit by digit and the last pass adds above
 * digit N.  In the frame of step i, row i's low halves go into lanes from
 * i + 2 (X = d); after the shift, row i's high halves from lane i + 1 and
 * row i + 1's low halves from lane i + 2 (Xd: d moved down one lane), row
 * i + 1's high halves from lane i + 3 (X).  No row product lands below lane
 * 0 of a frame.  Which lanes a step touches depends on i alone.
 */
IFMA_INLINE void amm_sqr_pair(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t k0, int N, int secret,
                              const int K)
{
    const __m512i zero = _mm512_setzero_si512();
    __m512i X[KMAX], Xd[PAIR_KMAX], Mr[PAIR_KMAX], Md[PAIR_KMAX], Mdd[PAIR_KMAX];
    _Alignas(64) uint64_t diag[PAIR_KMAX * 16 + 8];
    square_prepare(X, diag, a, K);
    move_down(Xd, X, 1, K);
    load_m_three_ways(Mr, Md, Mdd, m, K);
    const uint64_t *dg = diag;
    __asm__("" : "+r"(dg) : : "memory");

    __m512i Rs[PAIR_KMAX], Hp[PAIR_KMAX], T[PAIR_KMAX + 1], Q0, Q1;
    struct pair_carry pc;
    pair_clear(Rs, Hp, &Q0, &Q1, &pc, K);
    const uint64_t k0s = k0 << 12;
UNROLL_ALL
    for (int s = 0; s < K; s++) {
#pragma GCC unroll 4
        for (int l = 0; l < 8; l += 2) {
            const int i = 8 * s + l;
            if (i >= N)
                break;
            const __m512i B0 = _mm512_set1_epi64((long long)a[i]), B1 = _mm512_set1_epi64((long long)a[i + 1]);
UNROLL_ALL
            for (int k = 0; k < K; k++) {
                const __m512i t = madd_from_lane(Hp[k], X[k], B0, k, i + 2, 0);
                T[k] = i > 0 ? pre_read(Rs[k], t, Md[k], Mdd[k], Q0) : t;
            }
            uint64_t u0, u1, qs[2];
            lanes_0_1(&u0, &u1, T[0]);
            pair_scalar_step(qs, &pc, u0, u1, dg[i], dg[i + 1], k0s, m);
            if (i > 0) {
UNROLL_ALL
                for (int k = 0; k < K; k++)
                    T[k] = add_q1m(T[k], Mr[k], Md[k], Q1);
            }
            T[K] = zero;
UNROLL_ALL
            for (int k = 0; k < K; k++) {
                Rs[k] = _mm512_alignr_epi64(T[k + 1], T[k], 2);
                __m512i h = madd_from_lane(fresh_zero(), Xd[k], B0, k, i + 1, 1);
                h = madd_from_lane(h, Xd[k], B1, k, i + 2, 0);
                Hp[k] = madd_from_lane(h, X[k], B1, k, i + 3, 1);
            }
            broadcast_q(&Q0, &Q1, qs);
        }
    }
    __m512i R[PAIR_KMAX];
    pair_finish(R, Rs, Hp, Mr, Md, Mdd, Q0, Q1, pc.c, K);
UNROLL_ALL
    for (int k = 0; k < K; k++)
        R[k] = _mm512_add_epi64(R[k], _mm512_loadu_si512((const void *)(dg + N + 8 * k)));
    normalize_store(r, R, K, secret);
    /* a's digits squared: secret in the constant-time path. */
    wipe_registers(diag, 2 * K + 1);
}

/* t plus lo or hi of the loaded register k of x times B, for the lanes that
 * from16 marks in registers s and s + 1 (bit 8 c + j: lane j of register
 * s + c), all lanes above, none below.  k and s are known at compile time;
 * no load for a register that takes nothing. */
IFMA_INLINE __m512i madd_rows(__m512i t, const uint64_t *x, __m512i B, unsigned from16, int k, int s, int hi)
{
    if (k < s)
        return t;
    const __m512i xk = loaded_operand(x, k);
    if (k > s + 1)
        return hi ? _mm512_madd52hi_epu64(t, xk, B) : _mm512_madd52lo_epu64(t, xk, B);
    const __mmask8 mk = (__mmask8)(k == s ? from16 : from16 >> 8);
    return hi ? _mm512_mask_madd52hi_epu64(t, mk, xk, B) : _mm512_mask_madd52lo_epu64(t, mk, xk, B);
}

/*
 * r = a a / 2^(52 N) + (0 or m) from SQR_TWO_KMIN registers up, two digits
 * a step as in amm_two, each cross product once.  a a = diag + sum_i a_i
 * 2^(52 i) sum_(j >= i + 2) d_j 2^(52 j), with d and diag as in
 * amm_sqr_pair; row i's products need only d's registers from (i + 2) / 8
 * up, the first ones under a mask made from i (public).  Rows i and i + 1 (a_i
 * and a_(i+1) times d's digits from i + 2 and i + 3): in frame i, row i's
 * low halves into lanes i + 2 and up; after the shift, in frame i + 2, row
 * i's high halves into lanes i + 1 and up and row i + 1's low halves into
 * lanes i + 2 and up from d moved down one lane (dd), row i + 1's high
 * halves into lanes i + 3 and up from d.  Lane 2 of frame 0 (digit 2) is
 * the only one the scalar side reads before a row adds to it: lo(a_0 d_2)
 * goes into diag's digit 2.  An odd N ends with one_digit_step (row N - 1
 * has no products).
 */
IFMA_INLINE void amm_sqr_two(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t k0, int N, int secret,
                             const int K)
{
    const __m512i zero = _mm512_setzero_si512();
    _Alignas(64) uint64_t d[KMAX * 8], dd[KMAX * 8], md[KMAX * 8];
    _Alignas(64) uint64_t diag[KMAX * 16 + 8];
    {
        __m512i X[KMAX];
        square_prepare(X, diag, a, K);
UNROLL_ALL
        for (int k = 0; k < K; k++)
            _mm512_store_si512((void *)(d + 8 * k), X[k]);
    }
    diag[2] += (a[0] * d[2]) & M52;
    store_moved_down(dd, d, K);
    store_moved_down(md, m, K);
    const uint64_t *dg = diag, *dp = d, *ddp = dd, *mdp = md;
    __asm__("" : "+r"(dg), "+r"(dp), "+r"(ddp), "+r"(mdp) : : "memory");

    __m512i R[KMAX];
UNROLL_ALL
    for (int k = 0; k < K; k++)
        R[k] = zero;
    const uint64_t m0 = m[0], m1 = m[1], m2 = m[2], k0s = k0 << 12;
    uint64_t D = dg[0]; /* the bottom digit, exactly */
UNROLL_ALL
    for (int s = 0; s < K; s++) {
NO_UNROLL
        for (int l = 0; l < 8; l += 2) {
            const int i = 8 * s + l;
            if (i + 1 >= N)
                break;
            __asm__("" : "+r"(dp), "+r"(m), "+r"(ddp), "+r"(mdp));
            uint64_t v1, v2, qs[2];
            lanes_1_2_via_memory(&v1, &v2, R[0]);
            D = two_scalar_step(qs, D, v1, v2, dg[i + 1], 0, dg[i + 2], k0s, m0, m1, m2);
            const __m512i B0 = _mm512_set1_epi64((long long)a[i]), B1 = _mm512_set1_epi64((long long)a[i + 1]);
            const __m512i Q0 = broadcast_via_memory(qs[0] >> 12), Q1 = broadcast_via_memory(qs[1] >> 12);
            /* Lanes from i + 1, i + 2 and i + 3 on, in registers s and s + 1. */
            const unsigned from1 = 0xffffu << (l + 1), from2 = 0xffffu << (l + 2), from3 = 0xffffu << (l + 3);
            __m512i lo = _mm512_madd52lo_epu64(madd_rows(R[0], dp, B0, from2, 0, s, 0), loaded_operand(m, 0), Q0);
UNROLL_ALL
            for (int k = 0; k < K; k++) {
                __m512i up = zero;
                if (k + 1 < K)
                    up = _mm512_madd52lo_epu64(madd_rows(R[k + 1], dp, B0, from2, k + 1, s, 0),
                                               loaded_operand(m, k + 1), Q0);
                __m512i t = _mm512_alignr_epi64(up, lo, 2);
                t = madd_rows(t, ddp, B0, from1, k, s, 1);
                t = madd_rows(t, ddp, B1, from2, k, s, 0);
                t = madd_rows(t, dp, B1, from3, k, s, 1);
                const __m512i md_k = loaded_operand(mdp, k);
                t = _mm512_madd52hi_epu64(t, md_k, Q0);
                t = _mm512_madd52lo_epu64(t, md_k, Q1);
                R[k] = _mm512_madd52hi_epu64(t, loaded_operand(m, k), Q1);
                lo = up;
            }
        }
    }
    /* Row N - 1 has no products (d's digits from N + 1 up are zero). */
    if (N & 1)
        D = one_digit_step(R, D, dg[N], NULL, 0, m, k0s, K);
    /* diag from digit N up; lane 0, stale, takes the exact digit (which has
     * diag's digit N already). */
UNROLL_ALL
    for (int k = 0; k < K; k++)
        R[k] = _mm512_add_epi64(R[k], _mm512_loadu_si512((const void *)(dg + N + 8 * k)));
    R[0] = _mm512_mask_set1_epi64(R[0], 1, (long long)D);
    normalize_store(r, R, K, secret);
    /* a's digits doubled and squared: secret in the constant-time path; the
     * modulus' moved copy too, as in amm_two (the context may hold a secret
     * modulus). */
    wipe_registers(d, K);
    wipe_registers(dd, K);
    wipe_registers(md, K);
    wipe_registers(diag, 2 * K + 1);
}

#endif /* JBIGI_AVX512_CODE */

#endif
