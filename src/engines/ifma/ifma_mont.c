/*
 * ifma_mont.c - Montgomery multiplication on 52-bit digits with AVX-512 IFMA.
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
 * Lanes never overflow: a lane receives at most 4 products' halves (< 2^52
 * each) per digit of b, so at most 4 N 2^52 < 2^62 for N <= 160 digits.
 * After the last digit, one vector pass moves each lane's bits above 52 up
 * one lane; what is left is at most one carry per lane, which ripples through
 * lanes equal to 2^52 - 1: computed at once on bit masks with one integer
 * addition ((generate << 1) + propagate) ^ propagate, then added under mask.
 * No branch or address depends on the values, so the product is constant
 * time.  Unless the context says the values are secret, the result is
 * stored right after the first pass when no lane exceeds 52 bits (all but
 * always): the next product then waits for one pass, not for the masks'
 * round trip through the general registers (normalize_store).
 *
 * Bounds: with 4 m < R and a, b < 2 m, r = (a b + q m) / R < (4 m^2 + R m) / R
 * < 2 m.  So results stay in [0, 2 m) without a conditional subtraction, and
 * only the final conversion out of the domain reduces fully.
 *
 * Squarings compute each cross product once: see amm_sqr_pair and
 * amm_sqr_two (up to 4 registers a squaring is a multiplication:
 * SQR_BY_MUL_KMAX).
 *
 * One function per register count K (1 .. 20: up to 160 digits, 8192 bits)
 * and per operation, from always-inline bodies, so each keeps its
 * accumulator in registers.  Every kernel takes two digits of b a step and
 * moves the accumulator down two lanes at once.  Up to 7 registers (2912
 * bits), where latency is what costs, the reduction runs two digits behind
 * and the products are summed apart from the accumulator (amm_pair,
 * amm_sqr_pair).  From 8 registers (the squaring from 7: SQR_TWO_KMIN) the
 * reduction keeps up, the products go straight into the accumulator and
 * the vector units bound the step (amm_two, amm_sqr_two).
 *
 * Not wiped: values the compiler spills to the stack and the vector
 * registers themselves, after a constant-time computation.
 *
 * Why the kernels look as they do (measurements on an Intel Xeon and an
 * AMD Zen 4, and what was tried and not kept): doc/engines.md.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/ifma/ifma.h"
#include "engines/ifma/ifma_intrin.h"
#include "support/limb_inverse.h"
#include "support/opaque.h"
#include "platform/platform.h"

#define M52 ((UINT64_C(1) << 52) - 1)

/* GCC and clang have it on every 64-bit target; __extension__ keeps
 * -pedantic quiet. */
__extension__ typedef unsigned __int128 u128;
#define KMAX 20 /* registers of 8 digits: 160 digits, enough for 8192 bits */

#define PAIR_KMAX 7 /* up to this many registers, two digits a step (amm_pair) */

/* Up to this many registers a squaring is a multiplication: the squaring
 * kernel's work around the loop (doubling, the diagonal) costs more than
 * the cross products it saves (2% to 3.5% slower at 3 registers and less;
 * at 4, 2.5% to 4%, and modPow and modPowCT at 1536 bits 2% to 3% faster
 * with the multiplication; at 5 the squaring is 1% to 4% faster). */
#define SQR_BY_MUL_KMAX 4

/* From this many registers a squaring takes two digits a step with no lag
 * (amm_sqr_two) rather than amm_sqr_pair's way: at 7 registers 8% faster
 * (amm_sqr_pair's operand copies no longer fit in registers: its squaring
 * took longer than the multiplication), at 6 about 12% slower. */
#define SQR_TWO_KMIN 7

/* From this many registers the multiplication (amm_two) loads a and m
 * afresh at each step, each register by its own load: the compiler's
 * choice there is to copy them to the stack before the loop and reload part
 * of them, which costs more (with the one-digit kernels on the Xeon: 2% to
 * 4.5% of a product at 15 and 16 registers, 6% to 9% at 18, 8% to 13% at
 * 20).  Below, it keeps them in registers or reloads a few, which was
 * faster than loads at each step (there 4% to 8% at 11 and 12 registers, 1%
 * to 4% at 14; with amm_two on Zen 4, 1.5% to 3% at 8 to 14) and than
 * multiply-adds with a memory operand (22% to 28% at 11 and 12).  The
 * squaring loads d and m at each step at every size (on Zen 4 0.5% to 2%
 * faster than the compiler's way at 8 to 14 registers). */
