/*
 * ifma_powm.c - b^e mod m on the IFMA Montgomery layer (ifma_mul.c),
 * through the shared drivers of powm_driver.h (variable time: sliding
 * window; constant time: fixed window), with the engine's own AVX-512
 * table select.
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
 * Cost: ctx_init (R^2 mod m by one division), the driver's table, then
 * one squaring per exponent bit and one multiplication per window.  The
 * base 2 takes the drivers' base-2 path instead: no table, a squaring and
 * a doubling (jbigi_ifma_double_if) per bit.  The
 * constant-time path also reads all 16 or 32 entries per window (a load and
 * an AVX-512 ternary-logic operation per register of each entry), a small
 * part of its time.
 * doc/measurements.md: "The constant-time table select (2026-12-01 to 2026-12-02, Intel Xeon and AMD Zen 4)"
 *
 * TODO: at the smallest sizes GMP is as fast (the size table in
 * registry.c): the chain from one q to the next dominates there;
 * interleaving independent products would hide it.
 * doc/measurements.md: "Where GMP is as fast (2026-11-30 to 2026-12-05, Intel Xeon and AMD Zen 4)"
 */
#include <stdlib.h>
#include <string.h>

#include "engines/ifma/ifma.h"
#include "engines/ifma/ifma_intrin.h"
#include "engines/powm_driver.h"
#include "platform/platform.h"

/* The engine's digits are 64-bit words, which are GMP limbs here. */
_Static_assert(sizeof(uint64_t) == sizeof(mp_limb_t), "52-bit digits are kept in limbs");

/* The select's loops over registers unroll completely, or the accumulators
 * (the selected entry) live in a stack slot: clang takes its own pragma
 * (at -O2 it ignores GCC's, and plain "unroll" left them on the stack).
 * Not in the model or in sanitized builds, whose kernels stay loops (see
 * ifma_kernel.h); the values are the same. */
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

/* dst = table[index] from 16 or 32 entries of words digits, reading every entry
 * in full: an entry is kept under an all-ones mask computed without a
 * branch (jbigi_select_mask), so neither the addresses nor the
 * instructions depend on index. */
#define select_mask jbigi_select_mask

#if JBIGI_AVX512_CODE

#define SELECT_TARGET JBIGI_AVX512_TARGET("avx512f,avx512vl")
/* Registers of 8 digits in the largest number: 158 digits for 8192 bits. */
#define SELECT_KMAX 20

/* The select for K registers of 8 digits over count entries (16 or 32:
 * the constant-time window's tables): the K accumulators stay in
 * registers and each entry's mask is made once, as it is needed, so a
 * select is one load and one ternary-logic operation per register and entry,
 * faster than keeping the masks on the stack and wiping them.  No mask is
 * spilled.
 * doc/measurements.md: "The constant-time table select (2026-12-01 to 2026-12-02, Intel Xeon and AMD Zen 4)" */
