/*
 * avx512_model.h - a portable C model of the AVX-512 intrinsics that the
 * IFMA engine uses (src/engines/ifma/, src/core/fixedbase.c), for
 * test builds only: compiled with -DJBIGI_IFMA_MODEL -Itest/model, the
 * engine's own source runs on any CPU (one without AVX-512, under valgrind,
 * under qemu-aarch64), lane for lane as the instructions define it.  Never
 * part of the library.
 *
 * Each function is the instruction's definition, nothing cleverer: a loop
 * over the lanes.  Aligned loads and stores check their alignment (the
 * real instructions fault on a misaligned address), so a model run also
 * checks the engine's alignment promises.  test/c/test_avx512_model.c checks
 * every function here against the real instruction where the CPU has it.
 *
 * The names are the compiler's intrinsic names, so the engine's source
 * needs no change to use the model; nothing else may include this file.
 */
#ifndef JBIGI_AVX512_MODEL_H
#define JBIGI_AVX512_MODEL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t lane[8];
} __m512i;
typedef struct {
    uint64_t lane[4];
} __m256i;
typedef struct {
    uint64_t lane[2];
} __m128i;
typedef uint8_t __mmask8;
typedef uint16_t __mmask16;
typedef uint32_t __mmask32;

#define MODEL_M52 ((UINT64_C(1) << 52) - 1)
#define MODEL_FN static inline __attribute__((always_inline))
/* Lane loops unrolled, so that the compiler keeps a vector's lanes in
 * registers rather than in memory (a model run is 2 to 3 times faster). */
#define MODEL_LANES _Pragma("GCC unroll 8")

/* An aligned access to a misaligned address: the instruction would fault. */
MODEL_FN void model_check_aligned(const void *p, uintptr_t alignment)
{
    if ((uintptr_t)p % alignment != 0)
        abort();
}

/* ---- Loads, stores, constants ---- */

MODEL_FN __m512i _mm512_setzero_si512(void)
{
    __m512i r;
    memset(&r, 0, sizeof r);
    return r;
}

MODEL_FN __m512i _mm512_set1_epi64(long long v)
{
    __m512i r;
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        r.lane[i] = (uint64_t)v;
    return r;
}

/* Lane 0 is the last argument, as in the instruction set's own order. */
MODEL_FN __m512i _mm512_set_epi64(long long e7, long long e6, long long e5, long long e4, long long e3,
                                  long long e2, long long e1, long long e0)
{
    __m512i r = {{(uint64_t)e0, (uint64_t)e1, (uint64_t)e2, (uint64_t)e3, (uint64_t)e4, (uint64_t)e5,
                  (uint64_t)e6, (uint64_t)e7}};
    return r;
}

MODEL_FN __m512i _mm512_load_si512(const void *p)
{
    model_check_aligned(p, 64);
    __m512i r;
    memcpy(&r, p, sizeof r);
    return r;
}

MODEL_FN __m512i _mm512_loadu_si512(const void *p)
{
    __m512i r;
    memcpy(&r, p, sizeof r);
    return r;
}

MODEL_FN void _mm512_store_si512(void *p, __m512i x)
{
    model_check_aligned(p, 64);
    memcpy(p, &x, sizeof x);
}

MODEL_FN void _mm512_storeu_si512(void *p, __m512i x)
{
    memcpy(p, &x, sizeof x);
}

MODEL_FN __m128i _mm512_castsi512_si128(__m512i x)
{
    __m128i r = {{x.lane[0], x.lane[1]}};
    return r;
}

MODEL_FN __m256i _mm512_castsi512_si256(__m512i x)
{
    __m256i r = {{x.lane[0], x.lane[1], x.lane[2], x.lane[3]}};
    return r;
}

MODEL_FN void _mm_store_si128(__m128i *p, __m128i x)
{
    model_check_aligned(p, 16);
    memcpy(p, &x, sizeof x);
}

