/*
 * test_avx512_model.c - the portable model of the AVX-512 intrinsics
 * (test/model/avx512_model.h) against the instructions themselves.
 *
 * Every intrinsic the engine uses runs on the same inputs in the model and,
 * where this CPU has AVX-512 IFMA, on the CPU, and the results must match
 * lane for lane: random inputs (uniform 64-bit lanes, so the bits the
 * 52-bit multiply-adds ignore are set too) and the edge values 0, 2^52 - 1,
 * 2^52, 2^64 - 1.
 *
 * On a CPU without the instructions the same inputs (a fixed sequence) go
 * through the model only, and a digest of its outputs per intrinsic must
 * equal the digest recorded from the instructions on a CPU that has them
 * (RECORDED below; on such a CPU the test checks the record is current, and
 * `test_avx512_model --print-digests` prints a new one).  So the model is
 * checked against the hardware on every machine, never skipped.
 * `test_avx512_model --has-instructions` exits 0 where the CPU has them.
 *
 * The model is compiled here under other names (model_...), beside
 * <immintrin.h>'s real intrinsics.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* ---- The model, renamed ---- */
#define __m512i model__m512i
#define __m256i model__m256i
#define __m128i model__m128i
#define __mmask8 model__mmask8
#define __mmask16 model__mmask16
#define __mmask32 model__mmask32
#define _mm512_setzero_si512 model_mm512_setzero_si512
#define _mm512_set1_epi64 model_mm512_set1_epi64
#define _mm512_set_epi64 model_mm512_set_epi64
#define _mm512_load_si512 model_mm512_load_si512
#define _mm512_loadu_si512 model_mm512_loadu_si512
#define _mm512_store_si512 model_mm512_store_si512
#define _mm512_storeu_si512 model_mm512_storeu_si512
#define _mm512_castsi512_si128 model_mm512_castsi512_si128
#define _mm512_castsi512_si256 model_mm512_castsi512_si256
#define _mm_store_si128 model_mm_store_si128
#define _mm256_store_si256 model_mm256_store_si256
#define _mm_cvtsi128_si64 model_mm_cvtsi128_si64
#define _mm512_madd52lo_epu64 model_mm512_madd52lo_epu64
#define _mm512_madd52hi_epu64 model_mm512_madd52hi_epu64
#define _mm512_mask_madd52lo_epu64 model_mm512_mask_madd52lo_epu64
#define _mm512_mask_madd52hi_epu64 model_mm512_mask_madd52hi_epu64
#define _mm512_add_epi64 model_mm512_add_epi64
#define _mm512_and_si512 model_mm512_and_si512
#define _mm512_or_si512 model_mm512_or_si512
#define _mm512_srli_epi64 model_mm512_srli_epi64
#define _mm512_ternarylogic_epi64 model_mm512_ternarylogic_epi64
#define _mm512_mask_add_epi64 model_mm512_mask_add_epi64
#define _mm512_mask_sub_epi64 model_mm512_mask_sub_epi64
#define _mm512_mask_mov_epi64 model_mm512_mask_mov_epi64
#define _mm512_mask_set1_epi64 model_mm512_mask_set1_epi64
#define _mm512_cmpgt_epu64_mask model_mm512_cmpgt_epu64_mask
#define _mm512_cmpeq_epu64_mask model_mm512_cmpeq_epu64_mask
#define _mm512_cmpeq_epi64_mask model_mm512_cmpeq_epi64_mask
#define _mm512_alignr_epi64 model_mm512_alignr_epi64
#define _mm512_permutex2var_epi64 model_mm512_permutex2var_epi64
#define _mm512_kunpackb model_mm512_kunpackb
#define _mm512_kunpackw model_mm512_kunpackw
#define _kadd_mask32 model_kadd_mask32
#define _kxor_mask32 model_kxor_mask32
#define _kshiftli_mask32 model_kshiftli_mask32
#define _kshiftri_mask32 model_kshiftri_mask32
#include "avx512_model.h"
#undef __m512i
#undef __m256i
#undef __m128i
#undef __mmask8
#undef __mmask16
#undef __mmask32
#undef _mm512_setzero_si512
#undef _mm512_set1_epi64
#undef _mm512_set_epi64
#undef _mm512_load_si512
#undef _mm512_loadu_si512
#undef _mm512_store_si512
#undef _mm512_storeu_si512
#undef _mm512_castsi512_si128
#undef _mm512_castsi512_si256
#undef _mm_store_si128
#undef _mm256_store_si256
#undef _mm_cvtsi128_si64
#undef _mm512_madd52lo_epu64
#undef _mm512_madd52hi_epu64
#undef _mm512_mask_madd52lo_epu64
#undef _mm512_mask_madd52hi_epu64
#undef _mm512_add_epi64
#undef _mm512_and_si512
#undef _mm512_or_si512
#undef _mm512_srli_epi64
#undef _mm512_ternarylogic_epi64
#undef _mm512_mask_add_epi64
#undef _mm512_mask_sub_epi64
#undef _mm512_mask_mov_epi64
#undef _mm512_mask_set1_epi64
#undef _mm512_cmpgt_epu64_mask
#undef _mm512_cmpeq_epu64_mask
#undef _mm512_cmpeq_epi64_mask
#undef _mm512_alignr_epi64
#undef _mm512_permutex2var_epi64
#undef _mm512_kunpackb
#undef _mm512_kunpackw
#undef _kadd_mask32
#undef _kxor_mask32
#undef _kshiftli_mask32
#undef _kshiftri_mask32

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_REAL 1
#include <immintrin.h>
#define REAL_TARGET __attribute__((target("avx512f,avx512ifma,avx512vl,avx512bw")))
#else
#define HAVE_REAL 0
#endif

