/*
 * ifma_kernel.h - what the IFMA engine's product kernels share: the
 * algorithm, the size constants that choose a kernel, the compiler controls
 * that keep the accumulator in registers, and the small crossings between
 * the scalar and the vector side.  Internal to src/engines/ifma/.
 *
 * The product r = a b / R mod m (R = 2^(52 N)) is the word-by-word
 * ("operand scanning") almost-Montgomery multiplication: for each digit b[i]
 *
 *     q = (acc + a b[i]) (-1/m) mod 2^52
 *     acc = (acc + a b[i] + q m) / 2^52
 *
 * with acc held unnormalised in K = words / 8 zmm registers, one 64-bit lane
 * per digit.  vpmadd52luq adds the low 52 bits of each 52x52-bit product to a
 * lane, vpmadd52huq the high 52 bits.  Per digit of b: the low halves go into
 * the lanes of their own digit, the accumulator moves down one lane (the
 * bottom digit, now a multiple of 2^52, leaves: valignq), and the high halves
 * go into the lanes as they are after the move, i.e. one digit up.  That
 * order needs no extra lane at the top and one shift per register per digit.
 *
 * The serial part is q: it needs the full value of the bottom digit.  That
 * digit lives in a general register (D), never in the vector: the vector's
 * lane 0 is stale and thrown away by each shift.  The next bottom digit is
 * computed from lane 1 as it was *before* this step's multiply-adds, plus this
 * step's contributions to it recomputed with scalar multiplications, so the
 * chain q -> q' runs through a handful of scalar instructions and never waits
 * for a vector multiply-add, a shift and an extraction in a row.
 *
 * Invariants every kernel keeps:
 *   - Lanes never overflow: a lane receives at most 4 products' halves
 *     (< 2^52 each) per digit of b, so at most 4 N 2^52 < 2^62 for N <= 160
 *     digits.  The last step, normalize_store (ifma_normalize.h), brings the
 *     lanes back to 52 bits.
 *   - Bounds: with 4 m < R and a, b < 2 m, r = (a b + q m) / R
 *     < (4 m^2 + R m) / R < 2 m.  So results stay in [0, 2 m) without a
 *     conditional subtraction, and only the final conversion out of the
 *     domain reduces fully (ifma_digits.c).
 *   - No branch or address depends on the values, except normalize_store's
 *     early store when the context says the values are not secret.
 *
 * The kernels, one per shape, each in a header of its own so that
 * ifma_mul.c instantiates them per register count and keeps each
 * accumulator in registers:
 *   - ifma_amm_pair.h, up to PAIR_KMAX registers (latency-bound): two digits
 *     of b a step, the reduction two digits behind, the products summed
 *     apart from the accumulator (amm_pair);
 *   - ifma_amm_two.h, from 8 registers (bound by the vector units): two
 *     digits a step with no lag, the products straight into the accumulator
 *     (amm_two), and the lone last digit of an odd N (one_digit_step);
 *   - ifma_sqr.h, the squarings, each cross product once (amm_sqr_pair,
 *     amm_sqr_two); up to SQR_BY_MUL_KMAX registers a squaring is a
 *     multiplication.
 *
 * Not wiped: values the compiler spills to the stack and the vector
 * registers themselves, after a constant-time computation.
 */
#ifndef JBIGI_IFMA_KERNEL_H
#define JBIGI_IFMA_KERNEL_H

#include <stdint.h>

#include "engines/ifma/ifma.h"
#include "engines/ifma/ifma_intrin.h"

#define M52 ((UINT64_C(1) << 52) - 1)

/* GCC and clang have it on every 64-bit target; __extension__ keeps
 * -pedantic quiet. */
__extension__ typedef unsigned __int128 u128;
#define KMAX 20 /* registers of 8 digits: 160 digits, enough for 8192 bits */

/* Up to this many registers the product takes two digits a step with the
 * reduction behind (amm_pair): there latency is what costs; above, the
 * operand copies it needs no longer fit in registers.
 * doc/measurements.md: "Two digits a step up to 7 registers (2026-12-01, Intel Xeon)" */
#define PAIR_KMAX 7

/* Up to this many registers a squaring is a multiplication: the squaring
 * kernel's work around the loop (doubling, the diagonal) costs more than
 * the cross products it saves.
 * doc/measurements.md: "Squaring by multiplication up to 4 registers (2026-12-01, Intel Xeon)" */
#define SQR_BY_MUL_KMAX 4

/* From this many registers a squaring takes two digits a step with no lag
 * (amm_sqr_two) rather than amm_sqr_pair's way, whose operand copies no
 * longer fit in registers there.
 * doc/measurements.md: "The two-digit squaring from 7 registers (2026-12-01, AMD Zen 4)" */
#define SQR_TWO_KMIN 7

/* From this many registers the multiplication (amm_two) loads a and m
 * afresh at each step, each register by its own load: the compiler's
 * choice there is to copy them to the stack before the loop and reload part
 * of them, which costs more; below, its choice (registers, a few reloads)
 * is the faster one.  The squaring loads d and m at each step at every
 * size.
 * doc/measurements.md: "Operands loaded at each step from 15 registers (2026-12-01, Intel Xeon and AMD Zen 4)" */
#define OPERANDS_LOADED_KMIN 15

#if JBIGI_AVX512_CODE

#define IFMA_TARGET JBIGI_AVX512_TARGET("avx512f,avx512ifma,avx512vl,avx512bw,bmi2")

/* Under AddressSanitizer the kernels are checked, not timed: unrolled and
 * forced inline they take clang many minutes to compile.
 * doc/measurements.md: "Compiling the unrolled kernels (2026-11-30 to 2026-12-02, Intel Xeon and AMD Zen 4)" */
