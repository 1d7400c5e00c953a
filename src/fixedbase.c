/*
 * fixedbase.c - fixed-base exponentiation: a Lim-Lee comb over Montgomery
 * arithmetic, built from GMP's public mpn functions, from the MULX/ADX
 * engine's where it takes the size, or, where the AVX-512 IFMA engine
 * runs, from its multiplication on 52-bit digits.
 *
 * The comb.  Pick rows h and blocks v; let b = ceil(ceil(E / h) / v) and
 * a = v * b, so h * a >= E bits of exponent are covered.  Bit k*a + s*b + t
 * of the exponent (row k < h, block s < v, offset t < b) selects, for each
 * block s, one of 2^h entries
 *
 *     G[s][j] = prod over bits k of j of g^(2^(k*a + s*b))
 *
 * and then
 *
 *     g^e = prod over t = b-1..0, squaring between:  prod over s of G[s][j(s, t)]
 *
 * which is b - 1 squarings and v * b multiplications.  For a 2048-bit
 * exponent with h = 8, v = 2 that is 127 squarings and 256 multiplications
 * where mpz_powm needs about 2048 squarings and 300 multiplications.
 *
 * The table, in limbs:
 *
 *     [0] magic   [1] n (modulus limbs)   [2] h   [3] v   [4] b   [5] -m^-1 mod 2^64
 *     [6 .. 6+n)  the modulus
 *     then v * 2^h entries of n limbs, G[s][j] at 6 + n + (s * 2^h + j) * n,
 *     all in Montgomery form (x * 2^(64 n) mod m); G[s][0] is one.
 *
 * The IFMA format (magic "JBFI", made where the engine takes the modulus'
 * size) has the same header and modulus; its entries are the engine's
 * numbers, W = ifma_words(n) 52-bit digits each (R = 2^(52 N), see ifma.h).
 * Which format a table gets follows from the size its caller allocated
 * (jbigi_fb_table_limbs); both are read by the same comb loops, through
 * mont_mul and mont_sqr.  The IFMA engine wants 64-byte aligned operands:
 * entries in a Java buffer are copied to an aligned slot first (a few ns
 * each).  A table in GMP's format is also the MULX/ADX engine's where that
 * engine works on n limbs itself (n a multiple of 4, so its R is 2^(64 n)
 * too): both keep values fully reduced, so the entries and every result
 * are the same whichever of the two multiplies.
 *
 * Edge cases, handled by the caller or early here:
 *   m even or m <= 1      no Montgomery form; refused at build (use mpz_powm).
 *   exp < 0               refused: the caller inverts or uses mpz_powm.
 *   exp = 0               result 1 (m > 1).
 *   exp too long          refused with JBIGI_EXPONENT_TOO_LONG: use mpz_powm.
 *   base = 0 mod m        all entries but G[s][0] are 0: results 0 for exp > 0.
 *   malformed table       every header field and the length are checked
 *                         before a limb of the entries is read.
 *
 * TODO: a REDC built on addmul_2 (GMP's internal mpn_redc_2) would be faster
 * than the public mpn_addmul_1 loop used here.
 */
#include "fixedbase.h"
#include "limb_inverse.h"

#include "adx.h"
#include "engine.h"
#include "ifma.h"
#include "scratch.h"

#include "ifma_intrin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FB_MAGIC ((mp_limb_t)0x4a424642)      /* "JBFB", version 1: entries in GMP limbs */
#define FB_MAGIC_IFMA ((mp_limb_t)0x4a424649) /* "JBFI": entries in the IFMA engine's digits */

enum { HDR_MAGIC, HDR_LIMBS, HDR_ROWS, HDR_BLOCKS, HDR_BLOCK_BITS, HDR_MINV, HDR_SIZE };

