/*
 * ifma_powm.c - b^e mod m on the IFMA Montgomery layer (ifma_mont.c):
 * variable time (sliding window) and constant time (fixed window).
 *
 * Edge cases (m odd, n limbs, top limb non-zero; b < m):
 *
 *   e = 0               1 mod m: the variable-time path returns early (for
 *                       m = 1 that is 0; n = 1 then).  The constant-time
 *                       path computes it like any exponent: the table's
 *                       entry 0 is R mod m, and from_mont gives 1 mod m.
 *   b = 0               every power is 0 (e > 0); the Montgomery values may
 *                       be m rather than 0 (they live in [0, 2 m)), and
 *                       from_mont's final masked subtraction maps m to 0.
 *   b = 1, b = m - 1    nothing special: exact arithmetic throughout.
 *   n beyond the engine JBIGI_IFMA_UNSUPPORTED (more than 8192 bits), as is
 *                       a CPU without IFMA: the caller uses GMP.
 *
 * Results are fully reduced, so they equal mpz_powm's bit for bit.
 *
 * Cost: ctx_init (R^2 mod m by one division), the table (2^(w-1) entries
 * for the sliding window, w chosen for the exponent's length; 32 for the
 * fixed window), then one squaring per exponent bit and one multiplication
 * per window.  The constant-time path also reads all 32 entries per window
 * (about 3% of its time at 2048 bits: a load and an AVX-512 ternary-logic
 * operation per register of each entry).
 *
 * TODO: the constant-time table could square for the even entries.
 * TODO: below 576 bits (512 on Zen 4) GMP is as fast (jbigi_ifma_takes):
 * the chain from one q to the next dominates there; interleaving
 * independent products would hide it.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <stdlib.h>
#include <string.h>

#include "ifma.h"
#include "ifma_intrin.h"

/* The smallest and largest moduli, in limbs, where the engine wins: see
 * test/bench/ifma_bench.c for the measurement. */
/* 576 bits: on the Intel Xeon there modPow takes 0.90 of mpz_powm's time and
 * modPowCT 0.87 of mpz_powm_sec's; at 512 bits 0.95 to 0.98, too thin a
 * margin; at 448 GMP wins. */
#define TAKES_MIN_LIMBS 9
/* 512 bits on AMD Zen 4 (GMP 6.2.1 built for zen2, its choice there):
 * modPow 0.68 of mpz_powm's time, modPowCT 0.76 of mpz_powm_sec's; at 448
 * bits 0.85 and 0.93, at 384 0.81 and 0.94, too thin for modPowCT. */
#define TAKES_MIN_LIMBS_ZEN4 8
#define TAKES_MAX_LIMBS JBIGI_IFMA_MAX_LIMBS

int jbigi_ifma_takes(mp_size_t n)
{
    if (n > TAKES_MAX_LIMBS || !jbigi_ifma_available())
        return 0;
    return n >= (jbigi_ifma_zen4() ? TAKES_MIN_LIMBS_ZEN4 : TAKES_MIN_LIMBS);
}

static int bit_at(const mp_limb_t *e, size_t i)
{
    return (int)((e[i / 64] >> (i % 64)) & 1);
}

/* Bits [pos, pos + 5) of e (n limbs), zero above 64 n.  The limbs read
 * depend on pos only, which is public. */
static unsigned window5(const mp_limb_t *e, mp_size_t n, size_t pos)
{
    size_t limb = pos / 64;
    unsigned off = (unsigned)(pos % 64);
    mp_limb_t v = e[limb] >> off;
    if (off > 59 && limb + 1 < (size_t)n)
        v |= e[limb + 1] << (64 - off);
    return (unsigned)(v & 31);
}

/* The window width with the fewest multiplications for ebits bits:
 * ebits / (w + 1) multiplications plus 2^(w-1) table entries. */
static int window_for(size_t ebits)
{
    int best = 1;
    double best_cost = (double)ebits / 2.0 + 1.0;
    for (int w = 2; w <= 8; w++) {
        double cost = (double)ebits / (w + 1) + (double)(1u << (w - 1));
        if (cost < best_cost) {
            best_cost = cost;
            best = w;
        }
    }
    return best;
}