/*
 * The operations compared, each one intrinsic (or, for the loads, stores and
 * casts, a short sequence through them) on three vectors A, B, C, a mask K
 * and C's lane 0 as a scalar c0; Y(name) is the intrinsic in the model or
 * the real one.  VEC: a vector result; MASK: a mask result (in lane 0).
 */
#define OPS(Y, VEC, MASK)                                                                               \
    VEC(madd52lo, Y(_mm512_madd52lo_epu64)(A, B, C))                                                    \
    VEC(madd52hi, Y(_mm512_madd52hi_epu64)(A, B, C))                                                    \
    VEC(mask_madd52lo, Y(_mm512_mask_madd52lo_epu64)(A, K, B, C))                                       \
    VEC(mask_madd52hi, Y(_mm512_mask_madd52hi_epu64)(A, K, B, C))                                       \
    VEC(add, Y(_mm512_add_epi64)(A, B))                                                                 \
    VEC(and, Y(_mm512_and_si512)(A, B))                                                                 \
    VEC(or, Y(_mm512_or_si512)(A, B))                                                                   \
    VEC(srli52, Y(_mm512_srli_epi64)(A, 52))                                                            \
    VEC(alignr1, Y(_mm512_alignr_epi64)(A, B, 1))                                                       \
    VEC(alignr2, Y(_mm512_alignr_epi64)(A, B, 2))                                                       \
    VEC(alignr7, Y(_mm512_alignr_epi64)(A, B, 7))                                                       \
    VEC(permutex2var, Y(_mm512_permutex2var_epi64)(A, B, C))                                            \
    VEC(ternarylogic_f8, Y(_mm512_ternarylogic_epi64)(A, B, C, 0xF8))                                   \
    VEC(ternarylogic_96, Y(_mm512_ternarylogic_epi64)(A, B, C, 0x96))                                   \
    VEC(ternarylogic_ca, Y(_mm512_ternarylogic_epi64)(A, B, C, 0xCA))                                   \
    VEC(mask_add, Y(_mm512_mask_add_epi64)(A, K, B, C))                                                 \
    VEC(mask_sub, Y(_mm512_mask_sub_epi64)(A, K, B, C))                                                 \
    VEC(mask_mov, Y(_mm512_mask_mov_epi64)(A, K, B))                                                    \
    VEC(mask_set1, Y(_mm512_mask_set1_epi64)(A, K, (long long)c0))                                      \
    VEC(set1, Y(_mm512_set1_epi64)((long long)c0))                                                      \
    VEC(set, Y(_mm512_set_epi64)((long long)c[7], (long long)c[6], (long long)c[5], (long long)c[4],    \
                                 (long long)c[3], (long long)c[2], (long long)c[1], (long long)c[0]))  \
    VEC(setzero_or, Y(_mm512_or_si512)(Y(_mm512_setzero_si512)(), A))                                   \
    MASK(cmpgt_epu64, Y(_mm512_cmpgt_epu64_mask)(A, B))                                                 \
    MASK(cmpeq_epu64, Y(_mm512_cmpeq_epu64_mask)(A, B))                                                 \
    MASK(cmpeq_epi64, Y(_mm512_cmpeq_epi64_mask)(A, B))                                                 \
    MASK(cmpeq_self, Y(_mm512_cmpeq_epu64_mask)(A, Y(_mm512_mask_mov_epi64)(B, K, A)))                   \
    MASK(kunpackb, Y(_mm512_kunpackb)((uint16_t)c0, (uint16_t)(c0 >> 16)))                              \
    MASK(kunpackw, Y(_mm512_kunpackw)((uint32_t)c0, (uint32_t)(c0 >> 32)))                              \
    MASK(kadd32, Y(_kadd_mask32)((uint32_t)c0, (uint32_t)(c0 >> 32)))                                   \
    MASK(kxor32, Y(_kxor_mask32)((uint32_t)c0, (uint32_t)(c0 >> 32)))                                   \
    MASK(kshiftli32, Y(_kshiftli_mask32)((uint32_t)c0, 1))                                              \
    MASK(kshiftri32_8, Y(_kshiftri_mask32)((uint32_t)c0, 8))                                            \
    MASK(kshiftri32_16, Y(_kshiftri_mask32)((uint32_t)c0, 16))