MODEL_FN void _mm256_store_si256(__m256i *p, __m256i x)
{
    model_check_aligned(p, 32);
    memcpy(p, &x, sizeof x);
}

MODEL_FN long long _mm_cvtsi128_si64(__m128i x)
{
    return (long long)x.lane[0];
}

/* ---- 52-bit multiply-adds (vpmadd52luq, vpmadd52huq) ---- */

/* The 104-bit product of the low 52 bits of b and c: its low 52 bits
 * (hi = 0) or bits 52 to 103 (hi = 1). */
MODEL_FN uint64_t model_mul52(uint64_t b, uint64_t c, int hi)
{
    if (!hi) /* the low 52 bits need only the low 64 of the product */
        return ((b & MODEL_M52) * (c & MODEL_M52)) & MODEL_M52;
    const unsigned __int128 p = (unsigned __int128)(b & MODEL_M52) * (c & MODEL_M52);
    return (uint64_t)(p >> 52) & MODEL_M52;
}

/* Lanes whose bit in k is set get a + the product's half; the others keep
 * a (the product masked to zero: no branch per lane). */
MODEL_FN __m512i model_madd52(__m512i a, __mmask8 k, __m512i b, __m512i c, int hi)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        a.lane[i] += model_mul52(b.lane[i], c.lane[i], hi) & (0 - (uint64_t)((k >> i) & 1));
    return a;
}

MODEL_FN __m512i _mm512_madd52lo_epu64(__m512i a, __m512i b, __m512i c)
{
    return model_madd52(a, 0xff, b, c, 0);
}

MODEL_FN __m512i _mm512_madd52hi_epu64(__m512i a, __m512i b, __m512i c)
{
    return model_madd52(a, 0xff, b, c, 1);
}

MODEL_FN __m512i _mm512_mask_madd52lo_epu64(__m512i a, __mmask8 k, __m512i b, __m512i c)
{
    return model_madd52(a, k, b, c, 0);
}

MODEL_FN __m512i _mm512_mask_madd52hi_epu64(__m512i a, __mmask8 k, __m512i b, __m512i c)
{
    return model_madd52(a, k, b, c, 1);
}

/* ---- Lane arithmetic and logic ---- */

MODEL_FN __m512i _mm512_add_epi64(__m512i a, __m512i b)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        a.lane[i] += b.lane[i];
    return a;
}

MODEL_FN __m512i _mm512_and_si512(__m512i a, __m512i b)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        a.lane[i] &= b.lane[i];
    return a;
}

MODEL_FN __m512i _mm512_or_si512(__m512i a, __m512i b)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        a.lane[i] |= b.lane[i];
    return a;
}

/* A count above 63 clears the lane, as the instruction does. */
MODEL_FN __m512i _mm512_srli_epi64(__m512i a, unsigned count)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        a.lane[i] = count > 63 ? 0 : a.lane[i] >> count;
    return a;
}

/* Bit j of each lane of the result is bit (a_j b_j c_j, read as a 3-bit
 * number) of imm. */
MODEL_FN __m512i _mm512_ternarylogic_epi64(__m512i a, __m512i b, __m512i c, int imm)
{
    __m512i r = _mm512_setzero_si512();
    MODEL_LANES
    for (int i = 0; i < 8; i++) {
        for (unsigned index = 0; index < 8; index++) {
            if (!((imm >> index) & 1))
                continue;
            const uint64_t x = (index & 4) ? a.lane[i] : ~a.lane[i];
            const uint64_t y = (index & 2) ? b.lane[i] : ~b.lane[i];
            const uint64_t z = (index & 1) ? c.lane[i] : ~c.lane[i];
            r.lane[i] |= x & y & z;
        }
    }
    return r;
}

/* ---- Masked forms: lanes outside k keep src ---- */

MODEL_FN __m512i _mm512_mask_add_epi64(__m512i src, __mmask8 k, __m512i a, __m512i b)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        if ((k >> i) & 1)
            src.lane[i] = a.lane[i] + b.lane[i];
    return src;
}