#define OPERANDS_LOADED_KMIN 15

/* Digits for an n-limb modulus: 52 N >= 64 n + 2, i.e. R > 4 m; even up to
 * 7 registers, where the kernels run the reduction behind (one more digit
 * at most, in the same registers).  From 8 registers an odd count ends
 * with one digit on its own (one_digit_step): 1% off a product at 4096
 * bits against a padding digit. */
static int digits_for(mp_size_t n)
{
    int N = (int)((64 * n + 2 + 51) / 52);
    return N <= 8 * PAIR_KMAX ? (N + 1) & ~1 : N;
}

int jbigi_ifma_digits(mp_size_t n)
{
    return digits_for(n);
}

int jbigi_ifma_headroom_ok(mp_size_t n, int digits)
{
    return n >= 1 && digits >= 1 && (int64_t)52 * digits >= (int64_t)64 * n + 4;
}

/* ---- Conversion: portable C, constant time (only sizes steer it) ---- */

void jbigi_ifma_to_digits(uint64_t *d, int words, const mp_limb_t *x, mp_size_t n)
{
    for (int j = 0; j < words; j++) {
        size_t bit = (size_t)52 * (size_t)j;
        size_t limb = bit / 64;
        unsigned off = (unsigned)(bit % 64);
        uint64_t v = 0;
        if (limb < (size_t)n) {
            v = x[limb] >> off;
            if (off > 12 && limb + 1 < (size_t)n)
                v |= x[limb + 1] << (64 - off);
        }
        d[j] = v & M52;
    }
}

void jbigi_ifma_from_digits(mp_limb_t *x, mp_size_t n, const uint64_t *d)
{
    u128 acc = 0;
    unsigned have = 0; /* bits in acc */
    int j = 0;
    for (mp_size_t i = 0; i < n; i++) {
        while (have < 64) {
            acc |= (u128)d[j++] << have;
            have += 52;
        }
        x[i] = (mp_limb_t)acc;
        acc >>= 64;
        have -= 64;
    }
}

/* ---- Memory ---- */

static size_t round64(size_t size)
{
    return (size + 63) & ~(size_t)63;
}