#define MODEL_NAME(name) model##name
#define REAL_NAME(name) name

typedef void (*op_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, unsigned k);

/* Each side's version of an operation: vectors from memory (the unaligned
 * load), the operation, the result to memory (the unaligned store). */
#define SIDE_VEC(side, Y, T, attr, name, expr)                                                          \
    attr static void side##_##name(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, \
                                   unsigned k)                                                         \
    {                                                                                                  \
        const T A = Y(_mm512_loadu_si512)(a), B = Y(_mm512_loadu_si512)(b), C = Y(_mm512_loadu_si512)(c); \
        const uint8_t K = (uint8_t)k;                                                                  \
        const uint64_t c0 = c[0];                                                                      \
        (void)A, (void)B, (void)C, (void)K, (void)c0;                                                  \
        Y(_mm512_storeu_si512)(r, expr);                                                               \
    }
#define SIDE_MASK(side, Y, T, attr, name, expr)                                                         \
    attr static void side##_##name(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, \
                                   unsigned k)                                                         \
    {                                                                                                  \
        const T A = Y(_mm512_loadu_si512)(a), B = Y(_mm512_loadu_si512)(b), C = Y(_mm512_loadu_si512)(c); \
        const uint8_t K = (uint8_t)k;                                                                  \
        const uint64_t c0 = c[0];                                                                      \
        (void)A, (void)B, (void)C, (void)K, (void)c0;                                                  \
        memset(r, 0, 8 * sizeof(uint64_t));                                                            \
        r[0] = (uint64_t)(expr);                                                                       \
    }

#define MODEL_VEC(name, expr) SIDE_VEC(model, MODEL_NAME, model__m512i, , name, expr)
#define MODEL_MASK(name, expr) SIDE_MASK(model, MODEL_NAME, model__m512i, , name, expr)
OPS(MODEL_NAME, MODEL_VEC, MODEL_MASK)