int jbigi_ifma_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                    const mp_limb_t *m, mp_size_t n)
{
    if (n < 1 || n > JBIGI_IFMA_MAX_LIMBS || !jbigi_ifma_cpu())
        return JBIGI_IFMA_UNSUPPORTED;
    while (en > 0 && e[en - 1] == 0)
        en--;
    if (en == 0) { /* b^0 = 1, and 1 mod 1 = 0 */
        memset(r, 0, (size_t)n * sizeof(mp_limb_t));
        r[0] = (n == 1 && m[0] == 1) ? 0 : 1;
        return 0;
    }
    jbigi_ifma_ctx ctx;
    int rc = jbigi_ifma_ctx_init(&ctx, m, n, 0);
    if (rc != 0)
        return rc;

    size_t ebits = (size_t)en * 64 - (size_t)__builtin_clzll(e[en - 1]);
    int w = window_for(ebits);
    size_t entries = (size_t)1 << (w - 1); /* odd powers b, b^3, ..., b^(2^w - 1) */
    uint64_t *mem = jbigi_ifma_alloc(&ctx, entries + 2);
    if (mem == NULL) {
        jbigi_ifma_ctx_clear(&ctx);
        return JBIGI_IFMA_NO_MEMORY;
    }
    const size_t words = (size_t)ctx.words;
    uint64_t *table = mem, *acc = mem + entries * words, *b2 = acc + words;

    jbigi_ifma_to_mont(&ctx, table, b);
    if (entries > 1) {
        jbigi_ifma_sqr(&ctx, b2, table);
        for (size_t j = 1; j < entries; j++)
            jbigi_ifma_mul(&ctx, table + j * words, table + (j - 1) * words, b2);
    }

    /* Left to right: a window starts at a set bit and ends, at most w bits
     * lower, at a set bit, so its value is odd. */
    int started = 0;
    size_t i = ebits; /* bits i-1 .. 0 remain */
    while (i > 0) {
        if (!bit_at(e, i - 1)) {
            jbigi_ifma_sqr(&ctx, acc, acc); /* started: the top bit is set */
            i--;
            continue;
        }
        size_t lo = i >= (size_t)w ? i - (size_t)w : 0;
        while (!bit_at(e, lo))
            lo++;
        unsigned val = 0;
        for (size_t k = i; k-- > lo;)
            val = (val << 1) | (unsigned)bit_at(e, k);
        const uint64_t *entry = table + (size_t)(val >> 1) * words;
        if (started) {
            for (size_t k = lo; k < i; k++)
                jbigi_ifma_sqr(&ctx, acc, acc);
            jbigi_ifma_mul(&ctx, acc, acc, entry);
        } else {
            memcpy(acc, entry, words * sizeof(uint64_t));
            started = 1;
        }
        i = lo;
    }
    jbigi_ifma_from_mont(&ctx, r, acc);
    jbigi_ifma_free(mem, &ctx, entries + 2);
    jbigi_ifma_ctx_clear(&ctx);
    return 0;
}

/* The compiler must not learn that a mask is 0 or all ones: knowing it, it
 * may turn the masked read back into a branch or a conditional move on the
 * secret index.  An empty asm makes the value opaque (no code).  Scalar, so
 * the same in the portable model of the intrinsics. */
#if defined(__GNUC__) || defined(__clang__)
#define SECRET_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define SECRET_OPAQUE(x) ((void)0)
#endif

/* The select's loops over registers unroll completely, or the accumulators
 * (the selected entry) live in a stack slot: clang takes its own pragma
 * (at -O2 it ignores GCC's, and plain "unroll" left them on the stack).  Not in the model or in sanitized builds, whose
 * kernels stay loops (see ifma_mont.c); the values are the same. */
#if defined(JBIGI_IFMA_MODEL) || defined(__SANITIZE_ADDRESS__)
#define SELECT_UNROLL
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SELECT_UNROLL
#endif
#endif
#ifndef SELECT_UNROLL
#if defined(__clang__)
#define SELECT_UNROLL _Pragma("clang loop unroll(full)")
#else
#define SELECT_UNROLL _Pragma("GCC unroll 32")
#endif
#endif

/* dst = table[index] from 32 entries of words digits, reading every entry
 * in full: an entry is kept under an all-ones mask computed without a
 * branch, so neither the addresses nor the instructions depend on index. */
static inline uint64_t select_mask(unsigned index, unsigned j)
{
    /* (index ^ j) - 1 wraps to all ones in the top bit exactly when equal. */
    uint64_t mask = (uint64_t)0 - ((((uint64_t)(index ^ j)) - 1) >> 63);
    SECRET_OPAQUE(mask);
    return mask;
}

#if JBIGI_AVX512_CODE

#define SELECT_TARGET JBIGI_AVX512_TARGET("avx512f,avx512vl")
/* Registers of 8 digits in the largest number: 158 digits for 8192 bits. */
#define SELECT_KMAX 20

/* select32 for K registers of 8 digits: the K accumulators stay in
 * registers and each entry's mask is made once, as it is needed, so a
 * select is one load and one ternary-logic operation per register and entry
 * (half the time of keeping the 32 masks on the stack and wiping them: 3%
 * to 4% off modPowCT at 1024 and 2048 bits).  No mask is spilled. */