/* The parts of a checked table. */
struct comb {
    mp_size_t n;
    unsigned rows, blocks;
    size_t block_bits;           /* b */
    size_t row_bits;             /* a = blocks * b */
    mp_limb_t minv;
    int ifma;                    /* entries in IFMA digits (FB_MAGIC_IFMA) */
    size_t width;                /* limbs (or digit words) per entry */
    const mp_limb_t *modulus;
    const mp_limb_t *entries;
};

/* Montgomery arithmetic mod an odd n-limb modulus, with its scratch space. */
struct mont {
    mp_size_t n;
    const mp_limb_t *m;
    mp_limb_t minv;     /* -m^-1 mod 2^GMP_LIMB_BITS */
    mp_limb_t *product; /* 2n limbs */
    mp_limb_t *spare;   /* n limbs */
    mp_limb_t *sec;     /* scratch for mpn_sec_mul / mpn_sec_sqr, or NULL */
    int constant_time;
    /* The IFMA format: the engine's context, and 64-byte aligned copies of
     * operands that are not aligned (table entries in a Java buffer). */
    jbigi_ifma_ctx *ifma;
    jbigi_ifma_ctx ifma_ctx;
    uint64_t *aligned;  /* 3 numbers: two operands and a result */
    /* GMP's format on the MULX/ADX engine's products and reduction. */
    jbigi_adx_ctx *adx;
    jbigi_adx_ctx adx_ctx;
};

/* Digit words per number of the IFMA engine for an n-limb modulus, as ifma.h
 * defines them (ceil((64 n + 2) / 52) digits, rounded up to 8: evening the
 * digit count never changes that); checked
 * against the engine's own context before a table is built or read. */
static size_t ifma_words(size_t n)
{
    size_t digits = (64 * n + 2 + 51) / 52;
    return (digits + 7) / 8 * 8;
}

/* Whether new tables for an n-limb modulus take the IFMA format. */
static int ifma_format_for(size_t n)
{
    /* From 1024 bits, where the comb shapes of FixedBase were measured for
     * the engine's tables; below, GMP's format, as FixedBase expects. */
    return n >= 16 && jbigi_engine_ifma_takes((mp_size_t)n);
}

static size_t limbs_of_table(size_t n, unsigned rows, unsigned blocks, int ifma)
{
    if (n == 0 || rows < 1 || rows > JBIGI_FB_MAX_ROWS || blocks < 1 || blocks > JBIGI_FB_MAX_BLOCKS)
        return 0;
    if (ifma && n > JBIGI_IFMA_MAX_LIMBS)
        return 0;
    size_t width = ifma ? ifma_words(n) : n;
    size_t entries = (size_t)blocks << rows;
    if (width > (SIZE_MAX - HDR_SIZE) / (entries + 1))
        return 0;
    return HDR_SIZE + n + entries * width;
}

size_t jbigi_fb_table_limbs(size_t n, unsigned rows, unsigned blocks)
{
    return limbs_of_table(n, rows, blocks, ifma_format_for(n));
}

/*
 * rp = product / 2^(bits n) mod m, from the 2n-limb product (< m * 2^(bits n)),
 * which it overwrites.  Each step clears the lowest limb by adding q * m;
 * the step's carry is parked in that cleared limb and all of them are added
 * in one pass at the end.
 */
static void mont_reduce(struct mont *c, mp_limb_t *rp)
{
    mp_limb_t *t = c->product;
    const mp_size_t n = c->n;
    for (mp_size_t i = 0; i < n; i++)
        t[i] = mpn_addmul_1(t + i, c->m, n, t[i] * c->minv);
    mp_limb_t carry = mpn_add_n(rp, t + n, t, n);
    /* The sum is below 2m: subtract m once if it is >= m. */
    if (c->constant_time) {
        mp_limb_t borrow = mpn_sub_n(c->spare, rp, c->m, n);
        mpn_cnd_swap(carry | (borrow ^ 1), rp, c->spare, n);
    } else if (carry || mpn_cmp(rp, c->m, n) >= 0) {
        mpn_sub_n(rp, rp, c->m, n);
    }
}

