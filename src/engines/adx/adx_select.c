/*
 * adx_select.c - the MULX/ADX engine's constant-time table select (its
 * select_any, see powm_driver.h): r = table[index] of count entries of
 * limbs limbs each, at any address, every entry read in full.
 *
 * With AVX2 a vector comparison of the entry's number with index makes the
 * mask, and four limbs go in a load, an AND and an OR; sixteen limbs are
 * gathered in four registers over all the entries, then stored.  Without
 * AVX2 the engine takes the drivers' masked select (jbigi_masked_select),
 * which needs two SSE2 registers, or four limbs, per four limbs.  N is a
 * multiple of 4.
 */
#include "engines/adx/adx.h"

#include "cpu/cpu_facts.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* x's value is unknown to the compiler from here on, so the comparison
 * cannot be turned back into a test of index and a branch.  The vector
 * form of opaque.h's JBIGI_OPAQUE, kept here: these are the compiler's own
 * AVX2 types in every build, while the IFMA engine's vector barrier
 * (ifma_intrin.h) must compile to nothing on the model's types. */
#define OPAQUE(x) __asm__("" : "+x"(x))

#define LOAD(p) _mm256_loadu_si256((const void *)(p))

/* Limbs k .. k + 16 of every entry into r, in four named registers (an
 * array of them ends up on the stack, and every entry's OR then waits on a
 * store and a load). */
__attribute__((target("avx2"))) static inline void gather16(mp_limb_t *r, const mp_limb_t *table, size_t limbs,
                                                            size_t count, __m256i wanted, size_t k)
{
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0, number = a0;
    for (size_t j = 0; j < count; j++) {
        const __m256i mask = _mm256_cmpeq_epi64(number, wanted);
        const mp_limb_t *entry = table + j * limbs + k;
        a0 = _mm256_or_si256(a0, _mm256_and_si256(mask, LOAD(entry)));
        a1 = _mm256_or_si256(a1, _mm256_and_si256(mask, LOAD(entry + 4)));
        a2 = _mm256_or_si256(a2, _mm256_and_si256(mask, LOAD(entry + 8)));
        a3 = _mm256_or_si256(a3, _mm256_and_si256(mask, LOAD(entry + 12)));
        number = _mm256_add_epi64(number, one);
    }
    _mm256_storeu_si256((void *)(r + k), a0);
    _mm256_storeu_si256((void *)(r + k + 4), a1);
    _mm256_storeu_si256((void *)(r + k + 8), a2);
    _mm256_storeu_si256((void *)(r + k + 12), a3);
}

/* Limbs k .. k + 4 of every entry into r. */
__attribute__((target("avx2"))) static inline void gather4(mp_limb_t *r, const mp_limb_t *table, size_t limbs,
                                                           size_t count, __m256i wanted, size_t k)
{
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i a0 = _mm256_setzero_si256(), number = a0;
    for (size_t j = 0; j < count; j++) {
        const __m256i mask = _mm256_cmpeq_epi64(number, wanted);
        a0 = _mm256_or_si256(a0, _mm256_and_si256(mask, LOAD(table + j * limbs + k)));
        number = _mm256_add_epi64(number, one);
    }
    _mm256_storeu_si256((void *)(r + k), a0);
}

__attribute__((target("avx2"))) static void select_avx2(mp_limb_t *r, const mp_limb_t *table, size_t limbs,
                                                        size_t count, size_t index)
{
    __m256i wanted = _mm256_set1_epi64x((long long)index);
    OPAQUE(wanted);
    size_t k = 0;
    for (; k + 16 <= limbs; k += 16)
        gather16(r, table, limbs, count, wanted, k);
    for (; k < limbs; k += 4) /* limbs = N, a multiple of 4 */
        gather4(r, table, limbs, count, wanted, k);
}

/* AVX2 as the CPU facts say (JBIGI_ADX_NO_AVX2 test builds hide it there). */
static int has_avx2(void)
{
    return jbigi_cpu_has_all(JBIGI_CPU_AVX2);
}

void jbigi_adx_select(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, size_t index)
{
    const size_t limbs = (size_t)((const jbigi_adx_ctx *)ctx)->N;
    if (has_avx2())
        select_avx2(r, table, limbs, count, index);
    else
        jbigi_masked_select(r, table, limbs, count, index);
}

#else

void jbigi_adx_select(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, size_t index)
{
    jbigi_masked_select(r, table, (size_t)((const jbigi_adx_ctx *)ctx)->N, count, index);
}

#endif