uint64_t *jbigi_ifma_alloc(const jbigi_ifma_ctx *ctx, size_t count)
{
    size_t size = round64((size_t)ctx->words * sizeof(uint64_t) * count);
    uint64_t *p = jbigi_aligned_alloc(64, size);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

void jbigi_ifma_free(uint64_t *p, const jbigi_ifma_ctx *ctx, size_t count)
{
    if (p == NULL)
        return;
    jbigi_secure_zero(p, round64((size_t)ctx->words * sizeof(uint64_t) * count));
    jbigi_aligned_free(p);
}

void jbigi_ifma_ctx_clear(jbigi_ifma_ctx *ctx)
{
    if (ctx->mem != NULL) {
        jbigi_secure_zero(ctx->mem, ctx->mem_size);
        jbigi_aligned_free(ctx->mem);
    }
    memset(ctx, 0, sizeof *ctx);
}

/* -m^-1 mod 2^52 (m odd). */
static uint64_t neg_inverse52(uint64_t m0)
{
    return jbigi_negated_inverse(m0) & M52;
}

/* R^2 mod m, R = 2^(52 N), into ctx->rr; 0 or JBIGI_IFMA_NO_MEMORY. */
static int compute_rr(jbigi_ifma_ctx *ctx, int constant_time)
{
    const mp_size_t n = ctx->n;
    const size_t bit = (size_t)104 * (size_t)ctx->digits;
    const mp_size_t nn = (mp_size_t)(bit / 64 + 1);
    size_t scratch = constant_time ? (size_t)mpn_sec_div_r_itch(nn, n) : (size_t)(nn - n + 1);
    mp_limb_t *num = calloc((size_t)nn + (size_t)n + scratch, sizeof(mp_limb_t));
    if (num == NULL)
        return JBIGI_IFMA_NO_MEMORY;
    mp_limb_t *rem = num + nn, *tmp = rem + n;
    num[bit / 64] = (mp_limb_t)1 << (bit % 64);
    if (constant_time) {
        mpn_sec_div_r(num, nn, ctx->m_limbs, n, tmp);
        memcpy(rem, num, (size_t)n * sizeof(mp_limb_t));
    } else {
        mpn_tdiv_qr(tmp, rem, 0, num, nn, ctx->m_limbs, n);
    }
    jbigi_ifma_to_digits(ctx->rr, ctx->words, rem, n);
    jbigi_secure_zero(num, ((size_t)nn + (size_t)n + scratch) * sizeof(mp_limb_t));
    free(num);
    return 0;
}

int jbigi_ifma_ctx_init(jbigi_ifma_ctx *ctx, const mp_limb_t *m, mp_size_t n, int flags)
{
    memset(ctx, 0, sizeof *ctx);
    if (n < 1 || n > JBIGI_IFMA_MAX_LIMBS || !jbigi_ifma_cpu())
        return JBIGI_IFMA_UNSUPPORTED;
    /* 16 m < R: jbigi_ifma_double_if's bound (ifma.h). */
    if (!jbigi_ifma_headroom_ok(n, digits_for(n)))
        return JBIGI_IFMA_UNSUPPORTED;
    ctx->n = n;
    ctx->digits = digits_for(n);
    ctx->words = (ctx->digits + 7) & ~7;
    size_t words = (size_t)ctx->words * sizeof(uint64_t);
    ctx->mem_size = 2 * words + round64((size_t)n * sizeof(mp_limb_t));
    ctx->mem = jbigi_aligned_alloc(64, ctx->mem_size);
    if (ctx->mem == NULL)
        return JBIGI_IFMA_NO_MEMORY;
    ctx->m = ctx->mem;
    ctx->rr = ctx->m + ctx->words;
    ctx->m_limbs = (mp_limb_t *)(ctx->rr + ctx->words);
    memcpy(ctx->m_limbs, m, (size_t)n * sizeof(mp_limb_t));
    jbigi_ifma_to_digits(ctx->m, ctx->words, m, n);
    ctx->k0 = neg_inverse52(m[0]);
    ctx->secret_values = (flags & JBIGI_IFMA_SECRET_VALUES) != 0;
    int rc = compute_rr(ctx, (flags & JBIGI_IFMA_SECRET_MODULUS) != 0);
    if (rc != 0)
        jbigi_ifma_ctx_clear(ctx);
    return rc;
}

#if JBIGI_AVX512_CODE

#define IFMA_TARGET JBIGI_AVX512_TARGET("avx512f,avx512ifma,avx512vl,avx512bw,bmi2")

/* Under AddressSanitizer the kernels are checked, not timed: unrolled and
 * forced inline they took clang 10 to 15 minutes to compile. */
#if defined(__SANITIZE_ADDRESS__)
#define IFMA_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IFMA_SANITIZED_BUILD 1
#endif
#endif

/* Loops over registers must unroll completely, or the accumulator lives in
 * memory: clang needs its own pragma for that (it is twice as slow with
 * GCC's).  The model (test builds) has no registers to keep, nor has a
 * sanitized build any speed to keep: there the kernels stay loops and
 * calls, which compile in seconds.  The code and its values are the same. */
#if defined(JBIGI_IFMA_MODEL) || defined(IFMA_SANITIZED_BUILD)
#define UNROLL_ALL
#elif defined(__clang__)
#define UNROLL_ALL _Pragma("unroll")
#else
#define UNROLL_ALL _Pragma("GCC unroll 20")
#endif
/* A loop the compiler must keep as a loop: clang would otherwise unroll the
 * two-digit squaring's four steps per register block, and compiling the
 * library under ASan took ten minutes instead of under two. */
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
         * registers: 5% to 8% off a 1024-bit product.  Not for secret
         * values: whether the branch is taken depends on them.  (Marked
         * likely, GCC moved the branch-free way out of line, and the
         * constant-time exponentiations were 5% slower.) */
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

/*
 * ---- Up to 7 registers (2912 bits): two digits of b a step ----
 *
 * There a step is short, and what costs is latency: the ties between the
 * vector and the scalar side, the accumulator's own chain, and the work
 * around the loop.  A step takes two digits, b_i and b_(i+1), and moves the
 * accumulator down two lanes at once: per register, 8 multiply-adds, one
 * addition and one shift, 5 vector operations a digit, as few as the
 * one-digit kernel's that were here before, but with the products summed
 * apart from the accumulator, whose chain is two multiply-adds, an addition
 * and a shift per two digits (the one-digit kernel's: four multiply-adds
 * and a shift per digit).  In the frame of step i (lane p =
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
 * an extraction.  N is even (digits_for rounds it up).  At 2048 bits,
 * against the one-digit kernel with the reduction one step behind that this
 * replaced: 5% to 6% less time for a multiplication, 7% to 8% for a
 * squaring, and 3% to 9% more from wiping scratch with inline stores instead
 * of library calls; the rest of the step is vector work (the same loop
 * without its scalar side is as fast).  With 6 and 7 registers, against
 * the one-digit kernels: 6% to 11%.  With 8 or more, the operand copies no
 * longer fit in registers, and the one-digit kernel was as fast (8) or
 * faster (10: 12% to 20%), as amm_two is now.
 */
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
     * starts from the first products (3% to 7% off a product up to 7
     * registers). */
    amm_pair_step(Rs, Hp, &Q0, &Q1, &pc, A, Ad, Mr, Md, Mdd, b, e1, 0, k0s, m, 1, K);
    for (int i = 2; i < N; i += 2)
        amm_pair_step(Rs, Hp, &Q0, &Q1, &pc, A, Ad, Mr, Md, Mdd, b, e1, i, k0s, m, 0, K);
    __m512i R[PAIR_KMAX];
    pair_finish(R, Rs, Hp, Mr, Md, Mdd, Q0, Q1, pc.c, K);
    normalize_store(r, R, K, secret);
    /* Products of a and b: secret in the constant-time path. */
    wipe_registers(E1, K);
}

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