/* p itself if 64-byte aligned, else a copy of it in the aligned slot. */
static const uint64_t *aligned_operand(struct mont *c, const mp_limb_t *p, int slot)
{
    if ((uintptr_t)p % 64 == 0)
        return p;
    uint64_t *copy = c->aligned + (size_t)slot * (size_t)c->ifma->words;
    memcpy(copy, p, (size_t)c->ifma->words * sizeof(uint64_t));
    return copy;
}

#if JBIGI_AVX512_CODE
/*
 * rp = table[which], table holding count entries of width words, reading
 * every entry: mpn_sec_tabselect with AVX-512, for the IFMA format, whose
 * width is a multiple of 8.  The entry is picked by a vector comparison into
 * a mask register, which takes the same time whatever it finds.
 */
JBIGI_AVX512_TARGET("avx512f") static void select_avx512(uint64_t *rp, const uint64_t *table, size_t width,
                                                             size_t count, size_t which)
{
    __m512i wanted = _mm512_set1_epi64((long long)which);
    /* Opaque from here on: the compiler cannot turn the comparison back
     * into a scalar test of `which` and a branch or a conditional move. */
    JBIGI_VECTOR_OPAQUE(wanted);
    for (size_t w = 0; w < width; w += 8) {
        __m512i acc = _mm512_setzero_si512();
        for (size_t i = 0; i < count; i++) {
            __mmask8 hit = _mm512_cmpeq_epi64_mask(_mm512_set1_epi64((long long)i), wanted);
            /* Loaded in full into a register first: folded into the move,
             * it would become a masked load, which need not touch memory
             * where its mask is clear. */
            __m512i entry = _mm512_loadu_si512((const void *)(table + i * width + w));
            JBIGI_VECTOR_OPAQUE(entry);
            acc = _mm512_mask_mov_epi64(acc, hit, entry);
        }
        _mm512_storeu_si512((void *)(rp + w), acc);
    }
}
#endif

/* rp = entry which of count entries of width limbs, in constant time. */
static void select_entry(struct mont *c, mp_limb_t *rp, const mp_limb_t *table, size_t width, size_t count,
                         size_t which)
{
#if JBIGI_AVX512_CODE
    if (c->ifma != NULL) {
        select_avx512(rp, table, width, count, which);
        return;
    }
#else
    (void)c;
#endif
    mpn_sec_tabselect(rp, table, (mp_size_t)width, (mp_size_t)count, (mp_size_t)which);
}

/* Where an IFMA result for rp goes: rp if aligned, else the result slot. */
static uint64_t *aligned_result(struct mont *c, mp_limb_t *rp)
{
    return (uintptr_t)rp % 64 == 0 ? rp : c->aligned + 2 * (size_t)c->ifma->words;
}

/* Copies an IFMA result from its slot to rp, if it was not computed there. */
static void store_result(struct mont *c, mp_limb_t *rp, const uint64_t *result)
{
    if (result != rp)
        memcpy(rp, result, (size_t)c->ifma->words * sizeof(uint64_t));
}

/* rp = ap * bp / R mod m; rp may alias either input. */
static void mont_mul(struct mont *c, mp_limb_t *rp, const mp_limb_t *ap, const mp_limb_t *bp)
{
    if (c->adx != NULL) {
        jbigi_adx_mul(c->adx, rp, ap, bp);
        return;
    }
    if (c->ifma != NULL) {
        uint64_t *result = aligned_result(c, rp);
        jbigi_ifma_mul(c->ifma, result, aligned_operand(c, ap, 0), aligned_operand(c, bp, 1));
        store_result(c, rp, result);
        return;
    }
    if (c->constant_time)
        mpn_sec_mul(c->product, ap, c->n, bp, c->n, c->sec);
    else
        mpn_mul_n(c->product, ap, bp, c->n);
    mont_reduce(c, rp);
}