MODEL_FN __m512i _mm512_mask_sub_epi64(__m512i src, __mmask8 k, __m512i a, __m512i b)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        if ((k >> i) & 1)
            src.lane[i] = a.lane[i] - b.lane[i];
    return src;
}

MODEL_FN __m512i _mm512_mask_mov_epi64(__m512i src, __mmask8 k, __m512i a)
{
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        if ((k >> i) & 1)
            src.lane[i] = a.lane[i];
    return src;
}

MODEL_FN __m512i _mm512_mask_set1_epi64(__m512i src, __mmask8 k, long long v)
{
    return _mm512_mask_mov_epi64(src, k, _mm512_set1_epi64(v));
}

/* ---- Comparisons into masks ---- */

MODEL_FN __mmask8 _mm512_cmpgt_epu64_mask(__m512i a, __m512i b)
{
    __mmask8 k = 0;
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        k |= (__mmask8)((a.lane[i] > b.lane[i]) << i);
    return k;
}

MODEL_FN __mmask8 _mm512_cmpeq_epu64_mask(__m512i a, __m512i b)
{
    __mmask8 k = 0;
    MODEL_LANES
    for (int i = 0; i < 8; i++)
        k |= (__mmask8)((a.lane[i] == b.lane[i]) << i);
    return k;
}

MODEL_FN __mmask8 _mm512_cmpeq_epi64_mask(__m512i a, __m512i b)
{
    return _mm512_cmpeq_epu64_mask(a, b);
}

/* ---- Arithmetic on mask registers (AVX512F kunpckbw; AVX512BW the rest) ---- */

/* Low 8 bits from b, the next 8 from a. */
MODEL_FN __mmask16 _mm512_kunpackb(__mmask16 a, __mmask16 b)
{
    return (__mmask16)((a & 0xffu) << 8 | (b & 0xffu));
}

/* Low 16 bits from b, the next 16 from a. */
MODEL_FN __mmask32 _mm512_kunpackw(__mmask32 a, __mmask32 b)
{
    return (a & 0xffffu) << 16 | (b & 0xffffu);
}

MODEL_FN __mmask32 _kadd_mask32(__mmask32 a, __mmask32 b)
{
    return a + b;
}

MODEL_FN __mmask32 _kxor_mask32(__mmask32 a, __mmask32 b)
{
    return a ^ b;
}

/* Shifts by 32 or more give 0, as the instructions do. */
MODEL_FN __mmask32 _kshiftli_mask32(__mmask32 a, unsigned count)
{
    return count > 31 ? 0 : a << count;
}

MODEL_FN __mmask32 _kshiftri_mask32(__mmask32 a, unsigned count)
{
    return count > 31 ? 0 : a >> count;
}

/* ---- Lane movement ---- */

/* Lanes count .. count + 7 of the 16 lanes b (0 .. 7) then a (8 .. 15);
 * only the count's low 3 bits matter. */
MODEL_FN __m512i _mm512_alignr_epi64(__m512i a, __m512i b, int count)
{
    __m512i r;
    const int shift = count & 7;
    MODEL_LANES
    for (int i = 0; i < 8; i++) {
        const int from = i + shift;
        r.lane[i] = from < 8 ? b.lane[from] : a.lane[from - 8];
    }
    return r;
}

/* Lane i takes lane (idx_i & 7) of a, or of b when bit 3 of idx_i is set. */
MODEL_FN __m512i _mm512_permutex2var_epi64(__m512i a, __m512i idx, __m512i b)
{
    __m512i r;
    MODEL_LANES
    for (int i = 0; i < 8; i++) {
        const unsigned sel = (unsigned)(idx.lane[i] & 15);
        r.lane[i] = sel & 8 ? b.lane[sel & 7] : a.lane[sel & 7];
    }
    return r;
}

#endif