#if HAVE_REAL
#define REAL_VEC(name, expr) SIDE_VEC(real, REAL_NAME, __m512i, REAL_TARGET, name, expr)
#define REAL_MASK(name, expr) SIDE_MASK(real, REAL_NAME, __m512i, REAL_TARGET, name, expr)
OPS(REAL_NAME, REAL_VEC, REAL_MASK)
#endif

/* The aligned loads and stores and the narrow casts, one sequence: load
 * (aligned) a, store it (aligned), store its low 128 and 256 bits, and read
 * lane 0 as a scalar: r = [lanes 0-7 stored, then the narrow stores'
 * lanes over lanes 0-3, and lane 0 read into lane 7]. */
#define SIDE_MEMORY(side, Y, T, T256, T128, attr)                                                       \
    attr static void side##_memory(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, \
                                   unsigned k)                                                         \
    {                                                                                                  \
        (void)b, (void)c, (void)k;                                                                     \
        _Alignas(64) uint64_t in[8], out[8], narrow[4];                                                \
        memcpy(in, a, sizeof in);                                                                      \
        const T x = Y(_mm512_load_si512)(in);                                                          \
        Y(_mm512_store_si512)(out, x);                                                                 \
        Y(_mm256_store_si256)((T256 *)narrow, Y(_mm512_castsi512_si256)(x));                           \
        Y(_mm_store_si128)((T128 *)narrow, Y(_mm512_castsi512_si128)(Y(_mm512_add_epi64)(x, x)));       \
        memcpy(r, out, sizeof out);                                                                    \
        r[1] ^= narrow[0] ^ narrow[2];                                                                 \
        r[3] ^= narrow[1] ^ narrow[3];                                                                 \
        r[7] ^= (uint64_t)Y(_mm_cvtsi128_si64)(Y(_mm512_castsi512_si128)(x));                          \
    }
SIDE_MEMORY(model, MODEL_NAME, model__m512i, model__m256i, model__m128i, )
#if HAVE_REAL
SIDE_MEMORY(real, REAL_NAME, __m512i, __m256i, __m128i, REAL_TARGET)
#endif

struct op {
    const char *name;
    op_fn model, real;
};

#if HAVE_REAL
#define ENTRY(name, expr) {#name, model_##name, real_##name},
#define MEMORY_ENTRY {"memory", model_memory, real_memory},
#else
#define ENTRY(name, expr) {#name, model_##name, NULL},
#define MEMORY_ENTRY {"memory", model_memory, NULL},
#endif
static const struct op ops[] = {OPS(MODEL_NAME, ENTRY, ENTRY) MEMORY_ENTRY};
#define OP_COUNT (sizeof ops / sizeof ops[0])

/*
 * Digests of the instructions' outputs over the fixed input sequence
 * (DIGEST_CASES cases an operation, seed DIGEST_SEED), in the order of
 * ops[], as recorded on an AMD Zen 4, the mask arithmetic on a Zen 5 (`--print-digests`).
 */
#define DIGEST_CASES 2000
#define DIGEST_SEED UINT64_C(0x243f6a8885a308d3)
static const uint64_t RECORDED[] = {
#include "avx512_model_digests.h"
};

/* Lane values: uniform 64 bits mostly, an edge value now and then. */
static uint64_t lane_value(void)
{
    static const uint64_t edges[] = {0, (UINT64_C(1) << 52) - 1, UINT64_C(1) << 52, ~UINT64_C(0),
                                     UINT64_C(1), (UINT64_C(1) << 51)};
    uint64_t x = rng_next();
    return (x & 7) == 0 ? edges[(x >> 3) % (sizeof edges / sizeof edges[0])] : rng_next();
}

static void random_inputs(uint64_t *a, uint64_t *b, uint64_t *c, unsigned *k)
{
    for (int i = 0; i < 8; i++) {
        a[i] = lane_value();
        b[i] = lane_value();
        c[i] = lane_value();
    }
    *k = (unsigned)(rng_next() & 0xff);
}