static void mont_sqr(struct mont *c, mp_limb_t *rp, const mp_limb_t *ap)
{
    if (c->adx != NULL) {
        jbigi_adx_sqr(c->adx, rp, ap);
        return;
    }
    if (c->ifma != NULL) {
        uint64_t *result = aligned_result(c, rp);
        jbigi_ifma_sqr(c->ifma, result, aligned_operand(c, ap, 0));
        store_result(c, rp, result);
        return;
    }
    if (c->constant_time)
        mpn_sec_sqr(c->product, ap, c->n, c->sec);
    else
        mpn_sqr(c->product, ap, c->n);
    mont_reduce(c, rp);
}

/* Out of Montgomery form: rp = ap / R mod m, fully reduced. */
static void mont_leave(struct mont *c, mp_limb_t *rp, const mp_limb_t *ap)
{
    if (c->adx != NULL) {
        jbigi_adx_from_mont(c->adx, rp, ap);
        return;
    }
    if (c->ifma != NULL) {
        jbigi_ifma_from_mont(c->ifma, rp, aligned_operand(c, ap, 0));
        return;
    }
    mpn_copyi(c->product, ap, c->n);
    mpn_zero(c->product + c->n, c->n);
    mont_reduce(c, rp);
}

/* Whether a table in GMP's format is worked on with the MULX/ADX engine:
 * where the engine takes the size now and its R is GMP's (see above). */
static int uses_adx(const struct comb *k)
{
    return !k->ifma && k->n % 4 == 0 && jbigi_engine_for(k->n) == JBIGI_ENGINE_ADX;
}

/*
 * Scratch for one Montgomery context plus extra limbs, zeroed; NULL if out
 * of memory.  In the IFMA format the extra numbers the caller works on come
 * from jbigi_ifma_alloc (64-byte aligned): *work gets `work_count` of them,
 * else they are carved from the scratch by the caller.  Release with
 * mont_clear.
 */
static mp_limb_t *mont_init(struct mont *c, const struct comb *k, int constant_time, size_t extra_limbs,
                            size_t *total_limbs, size_t work_count, uint64_t **work)
{
    size_t sec_limbs = 0;
    if (constant_time && !k->ifma) {
        mp_size_t mul = mpn_sec_mul_itch(k->n, k->n), sqr = mpn_sec_sqr_itch(k->n);
        sec_limbs = (size_t)(mul > sqr ? mul : sqr);
    }
    size_t total = 3 * (size_t)k->n + sec_limbs + extra_limbs;
    mp_limb_t *scratch = jbigi_scratch_alloc(total);
    if (scratch == NULL)
        return NULL;
    c->n = k->n;
    c->m = k->modulus;
    c->minv = k->minv;
    c->product = scratch;
    c->spare = scratch + 2 * k->n;
    c->sec = sec_limbs ? scratch + 3 * k->n : NULL;
    c->constant_time = constant_time;
    c->ifma = NULL;
    c->aligned = NULL;
    c->adx = NULL;
    *total_limbs = total;
    *work = NULL;
    if (uses_adx(k)) {
        /* The modulus of a table is public: the quick division. */
        int flags = constant_time ? JBIGI_ADX_SECRET | JBIGI_ADX_PUBLIC_MODULUS : 0;
        if (jbigi_adx_ctx_init(&c->adx_ctx, k->modulus, k->n, flags) != 0) {
            jbigi_scratch_free(scratch, total);
            return NULL;
        }
        c->adx = &c->adx_ctx;
    }
    if (k->ifma) {
        /* The modulus of a table is public (R^2 mod m is not even used here):
         * the quick division, also for the constant-time path. */
        int flags = constant_time ? JBIGI_IFMA_SECRET_VALUES : 0;
        if (jbigi_ifma_ctx_init(&c->ifma_ctx, k->modulus, k->n, flags) != 0) {
            jbigi_scratch_free(scratch, total);
            return NULL;
        }
        c->ifma = &c->ifma_ctx;
        c->aligned = jbigi_ifma_alloc(c->ifma, 3);
        *work = work_count > 0 ? jbigi_ifma_alloc(c->ifma, work_count) : NULL;
        if (c->aligned == NULL || (work_count > 0 && *work == NULL) || (size_t)c->ifma->words != k->width) {
            if (*work != NULL)
                jbigi_ifma_free(*work, c->ifma, work_count);
            if (c->aligned != NULL)
                jbigi_ifma_free(c->aligned, c->ifma, 3);
            jbigi_ifma_ctx_clear(c->ifma);
            jbigi_scratch_free(scratch, total);
            return NULL;
        }
    }
    return scratch;
}