typedef void (*amm_fn)(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, uint64_t, int, int);

#define AMM_K(K)                                                                                       \
    IFMA_TARGET static void amm_##K(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, \
                                    uint64_t k0, int N, int secret)                                    \
    {                                                                                                  \
        if (K <= PAIR_KMAX)                                                                            \
            amm_pair(r, a, b, m, k0, N, secret, K);                                                    \
        else                                                                                           \
            amm_two(r, a, b, m, k0, N, secret, K);                                                     \
    }
AMM_K(1) AMM_K(2) AMM_K(3) AMM_K(4) AMM_K(5) AMM_K(6) AMM_K(7) AMM_K(8) AMM_K(9) AMM_K(10)
AMM_K(11) AMM_K(12) AMM_K(13) AMM_K(14) AMM_K(15) AMM_K(16) AMM_K(17) AMM_K(18) AMM_K(19) AMM_K(20)

typedef void (*sqr_fn)(uint64_t *, const uint64_t *, const uint64_t *, uint64_t, int, int);

#define SQR_K(K)                                                                                       \
    IFMA_TARGET static void sqr_##K(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t k0, int N,  \
                                    int secret)                                                        \
    {                                                                                                  \
        if (K <= SQR_BY_MUL_KMAX)                                                                      \
            amm_pair(r, a, a, m, k0, N, secret, K);                                                    \
        else if (K < SQR_TWO_KMIN)                                                                     \
            amm_sqr_pair(r, a, m, k0, N, secret, K);                                                   \
        else                                                                                           \
            amm_sqr_two(r, a, m, k0, N, secret, K);                                                    \
    }
SQR_K(1) SQR_K(2) SQR_K(3) SQR_K(4) SQR_K(5) SQR_K(6) SQR_K(7) SQR_K(8) SQR_K(9) SQR_K(10)
SQR_K(11) SQR_K(12) SQR_K(13) SQR_K(14) SQR_K(15) SQR_K(16) SQR_K(17) SQR_K(18) SQR_K(19) SQR_K(20)

static const sqr_fn sqr_for_k[KMAX + 1] = {
    NULL,    sqr_1,  sqr_2,  sqr_3,  sqr_4,  sqr_5,  sqr_6,  sqr_7,  sqr_8,  sqr_9,  sqr_10,
    sqr_11, sqr_12, sqr_13, sqr_14, sqr_15, sqr_16, sqr_17, sqr_18, sqr_19, sqr_20,
};

static const amm_fn amm_for_k[KMAX + 1] = {
    NULL,    amm_1,  amm_2,  amm_3,  amm_4,  amm_5,  amm_6,  amm_7,  amm_8,  amm_9,  amm_10,
    amm_11, amm_12, amm_13, amm_14, amm_15, amm_16, amm_17, amm_18, amm_19, amm_20,
};

/* The kernels' last step on its own, for the tests: the way a result is
 * stored without the branch is all but never taken by a product. */
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