/* FNV-1a over the result's lanes, folded into d. */
static uint64_t digest_add(uint64_t d, const uint64_t *r)
{
    for (int i = 0; i < 8; i++)
        for (int byte = 0; byte < 8; byte++) {
            d ^= (r[i] >> (8 * byte)) & 0xff;
            d *= UINT64_C(0x100000001b3);
        }
    return d;
}

/* The digest of op's outputs (model or real) over the fixed sequence. */
static uint64_t digest_of(const struct op *op, int real)
{
    rng_seed(DIGEST_SEED);
    uint64_t d = UINT64_C(0xcbf29ce484222325);
    for (int c = 0; c < DIGEST_CASES; c++) {
        uint64_t a[8], b[8], cc[8], r[8];
        unsigned k;
        random_inputs(a, b, cc, &k);
        (real ? op->real : op->model)(r, a, b, cc, k);
        d = digest_add(d, r);
    }
    return d;
}

static int real_instructions_here(void)
{
#if HAVE_REAL
    /* The CPU's own answer (libgcc's, which also asks whether the OS saves
     * the AVX-512 state), not the library's: in a model build the library
     * says yes everywhere. */
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
#else
    return 0;
#endif
}

int main(int argc, char **argv)
{
    const int real = real_instructions_here();
    if (argc == 2 && strcmp(argv[1], "--has-instructions") == 0)
        return real ? 0 : 1; /* for test/check-engines.sh */
    if (argc == 2 && strcmp(argv[1], "--print-digests") == 0) {
        if (!real) {
            fprintf(stderr, "this CPU has no AVX-512 IFMA: digests must come from the instructions\n");
            return 2;
        }
        printf("/* Recorded by test_avx512_model --print-digests: one per operation of ops[]. */\n");
        for (size_t i = 0; i < OP_COUNT; i++)
            printf("UINT64_C(0x%016llx), /* %s */\n", (unsigned long long)digest_of(&ops[i], 1), ops[i].name);
        return 0;
    }
    test_seed("test_avx512_model");
    CHECK(sizeof RECORDED / sizeof RECORDED[0] == OP_COUNT,
          "avx512_model_digests.h has %zu digests for %zu operations: record it again",
          sizeof RECORDED / sizeof RECORDED[0], OP_COUNT);
    for (size_t i = 0; i < OP_COUNT && i < sizeof RECORDED / sizeof RECORDED[0]; i++) {
        const uint64_t model = digest_of(&ops[i], 0);
        CHECK(model == RECORDED[i], "%s: the model's digest %016llx is not the instructions' %016llx", ops[i].name,
              (unsigned long long)model, (unsigned long long)RECORDED[i]);
        if (real)
            CHECK(digest_of(&ops[i], 1) == RECORDED[i], "%s: the instructions' digest changed: record it again",
                  ops[i].name);
    }
    if (real) {
        /* Case by case on fresh random inputs. */
        test_seed("test_avx512_model");
        const long cases = test_scale(20000);
        for (size_t i = 0; i < OP_COUNT; i++) {
            long bad = 0;
            for (long c = 0; c < cases; c++) {
                uint64_t a[8], b[8], cc[8], rm[8], rr[8];
                unsigned k;
                random_inputs(a, b, cc, &k);
                ops[i].model(rm, a, b, cc, k);
                ops[i].real(rr, a, b, cc, k);
                if (memcmp(rm, rr, sizeof rm) != 0 && bad++ == 0)
                    printf("# %s differs: a[0]=%016llx b[0]=%016llx c[0]=%016llx k=%02x: model %016llx, real %016llx\n",
                           ops[i].name, (unsigned long long)a[0], (unsigned long long)b[0],
                           (unsigned long long)cc[0], k, (unsigned long long)rm[0], (unsigned long long)rr[0]);
            }
            CHECK(bad == 0, "%s: the model differs from the instruction in %ld of %ld cases", ops[i].name, bad, cases);
        }
        printf("# the model against this CPU's instructions and against the recorded digests\n");
    } else {
        printf("# no AVX-512 IFMA here: the model against the digests recorded from the instructions\n");
    }
    return finish("test_avx512_model");
}