/* Releases what mont_init took, wiping it. */
static void mont_clear(struct mont *c, mp_limb_t *scratch, size_t total, size_t work_count, uint64_t *work)
{
    if (c->adx != NULL)
        jbigi_adx_ctx_clear(c->adx);
    if (c->ifma != NULL) {
        if (work != NULL)
            jbigi_ifma_free(work, c->ifma, work_count);
        jbigi_ifma_free(c->aligned, c->ifma, 3);
        jbigi_ifma_ctx_clear(c->ifma);
    }
    jbigi_scratch_free(scratch, total);
}

/* x mod m in Montgomery form (x * R mod m), as exactly n limbs. */
static void to_montgomery(mp_limb_t *out, const mpz_t x, const mpz_t m, mp_size_t n)
{
    mpz_t t;
    mpz_init(t);
    mpz_mod(t, x, m);
    mpz_mul_2exp(t, t, (mp_bitcnt_t)n * GMP_NUMB_BITS);
    mpz_mod(t, t, m);
    mp_size_t size = (mp_size_t)mpz_size(t);
    mpn_zero(out, n);
    if (size > 0)
        mpn_copyi(out, mpz_limbs_read(t), size);
    mpz_clear(t);
}

/* x mod m into out in the context's Montgomery form; reduced needs n limbs. */
static void enter_montgomery(struct mont *c, mp_limb_t *out, const mpz_t x, const mpz_t m, mp_limb_t *reduced)
{
    if (c->ifma == NULL) {
        to_montgomery(out, x, m, c->n);
        return;
    }
    mpz_t t;
    mpz_init(t);
    mpz_mod(t, x, m);
    mpn_zero(reduced, c->n);
    if (mpz_size(t) > 0)
        mpn_copyi(reduced, mpz_limbs_read(t), (mp_size_t)mpz_size(t));
    mpz_clear(t);
    uint64_t *result = aligned_result(c, out);
    jbigi_ifma_to_mont(c->ifma, result, reduced);
    store_result(c, out, result);
}

/* b for exponents as wide as an n-limb modulus: the largest a table has. */
static size_t max_block_bits(size_t n, unsigned rows, unsigned blocks)
{
    size_t row_bits = (n * GMP_NUMB_BITS + rows - 1) / rows;
    return (row_bits + blocks - 1) / blocks;
}