static inline __attribute__((always_inline)) SELECT_TARGET void select32_k(uint64_t *dst, const uint64_t *table,
                                                                          size_t words, unsigned index, const int K)
{
    if (K == 1) {
        /* clang leaves a one-element array in a stack slot: one register. */
        __m512i acc = _mm512_setzero_si512();
        for (unsigned j = 0; j < 32; j++) {
            const __m512i mask = _mm512_set1_epi64((long long)select_mask(index, j));
            acc = _mm512_ternarylogic_epi64(acc, _mm512_load_si512((const void *)(table + j * words)), mask, 0xF8);
        }
        _mm512_store_si512((void *)dst, acc);
        return;
    }
    __m512i acc[SELECT_KMAX];
SELECT_UNROLL
    for (int k = 0; k < K; k++)
        acc[k] = _mm512_setzero_si512();
    for (unsigned j = 0; j < 32; j++) {
        const __m512i mask = _mm512_set1_epi64((long long)select_mask(index, j));
        const uint64_t *entry = table + j * words;
SELECT_UNROLL
        for (int k = 0; k < K; k++) /* acc | (entry & mask) */
            acc[k] = _mm512_ternarylogic_epi64(acc[k], _mm512_load_si512((const void *)(entry + 8 * k)), mask, 0xF8);
    }
SELECT_UNROLL
    for (int k = 0; k < K; k++)
        _mm512_store_si512((void *)(dst + 8 * k), acc[k]);
}

/* One function per register count, each with its K a constant: clang
 * would otherwise merge the cases of one switch into a single copy with K
 * a run-time value, whose loops it cannot unroll (the accumulators then
 * live on the stack). */
#define SELECT_K(K)                                                                                    \
    __attribute__((noinline)) SELECT_TARGET static void select32_##K(uint64_t *dst, const uint64_t *table, \
                                                                     unsigned index)                   \
    {                                                                                                  \
        select32_k(dst, table, 8 * K, index, K);                                                       \
    }
SELECT_K(1) SELECT_K(2) SELECT_K(3) SELECT_K(4) SELECT_K(5) SELECT_K(6) SELECT_K(7) SELECT_K(8)
SELECT_K(9) SELECT_K(10) SELECT_K(11) SELECT_K(12) SELECT_K(13) SELECT_K(14) SELECT_K(15)
SELECT_K(16) SELECT_K(17) SELECT_K(18) SELECT_K(19) SELECT_K(20)
#undef SELECT_K

/* Only reached through jbigi_ifma_powm_sec, after ctx_init saw the CPU. */
SELECT_TARGET static void select32(uint64_t *dst, const uint64_t *table, size_t words, unsigned index)
{
    switch (words / 8) {
#define SELECT_K(K)                                                                                    \
    case K:                                                                                            \
        select32_##K(dst, table, index);                                                               \
        break;
        SELECT_K(1) SELECT_K(2) SELECT_K(3) SELECT_K(4) SELECT_K(5) SELECT_K(6) SELECT_K(7) SELECT_K(8)
        SELECT_K(9) SELECT_K(10) SELECT_K(11) SELECT_K(12) SELECT_K(13) SELECT_K(14) SELECT_K(15)
        SELECT_K(16) SELECT_K(17) SELECT_K(18) SELECT_K(19) SELECT_K(20)
#undef SELECT_K
    default:
        abort();
    }
}
#else
static void select32(uint64_t *dst, const uint64_t *table, size_t words, unsigned index)
{
    memset(dst, 0, words * sizeof(uint64_t));
    for (unsigned j = 0; j < 32; j++) {
        uint64_t mask = select_mask(index, j);
        for (size_t k = 0; k < words; k++)
            dst[k] |= table[j * words + k] & mask;
    }
}
#endif

int jbigi_ifma_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e,
                        const mp_limb_t *m, mp_size_t n)
{
    jbigi_ifma_ctx ctx;
    int rc = jbigi_ifma_ctx_init(&ctx, m, n, JBIGI_IFMA_CONSTANT_TIME);
    if (rc != 0)
        return rc;
    const size_t words = (size_t)ctx.words;
    uint64_t *mem = jbigi_ifma_alloc(&ctx, 32 + 2);
    if (mem == NULL) {
        jbigi_ifma_ctx_clear(&ctx);
        return JBIGI_IFMA_NO_MEMORY;
    }
    uint64_t *table = mem, *acc = mem + 32 * words, *t = acc + words;

    /* table[j] = b^j R mod m; table[0] = R mod m = (R^2 mod m) / R. */
    memset(t, 0, words * sizeof(uint64_t));
    t[0] = 1;
    jbigi_ifma_mul(&ctx, table, ctx.rr, t);
    jbigi_ifma_to_mont(&ctx, table + words, b);
    for (size_t j = 2; j < 32; j++)
        jbigi_ifma_mul(&ctx, table + j * words, table + (j - 1) * words, table + words);

    /* 5-bit windows from the top of the 64 n exponent bits. */
    const size_t bits = (size_t)n * 64;
    size_t pos = (bits - 1) / 5 * 5;
    select32(acc, table, words, window5(e, n, pos));
    while (pos > 0) {
        pos -= 5;
        for (int k = 0; k < 5; k++)
            jbigi_ifma_sqr(&ctx, acc, acc);
        select32(t, table, words, window5(e, n, pos));
        jbigi_ifma_mul(&ctx, acc, acc, t);
    }
    jbigi_ifma_from_mont(&ctx, r, acc);
    jbigi_ifma_free(mem, &ctx, 32 + 2);
    jbigi_ifma_ctx_clear(&ctx);
    return 0;
}