static inline __attribute__((always_inline)) SELECT_TARGET void select_k(uint64_t *dst, const uint64_t *table,
                                                                        size_t words, unsigned index, const int K,
                                                                        const unsigned count)
{
    if (K == 1) {
        /* clang leaves a one-element array in a stack slot: one register. */
        __m512i acc = _mm512_setzero_si512();
        for (unsigned j = 0; j < count; j++) {
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
    for (unsigned j = 0; j < count; j++) {
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

/* One function per register count and table size, each with its K a
 * constant: clang would otherwise merge the cases of one switch into a
 * single copy with K a run-time value, whose loops it cannot unroll (the
 * accumulators then live on the stack). */
#define SELECT_K(K)                                                                                    \
    __attribute__((noinline)) SELECT_TARGET static void select32_##K(uint64_t *dst, const uint64_t *table, \
                                                                     unsigned index)                   \
    {                                                                                                  \
        select_k(dst, table, 8 * K, index, K, 32);                                                     \
    }                                                                                                  \
    __attribute__((noinline)) SELECT_TARGET static void select16_##K(uint64_t *dst, const uint64_t *table, \
                                                                     unsigned index)                   \
    {                                                                                                  \
        select_k(dst, table, 8 * K, index, K, 16);                                                     \
    }
SELECT_K(1) SELECT_K(2) SELECT_K(3) SELECT_K(4) SELECT_K(5) SELECT_K(6) SELECT_K(7) SELECT_K(8)
SELECT_K(9) SELECT_K(10) SELECT_K(11) SELECT_K(12) SELECT_K(13) SELECT_K(14) SELECT_K(15)
SELECT_K(16) SELECT_K(17) SELECT_K(18) SELECT_K(19) SELECT_K(20)
#undef SELECT_K

/* dst = table[index] of count (16 or 32) entries of words digits, from the
 * engine's allocator (64-byte aligned).  Only reached through
 * jbigi_ifma_powm_sec, after ctx_init saw the CPU. */
SELECT_TARGET static void select_table(uint64_t *dst, const uint64_t *table, size_t words, size_t count,
                                       unsigned index)
{
    if (count == 32) {
        switch (words / 8) {
#define SELECT_K(K)                                                                                    \
    case K:                                                                                            \
        select32_##K(dst, table, index);                                                               \
        return;
            SELECT_K(1) SELECT_K(2) SELECT_K(3) SELECT_K(4) SELECT_K(5) SELECT_K(6) SELECT_K(7) SELECT_K(8)
            SELECT_K(9) SELECT_K(10) SELECT_K(11) SELECT_K(12) SELECT_K(13) SELECT_K(14) SELECT_K(15)
            SELECT_K(16) SELECT_K(17) SELECT_K(18) SELECT_K(19) SELECT_K(20)
#undef SELECT_K
        }
    } else if (count == 16) {
        switch (words / 8) {
#define SELECT_K(K)                                                                                    \
    case K:                                                                                            \
        select16_##K(dst, table, index);                                                               \
        return;
            SELECT_K(1) SELECT_K(2) SELECT_K(3) SELECT_K(4) SELECT_K(5) SELECT_K(6) SELECT_K(7) SELECT_K(8)
            SELECT_K(9) SELECT_K(10) SELECT_K(11) SELECT_K(12) SELECT_K(13) SELECT_K(14) SELECT_K(15)
            SELECT_K(16) SELECT_K(17) SELECT_K(18) SELECT_K(19) SELECT_K(20)
#undef SELECT_K
        }
    }
    abort();
}
#else
static void select_table(uint64_t *dst, const uint64_t *table, size_t words, size_t count, unsigned index)
{
    jbigi_masked_select(dst, table, words, count, index);
}
#endif

#if JBIGI_AVX512_CODE
/*
 * Up to 8 registers (R) of every entry at table, words digits apart, into
 * dst: the accumulators stay in registers, and each entry's mask is made
 * once for all R of them, by a vector comparison of a running index with
 * the wanted one (no broadcast from a general register, which shares a
 * port with the comparison).  Entry by entry, not register by register:
 * a mask and a broadcast per register and entry cost far more.
 * doc/measurements.md: "The fixed-base table select (2026-12-06, Intel Xeon)"
 */
static inline __attribute__((always_inline)) JBIGI_AVX512_TARGET("avx512f") void select_any_group(
    uint64_t *dst, const uint64_t *table, size_t words, size_t count, __m512i wanted, const int R)
{
    __m512i acc[8];
SELECT_UNROLL
    for (int k = 0; k < R; k++)
        acc[k] = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi64(1);
    __m512i position = _mm512_setzero_si512();
    for (size_t i = 0; i < count; i++) {
        const __mmask8 hit = _mm512_cmpeq_epi64_mask(position, wanted);
        position = _mm512_add_epi64(position, one);
SELECT_UNROLL
        for (int k = 0; k < R; k++) {
            /* Loaded in full into a register first: folded into the move,
             * it would become a masked load, which need not touch memory
             * where its mask is clear. */
            __m512i entry = _mm512_loadu_si512((const void *)(table + i * words + 8 * k));
            JBIGI_VECTOR_OPAQUE(entry);
            acc[k] = _mm512_mask_mov_epi64(acc[k], hit, entry);
        }
    }
SELECT_UNROLL
    for (int k = 0; k < R; k++)
        _mm512_storeu_si512((void *)(dst + 8 * k), acc[k]);
}

/*
 * dst = table[which] of count entries of words digits at any address (a
 * fixed-base table in a Java buffer), reading every entry in full: the
 * entry is picked by a vector comparison into a mask register, which takes
 * the same time whatever it finds.  Up to 8 registers at a time.
 */
JBIGI_AVX512_TARGET("avx512f") static void select_any(uint64_t *dst, const uint64_t *table, size_t words,
                                                      size_t count, size_t which)
{
    __m512i wanted = _mm512_set1_epi64((long long)which);
    /* Opaque from here on: the compiler cannot turn the comparison back
     * into a scalar test of `which` and a branch or a conditional move. */
    JBIGI_VECTOR_OPAQUE(wanted);
    for (size_t w = 0; w < words; w += 64) {
        const size_t left = (words - w) / 8;
        switch (left < 8 ? left : 8) {
#define GROUP(R)                                                                                       \
    case R:                                                                                            \
        select_any_group(dst + w, table + w, words, count, wanted, R);                                 \
        break;
            GROUP(1) GROUP(2) GROUP(3) GROUP(4) GROUP(5) GROUP(6) GROUP(7) GROUP(8)
#undef GROUP
        default:
            abort();
        }
    }
}
#else
static void select_any(uint64_t *dst, const uint64_t *table, size_t words, size_t count, size_t which)
{
    jbigi_masked_select(dst, table, words, count, which);
}
#endif

/* The engine as powm_driver.h sees it: values are digit arrays of
 * ctx->words words. */
static size_t ifma_elem_limbs(const void *ctx)
{
    return (size_t)((const jbigi_ifma_ctx *)ctx)->words;
}

static mp_limb_t *ifma_alloc(const void *ctx, size_t count)
{
    return jbigi_ifma_alloc(ctx, count);
}

static void ifma_release(const void *ctx, mp_limb_t *p, size_t count)
{
    jbigi_ifma_free(p, ctx, count);
}

static void ifma_to_mont(const void *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    jbigi_ifma_to_mont(ctx, r, a);
}

static void ifma_from_mont(const void *ctx, mp_limb_t *x, const mp_limb_t *a)
{
    jbigi_ifma_from_mont(ctx, x, a);
}

/* R mod m = (R^2 mod m) / R: rr times the digit array of 1. */
static void ifma_one(const void *ctx, mp_limb_t *r)
{
    const jbigi_ifma_ctx *c = ctx;
    memset(r, 0, (size_t)c->words * sizeof(uint64_t));
    r[0] = 1;
    jbigi_ifma_mul(c, r, c->rr, r);
}

static void ifma_mul(const void *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    jbigi_ifma_mul(ctx, r, a, b);
}

static void ifma_sqr(const void *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    jbigi_ifma_sqr(ctx, r, a);
}

static void ifma_select(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, unsigned index)
{
    select_table(r, table, (size_t)((const jbigi_ifma_ctx *)ctx)->words, count, index);
}

static void ifma_select_any(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, size_t index)
{
    select_any(r, table, (size_t)((const jbigi_ifma_ctx *)ctx)->words, count, index);
}

static void ifma_double_if(const void *ctx, mp_limb_t *a, mp_limb_t bit)
{
    jbigi_ifma_double_if(ctx, a, bit);
}

const jbigi_mont_ops jbigi_ifma_mont_ops = {
    .elem_limbs = ifma_elem_limbs,
    .alloc = ifma_alloc,
    .release = ifma_release,
    .to_mont = ifma_to_mont,
    .from_mont = ifma_from_mont,
    .one = ifma_one,
    .mul = ifma_mul,
    .sqr = ifma_sqr,
    .select = ifma_select,
    .select_any = ifma_select_any,
    .double_if = ifma_double_if,
};

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
    rc = jbigi_is_two(b, (size_t)n) ? jbigi_drive_base2(&jbigi_ifma_mont_ops, &ctx, r, e, en, 0)
                                    : jbigi_drive_window(&jbigi_ifma_mont_ops, &ctx, r, b, e, en);
    jbigi_ifma_ctx_clear(&ctx);
    return rc == JBIGI_DRIVER_OK ? 0 : JBIGI_IFMA_NO_MEMORY;
}

int jbigi_ifma_powm_sec_bits(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                             const mp_limb_t *m, mp_size_t n)
{
    if (ebits < 1)
        return JBIGI_IFMA_UNSUPPORTED;
    jbigi_ifma_ctx ctx;
    int rc = jbigi_ifma_ctx_init(&ctx, m, n, JBIGI_IFMA_CONSTANT_TIME);
    if (rc != 0)
        return rc;
    const mp_size_t en = (mp_size_t)((ebits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    rc = jbigi_is_two(b, (size_t)n) ? jbigi_drive_base2(&jbigi_ifma_mont_ops, &ctx, r, e, en, ebits)
                                    : jbigi_drive_fixed_window(&jbigi_ifma_mont_ops, &ctx, r, b, e, ebits);
    jbigi_ifma_ctx_clear(&ctx);
    return rc == JBIGI_DRIVER_OK ? 0 : JBIGI_IFMA_NO_MEMORY;
}

int jbigi_ifma_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                        const mp_limb_t *m, mp_size_t n)
{
    if (en < 1)
        return JBIGI_IFMA_UNSUPPORTED;
    return jbigi_ifma_powm_sec_bits(r, b, e, (size_t)en * GMP_NUMB_BITS, m, n);
}