/* Reads and checks a table's header and length. */
static int read_comb(struct comb *k, const mp_limb_t *table, size_t table_limbs)
{
    if (table_limbs < HDR_SIZE || (table[HDR_MAGIC] != FB_MAGIC && table[HDR_MAGIC] != FB_MAGIC_IFMA))
        return 0;
    /* An IFMA table is read only where the engine runs (it was made here). */
    const int ifma = table[HDR_MAGIC] == FB_MAGIC_IFMA;
    if (ifma && !jbigi_ifma_available())
        return 0;
    mp_limb_t n = table[HDR_LIMBS], rows = table[HDR_ROWS], blocks = table[HDR_BLOCKS];
    mp_limb_t block_bits = table[HDR_BLOCK_BITS];
    if (rows < 1 || rows > JBIGI_FB_MAX_ROWS || blocks < 1 || blocks > JBIGI_FB_MAX_BLOCKS)
        return 0;
    if (n < 1 || n > table_limbs || limbs_of_table((size_t)n, (unsigned)rows, (unsigned)blocks, ifma) != table_limbs)
        return 0;
    /* The reach (block_bits * blocks * rows) is at most the modulus' width,
     * as jbigi_fb_build makes it: a forged width can neither overflow nor
     * make an exponentiation loop longer than one of its own size. */
    if (block_bits < 1 || block_bits > max_block_bits((size_t)n, (unsigned)rows, (unsigned)blocks))
        return 0;
    const mp_limb_t *modulus = table + HDR_SIZE;
    if ((modulus[0] & 1) == 0 || modulus[n - 1] == 0 || table[HDR_MINV] != jbigi_negated_inverse(modulus[0]))
        return 0;
    k->n = (mp_size_t)n;
    k->rows = (unsigned)rows;
    k->blocks = (unsigned)blocks;
    k->block_bits = (size_t)block_bits;
    k->row_bits = (size_t)block_bits * (size_t)blocks;
    k->minv = table[HDR_MINV];
    k->ifma = ifma;
    k->width = ifma ? ifma_words((size_t)n) : (size_t)n;
    k->modulus = modulus;
    k->entries = modulus + n;
    return 1;
}

size_t jbigi_fb_max_exponent_bits(const mp_limb_t *table, size_t table_limbs)
{
    struct comb k;
    if (!read_comb(&k, table, table_limbs))
        return 0;
    return k.row_bits * k.rows;
}

static const mp_limb_t *entry(const struct comb *k, unsigned block, size_t index)
{
    return k->entries + (((size_t)block << k->rows) + index) * k->width;
}

enum jbigi_status jbigi_fb_build(mp_limb_t *table, size_t table_limbs, const mpz_t base, const mpz_t m,
                                 unsigned rows, unsigned blocks, size_t max_exponent_bits)
{
    if (mpz_cmp_ui(m, 1) <= 0 || mpz_even_p(m))
        return JBIGI_MODULUS_TOO_SMALL;
    const mp_size_t n = (mp_size_t)mpz_size(m);
    /* The format is the one whose size the caller allocated (asked of
     * jbigi_fb_table_limbs): the IFMA engine's where it runs, else GMP's. */
    int ifma;
    if (jbigi_ifma_available() && table_limbs == limbs_of_table((size_t)n, rows, blocks, 1))
        ifma = 1;
    else if (table_limbs == limbs_of_table((size_t)n, rows, blocks, 0))
        ifma = 0;
    else
        return JBIGI_BAD_TABLE;
    if (max_exponent_bits < 1 || max_exponent_bits > (size_t)n * GMP_NUMB_BITS)
        return JBIGI_BAD_TABLE;

    size_t row_bits = (max_exponent_bits + rows - 1) / rows;
    size_t block_bits = (row_bits + blocks - 1) / blocks;
    table[HDR_MAGIC] = ifma ? FB_MAGIC_IFMA : FB_MAGIC;
    table[HDR_LIMBS] = (mp_limb_t)n;
    table[HDR_ROWS] = rows;
    table[HDR_BLOCKS] = blocks;
    table[HDR_BLOCK_BITS] = (mp_limb_t)block_bits;
    mpn_copyi(table + HDR_SIZE, mpz_limbs_read(m), n);
    table[HDR_MINV] = jbigi_negated_inverse(table[HDR_SIZE]);

    struct comb k;
    if (!read_comb(&k, table, table_limbs))
        return JBIGI_BAD_TABLE;
    struct mont c;
    size_t scratch_limbs;
    uint64_t *work;
    mp_limb_t *scratch = mont_init(&c, &k, 0, (size_t)n, &scratch_limbs, 0, &work);
    if (scratch == NULL)
        return JBIGI_NO_MEMORY;
    mp_limb_t *entries = (mp_limb_t *)k.entries;
    const size_t per_block = (size_t)1 << rows;
    const size_t width = k.width;

    /* G[s][0] = one, G[s][2^k] = g^(2^((k*v + s) * b)): the powers follow
     * one another, each b squarings after the last, row by row. */
    mpz_t one;
    mpz_init_set_ui(one, 1);
    for (unsigned s = 0; s < blocks; s++)
        enter_montgomery(&c, entries + (s * per_block) * width, one, m, scratch + scratch_limbs - n);
    mpz_clear(one);

    mp_limb_t *previous = NULL;
    for (unsigned row = 0; row < rows; row++) {
        for (unsigned s = 0; s < blocks; s++) {
            mp_limb_t *power = entries + (s * per_block + ((size_t)1 << row)) * width;
            if (previous == NULL) {
                enter_montgomery(&c, power, base, m, scratch + scratch_limbs - n);
            } else {
                mpn_copyi(power, previous, (mp_size_t)width);
                for (size_t i = 0; i < block_bits; i++)
                    mont_sqr(&c, power, power);
            }
            previous = power;
        }
    }

    /* The other entries: G[s][j] = G[s][j - top] * G[s][top], top = highest bit of j. */
    for (unsigned s = 0; s < blocks; s++) {
        mp_limb_t *block = entries + s * per_block * width;
        for (size_t j = 3; j < per_block; j++) {
            size_t top = (size_t)1 << (63 - __builtin_clzll((unsigned long long)j));
            if (top == j)
                continue;
            mont_mul(&c, block + j * width, block + (j - top) * width, block + top * width);
        }
    }
    mont_clear(&c, scratch, scratch_limbs, 0, NULL);
    return JBIGI_OK;
}