void jbigi_ifma_mul(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    amm_for_k[ctx->words / 8](r, a, b, ctx->m, ctx->k0, ctx->digits, ctx->secret_values);
}

void jbigi_ifma_sqr(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a)
{
    sqr_for_k[ctx->words / 8](r, a, ctx->m, ctx->k0, ctx->digits, ctx->secret_values);
}

/* 2 a is digit j's low 51 bits moved up one place, plus the top bit of
 * digit j - 1: no carry goes further, so each register is a few
 * independent operations.  Nothing is subtracted: with 16 m < R (which
 * jbigi_ifma_ctx_init checks) a value below 4 m still squares into
 * [0, 2 m) (ifma.h). */
JBIGI_AVX512_TARGET("avx512f") void jbigi_ifma_double_if(const jbigi_ifma_ctx *ctx, uint64_t *a, uint64_t bit)
{
    uint64_t keep_doubled = 0 - (bit & 1);
#if !defined(JBIGI_IFMA_MODEL)
    JBIGI_OPAQUE(keep_doubled); /* no branch on a secret bit */
#endif
    const __m512i take = _mm512_set1_epi64((long long)keep_doubled), mask52 = _mm512_set1_epi64((long long)M52);
    __m512i carry_below = _mm512_setzero_si512();
    for (int w = 0; w < ctx->words; w += 8) {
        const __m512i x = _mm512_load_si512((const void *)(a + w));
        const __m512i twice = _mm512_add_epi64(x, x), carry = _mm512_srli_epi64(twice, 52);
        const __m512i doubled =
            _mm512_add_epi64(_mm512_and_si512(twice, mask52), _mm512_alignr_epi64(carry, carry_below, 7));
        carry_below = carry;
        /* take ? doubled : x */
        _mm512_store_si512((void *)(a + w), _mm512_ternarylogic_epi64(take, doubled, x, 0xCA));
    }
}

#else /* not x86-64: ctx_init refuses, so these are never reached */

void jbigi_ifma_double_if(const jbigi_ifma_ctx *ctx, uint64_t *a, uint64_t bit)
{
    (void)ctx;
    (void)a;
    (void)bit;
    abort();
}

void jbigi_ifma_normalize(uint64_t *r, const uint64_t *x, int words, int secret)
{
    (void)r;
    (void)x;
    (void)words;
    (void)secret;
    abort();
}

void jbigi_ifma_mul(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    (void)ctx;
    (void)r;
    (void)a;
    (void)b;
    abort();
}

void jbigi_ifma_sqr(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a)
{
    (void)ctx;
    (void)r;
    (void)a;
    abort();
}

#endif

/* ---- Into and out of the Montgomery domain (on top of mul) ---- */

#define MAX_WORDS (KMAX * 8)

void jbigi_ifma_to_mont(const jbigi_ifma_ctx *ctx, uint64_t *r, const mp_limb_t *a)
{
    _Alignas(64) uint64_t t[MAX_WORDS];
    jbigi_ifma_to_digits(t, ctx->words, a, ctx->n);
    jbigi_ifma_mul(ctx, r, t, ctx->rr);
    jbigi_secure_zero(t, sizeof t);
}

void jbigi_ifma_from_mont(const jbigi_ifma_ctx *ctx, mp_limb_t *x, const uint64_t *a)
{
    _Alignas(64) uint64_t one[MAX_WORDS], t[MAX_WORDS];
    mp_limb_t s[JBIGI_IFMA_MAX_LIMBS];
    const mp_size_t n = ctx->n;
    memset(one, 0, (size_t)ctx->words * sizeof(uint64_t));
    one[0] = 1;
    /* a / R mod m, here in [0, m]: (a + q m) / R < (R + R m) / R = m + 1. */
    jbigi_ifma_mul(ctx, t, a, one);
    jbigi_ifma_from_digits(x, n, t);
    /* x = m only when a = 0 mod m: subtract m if x >= m, under a mask. */
    mp_limb_t borrow = mpn_sub_n(s, x, ctx->m_limbs, n);
    mp_limb_t take = borrow - 1; /* all ones when x >= m */
    for (mp_size_t i = 0; i < n; i++)
        x[i] = (s[i] & take) | (x[i] & ~take);
    jbigi_secure_zero(t, sizeof t);
    jbigi_secure_zero(s, sizeof s);
}