#if defined(__SANITIZE_ADDRESS__)
#define IFMA_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IFMA_SANITIZED_BUILD 1
#endif
#endif

/* Loops over registers must unroll completely, or the accumulator lives in
 * memory: clang needs its own pragma for that (with GCC's its code is
 * slower: the pointer above).  The model (test builds) has no registers to
 * keep, nor has a sanitized build any speed to keep: there the kernels stay
 * loops and calls, which compile quickly.  The code and its values are the
 * same. */
#if defined(JBIGI_IFMA_MODEL) || defined(IFMA_SANITIZED_BUILD)
#define UNROLL_ALL
#elif defined(__clang__)
#define UNROLL_ALL _Pragma("unroll")
#else
#define UNROLL_ALL _Pragma("GCC unroll 20")
#endif
/* A loop the compiler must keep as a loop: clang would otherwise unroll the
 * two-digit squaring's four steps per register block, which multiplies the
 * time to compile the library under ASan (same pointer as above). */
#if defined(JBIGI_IFMA_MODEL)
#define NO_UNROLL
#elif defined(__clang__)
#define NO_UNROLL _Pragma("nounroll")
#else
#define NO_UNROLL _Pragma("GCC unroll 1")
#endif
#if defined(IFMA_SANITIZED_BUILD)
#define IFMA_INLINE static inline IFMA_TARGET
#else
#define IFMA_INLINE static inline __attribute__((always_inline)) IFMA_TARGET
#endif

/* A zeroed register by the zeroing idiom, which takes no execution port (a
 * copy of a zero register would take one). */
IFMA_INLINE __m512i fresh_zero(void)
{
#if defined(JBIGI_IFMA_MODEL)
    return _mm512_setzero_si512();
#else
    __m512i z;
    __asm__ volatile("vpxord %0, %0, %0" : "=v"(z));
    return z;
#endif
}

/* Stores zeros over count registers' worth at p (64-byte aligned), stores
 * the compiler may not drop: for scratch that held secrets. */
IFMA_INLINE void wipe_registers(uint64_t *p, const int count)
{
UNROLL_ALL
    for (int k = 0; k < count; k++)
        _mm512_store_si512((void *)(p + 8 * k), _mm512_setzero_si512());
    __asm__ volatile("" : : "r"(p) : "memory");
}

/* Where a step is bound by the two ports that take the 512-bit operations
 * rather than by latency (from 8 registers up; in the two-digit kernels,
 * for the values needed last), values cross between the scalar and the
 * vector side through memory: a store and a load take neither port, where
 * vpextrq and vpbroadcastq from a general register take one or two uops
 * there. */
/* *p by a load the compiler cannot turn into a vector extraction. */
IFMA_INLINE uint64_t read_opaque(const uint64_t *p)
{
#if defined(JBIGI_IFMA_MODEL)
    return *p;
#else
    uint64_t v;
    __asm__("movq %1, %0" : "=r"(v) : "m"(*p));
    return v;
#endif
}

/* Lane 1 of x. */
IFMA_INLINE uint64_t lane1_via_memory(__m512i x)
{
    _Alignas(16) uint64_t low[2];
    _mm_store_si128((__m128i *)low, _mm512_castsi512_si128(x));
    return read_opaque(&low[1]);
}

/* v in every lane. */
IFMA_INLINE __m512i broadcast_via_memory(uint64_t v)
{
#if defined(JBIGI_IFMA_MODEL)
    return _mm512_set1_epi64((long long)v);
#else
    __m512i x;
    __asm__("vpbroadcastq %1, %0" : "=v"(x) : "m"(v));
    return x;
#endif
}

/* Lanes 1 and 2 of x, through memory. */
IFMA_INLINE void lanes_1_2_via_memory(uint64_t *v1, uint64_t *v2, __m512i x)
{
    _Alignas(32) uint64_t low[4];
    _mm256_store_si256((__m256i *)low, _mm512_castsi512_si256(x));
    *v1 = read_opaque(&low[1]);
    *v2 = read_opaque(&low[2]);
}

/* dst = x moved down one lane (lane p: digit p + 1), K registers from memory
 * to memory. */
IFMA_INLINE void store_moved_down(uint64_t *dst, const uint64_t *x, const int K)
{
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        const __m512i above = k + 1 < K ? _mm512_load_si512((const void *)(x + 8 * k + 8)) : _mm512_setzero_si512();
        _mm512_store_si512((void *)(dst + 8 * k),
                           _mm512_alignr_epi64(above, _mm512_load_si512((const void *)(x + 8 * k)), 1));
    }
}

/* Register k of the operand at p in a two-digit step: a load of its own,
 * neither hoisted nor folded into a multiply-add (the step makes p opaque). */
IFMA_INLINE __m512i loaded_operand(const uint64_t *p, int k)
{
    __m512i x = _mm512_load_si512((const void *)(p + 8 * k));
    JBIGI_VECTOR_OPAQUE(x);
    return x;
}

/* x moved down one lane (lane p: digit p + 1) or two, over K registers. */
IFMA_INLINE void move_down(__m512i *down, const __m512i *x, const int lanes, const int K)
{
    const __m512i zero = _mm512_setzero_si512();
UNROLL_ALL
    for (int k = 0; k < K; k++) {
        const __m512i above = k + 1 < K ? x[k + 1] : zero;
        down[k] = lanes == 1 ? _mm512_alignr_epi64(above, x[k], 1) : _mm512_alignr_epi64(above, x[k], 2);
    }
}

#endif /* JBIGI_AVX512_CODE */

#endif