/* Bit pos of the limbs e[0..limbs), 0 past the end. */
static inline unsigned exponent_bit(const mp_limb_t *e, size_t limbs, size_t pos)
{
    size_t limb = pos / GMP_NUMB_BITS;
    return limb < limbs ? (unsigned)(e[limb] >> (pos % GMP_NUMB_BITS)) & 1 : 0;
}

/* The comb's column index for block s at offset t: one exponent bit per row. */
static inline size_t column(const struct comb *k, const mp_limb_t *e, size_t limbs, unsigned s, size_t t)
{
    size_t index = 0;
    size_t pos = (size_t)s * k->block_bits + t;
    for (unsigned row = 0; row < k->rows; row++, pos += k->row_bits)
        index |= (size_t)exponent_bit(e, limbs, pos) << row;
    return index;
}

/*
 * out (k->n limbs) = base^e mod m from the table, e read from e_src
 * (e_src_limbs limbs, no more than e_limbs) into a copy of e_limbs limbs.
 * No GMP allocation in here: the caller has its result limbs already, so
 * running out of memory cannot jump past scratch that holds secrets.
 */
static enum jbigi_status fb_run(const struct comb *k, mp_limb_t *out, const mp_limb_t *e_src, size_t e_src_limbs,
                                size_t e_limbs, int constant_time)
{
    struct mont c;
    size_t scratch_limbs;
    uint64_t *work;
    mp_limb_t *scratch = mont_init(&c, k, constant_time, 2 * k->width + e_limbs, &scratch_limbs, 2, &work);
    if (scratch == NULL)
        return JBIGI_NO_MEMORY;
    /* The accumulator and the selected entry: aligned for the IFMA engine. */
    mp_limb_t *acc = work != NULL ? work : scratch + scratch_limbs - e_limbs - 2 * k->width;
    mp_limb_t *selected = acc + k->width;
    mp_limb_t *e = scratch + scratch_limbs - e_limbs;
    if (e_src_limbs > 0)
        mpn_copyi(e, e_src, (mp_size_t)e_src_limbs);

    const size_t per_block = (size_t)1 << k->rows;
    if (constant_time) {
        mpn_copyi(acc, entry(k, 0, 0), (mp_size_t)k->width); /* one */
        for (size_t t = k->block_bits; t-- > 0;) {
            if (t + 1 != k->block_bits)
                mont_sqr(&c, acc, acc);
            for (unsigned s = k->blocks; s-- > 0;) {
                select_entry(&c, selected, entry(k, s, 0), k->width, per_block, column(k, e, e_limbs, s, t));
                mont_mul(&c, acc, acc, selected);
            }
        }
    } else {
        int started = 0;
        for (size_t t = k->block_bits; t-- > 0;) {
            if (started)
                mont_sqr(&c, acc, acc);
            for (unsigned s = k->blocks; s-- > 0;) {
                size_t index = column(k, e, e_limbs, s, t);
                if (index == 0)
                    continue;
                if (started)
                    mont_mul(&c, acc, acc, entry(k, s, index));
                else
                    mpn_copyi(acc, entry(k, s, index), (mp_size_t)k->width);
                started = 1;
            }
        }
        if (!started)
            mpn_copyi(acc, entry(k, 0, 0), (mp_size_t)k->width); /* exp = 0: one */
    }
    mont_leave(&c, out, acc);
    mont_clear(&c, scratch, scratch_limbs, 2, work);
    return JBIGI_OK;
}

/* Limbs of the table's reach: what the constant-time path reads of an exponent. */
static size_t reach_limbs(const struct comb *k)
{
    return (k->row_bits * k->rows + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS;
}

enum jbigi_status jbigi_fb_powm(mpz_t r, const mp_limb_t *table, size_t table_limbs, const mpz_t exp,
                                int constant_time)
{
    struct comb k;
    if (!read_comb(&k, table, table_limbs))
        return JBIGI_BAD_TABLE;
    if (mpz_sgn(exp) < 0)
        return JBIGI_EXPONENT_NEGATIVE;
    if (mpz_sizeinbase(exp, 2) > k.row_bits * k.rows)
        return JBIGI_EXPONENT_TOO_LONG;
    /* The constant-time path reads the exponent from a copy padded to the
     * table's full reach, so which limbs it touches never depends on it.
     * (The copy follows exp's limb count: callers holding the secret as
     * bytes read it at the reach themselves, jbigi_fb_powm_ct_limbs.) */
    const size_t e_limbs = constant_time ? reach_limbs(&k) : mpz_size(exp);
    /* r's limbs first: GMP's allocation may jump out (jbigi_run_guarded),
     * and must not while scratch holds secrets. */
    mp_limb_t *out = mpz_limbs_write(r, k.n);
    enum jbigi_status status = fb_run(&k, out, mpz_limbs_read(exp), mpz_size(exp), e_limbs, constant_time);
    mpz_limbs_finish(r, status == JBIGI_OK ? k.n : 0);
    return status;
}

int jbigi_fb_shape(const mp_limb_t *table, size_t table_limbs, size_t *modulus_limbs, size_t *exponent_limbs)
{
    struct comb k;
    if (!read_comb(&k, table, table_limbs))
        return 0;
    *modulus_limbs = (size_t)k.n;
    *exponent_limbs = reach_limbs(&k);
    return 1;
}

enum jbigi_status jbigi_fb_powm_ct_limbs(mp_limb_t *out, const mp_limb_t *table, size_t table_limbs,
                                         const mp_limb_t *e, size_t e_limbs)
{
    struct comb k;
    if (!read_comb(&k, table, table_limbs) || e_limbs != reach_limbs(&k))
        return JBIGI_BAD_TABLE;
    /* Bits above the reach, gathered without a branch on where they are. */
    const size_t reach = k.row_bits * k.rows;
    const unsigned spare_bits = (unsigned)(e_limbs * GMP_NUMB_BITS - reach);
    const mp_limb_t above = spare_bits == 0 ? 0 : e[e_limbs - 1] >> (GMP_NUMB_BITS - spare_bits);
    if (above != 0)
        return JBIGI_EXPONENT_TOO_LONG;
    return fb_run(&k, out, e, e_limbs, e_limbs, 1);
}
