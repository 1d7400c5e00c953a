/*
 * fixedbase.c - fixed-base exponentiation: a Lim-Lee comb (comb_driver.h)
 * over a Montgomery engine (engines/engine.h): the table's format decides
 * which, through the registry.  This file keeps the table's layout and its
 * checks.
 *
 * The comb.  Pick rows h and blocks v; let b = ceil(ceil(E / h) / v) and
 * c = h * b (a block's span), so v * c >= E bits of exponent are covered.
 * Bit s*c + k*b + t of the exponent (block s < v, row k < h, offset t < b)
 * selects, for each block s, one of 2^h entries
 *
 *     G[s][j] = prod over bits k of j of g^(2^(s*c + k*b))
 *
 * and then
 *
 *     g^e = prod over t = b-1..0, squaring between:  prod over s of G[s][j(s, t)]
 *
 * which is b - 1 squarings and v * b multiplications.  For a 2048-bit
 * exponent with h = 8, v = 2 that is 127 squarings and 256 multiplications
 * where mpz_powm needs about 2048 squarings and 300 multiplications.
 *
 * Each block covers c consecutive exponent bits from the bottom, so an
 * exponent of L < E bits (L its limb count times 64: public) needs only
 * the blocks below L, in the top one the rows below L, and the offsets t
 * below L: a 256-bit exponent on a 2048-bit table of 6 x 6 (b = 57, c =
 * 342) costs one block, 56 squarings and 57 multiplications
 * (comb_driver.h).
 *
 * The table, in limbs:
 *
 *     [0] magic   [1] n (modulus limbs)   [2] h   [3] v   [4] b   [5] -m^-1 mod 2^64
 *     [6 .. 6+n)  the modulus
 *     then v * 2^h entries of n limbs, G[s][j] at 6 + n + (s * 2^h + j) * n,
 *     all in Montgomery form (x * 2^(64 n) mod m); G[s][0] is one.
 *
 * The entries' format is an engine's (jbigi_table_format): GMP's ("JBF2":
 * n limbs, R = 2^(64 n)), or the IFMA engine's ("JBI2": its 52-bit
 * digits, more words per entry).  New tables take the format the registry
 * gives their size (jbigi_engine_table_format, asked through
 * jbigi_fb_table_limbs: the caller allocates that size), and jbigi_fb_build
 * takes any format this process reads whose size the caller allocated, so
 * forcing another engine between the two calls changes nothing.  The
 * format alone decides the engine that multiplies the entries (the
 * registry's jbigi_engine_for_table); a format no engine here reads is a
 * bad table.  Every format is read by the same comb driver, which copies
 * each entry into the engine's own memory before multiplying (an engine's
 * operands may need an alignment a Java buffer does not have).
 *
 * Edge cases, handled by the caller or early here:
 *   m even or m <= 1      no Montgomery form; refused at build (use mpz_powm).
 *   exp < 0               refused: the caller inverts or uses mpz_powm.
 *   exp = 0               result 1 (m > 1).
 *   exp too long          refused with JBIGI_EXPONENT_TOO_LONG: use mpz_powm.
 *   base = 0 mod m        all entries but G[s][0] are 0: results 0 for exp > 0.
 *   malformed table       every header field, the length and the
 *                         modulus (on the copy made of it) are checked
 *                         before a limb of the entries is read.
 *
 * Memory Java can write.  A table lies in a direct buffer that Java code
 * can write while a call reads it.  The rule (table_memory.h): every field
 * of such memory is read once, into a local, and only the local is used.
 * Here: jbigi_fb_read reads each header word once (read_once: a volatile
 * load, which the compiler neither repeats nor reloads) into a
 * jbigi_fb_header, and copies the modulus once into memory of its own,
 * checked there; the callers pass that struct down instead of reading the
 * table again (the JNI layer sizes its result from it), and the engine is
 * prepared from the copy; the build writes the header from its own locals
 * and never reads it back.  The entries are values: whatever a writer puts there, the comb
 * reads them only within the shape of the struct and gets some number.
 */
#include "core/fixedbase.h"
#include "support/limb_inverse.h"

#include "support/scratch.h"
#include "engines/comb_driver.h"
#include "engines/engine.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { HDR_MAGIC, HDR_LIMBS, HDR_ROWS, HDR_BLOCKS, HDR_BLOCK_BITS, HDR_MINV, HDR_SIZE };

/* One read of a word Java can write (see the top of this file). */
static mp_limb_t read_once(const mp_limb_t *word)
{
    return *(const volatile mp_limb_t *)word;
}

static size_t limbs_of_table(size_t n, unsigned rows, unsigned blocks, const jbigi_table_format *format)
{
    if (n == 0 || rows < 1 || rows > JBIGI_FB_MAX_ROWS || blocks < 1 || blocks > JBIGI_FB_MAX_BLOCKS)
        return 0;
    if (format == NULL || n > (size_t)format->max_limbs)
        return 0;
    size_t width = format->entry_limbs((mp_size_t)n);
    size_t entries = (size_t)blocks << rows;
    if (width > (SIZE_MAX - HDR_SIZE) / (entries + 1))
        return 0;
    return HDR_SIZE + n + entries * width;
}

size_t jbigi_fb_table_limbs(size_t n, unsigned rows, unsigned blocks)
{
    if (n == 0 || n > (size_t)PTRDIFF_MAX)
        return 0;
    return limbs_of_table(n, rows, blocks, jbigi_engine_table_format((mp_size_t)n));
}

/* The format of that size for the shape that an engine here reads, or NULL. */
static const jbigi_table_format *format_of_size(size_t n, unsigned rows, unsigned blocks, size_t table_limbs)
{
    if (table_limbs == 0 || n == 0 || n > (size_t)PTRDIFF_MAX)
        return NULL;
    for (size_t i = 0; i < jbigi_engine_table_format_count(); i++) {
        const jbigi_table_format *f = jbigi_engine_table_format_at(i);
        if (table_limbs == limbs_of_table(n, rows, blocks, f) && jbigi_engine_for_table(f, (mp_size_t)n) != NULL)
            return f;
    }
    return NULL;
}

int jbigi_fb_table_limbs_fit(size_t n, unsigned rows, unsigned blocks, size_t table_limbs)
{
    return format_of_size(n, rows, blocks, table_limbs) != NULL;
}

/* The engine that multiplies a table's entries, with its context. */
struct engine {
    const jbigi_engine *engine;
    alignas(max_align_t) unsigned char ctx[JBIGI_ENGINE_CTX_BYTES];
};

/*
 * Prepares the engine that reads the format for the n-limb modulus m (a
 * private copy); secret: the values multiplied are (the modulus of a table
 * is public, so each engine takes its quicker preparation).  Returns 0, or
 * -1 when no engine reads the format or memory ran out (or the engine's
 * numbers do not have the table's width).  Release with engine_clear.
 */
static int engine_init(struct engine *g, const jbigi_table_format *format, const mp_limb_t *m, size_t n, int secret)
{
    g->engine = jbigi_engine_for_table(format, (mp_size_t)n);
    if (g->engine == NULL)
        return -1;
    return g->engine->table_ctx_init(g->ctx, m, (mp_size_t)n, secret);
}

static void engine_clear(struct engine *g)
{
    g->engine->table_ctx_clear(g->ctx);
}

/* The span of a block, c = rows * b: the exponent bits it covers. */
static size_t span_of(const jbigi_fb_header *h)
{
    return h->block_bits * h->rows;
}

/* The comb as the drivers see it, over entries.  Its entries are written
 * by the build only; the exponentiations read them. */
static jbigi_comb comb_of(const jbigi_fb_header *h, const mp_limb_t *entries)
{
    jbigi_comb shape = {
        .rows = h->rows,
        .blocks = h->blocks,
        .block_bits = h->block_bits,
        .span = span_of(h),
        .entries = (mp_limb_t *)entries,
    };
    return shape;
}

/* b for exponents as wide as an n-limb modulus: the largest a table has. */
static size_t max_block_bits(size_t n, unsigned rows, unsigned blocks)
{
    size_t row_bits = (n * GMP_NUMB_BITS + rows - 1) / rows;
    return (row_bits + blocks - 1) / blocks;
}

enum jbigi_status jbigi_fb_read(jbigi_fb_header *h, const mp_limb_t *table, size_t table_limbs)
{
    h->modulus = NULL;
    if (table == NULL || table_limbs < HDR_SIZE)
        return JBIGI_BAD_TABLE;
    /* Each header word once, into a local. */
    const mp_limb_t magic = read_once(&table[HDR_MAGIC]);
    const mp_limb_t n = read_once(&table[HDR_LIMBS]);
    const mp_limb_t rows = read_once(&table[HDR_ROWS]);
    const mp_limb_t blocks = read_once(&table[HDR_BLOCKS]);
    const mp_limb_t block_bits = read_once(&table[HDR_BLOCK_BITS]);
    const mp_limb_t minv = read_once(&table[HDR_MINV]);
    const jbigi_table_format *format = jbigi_engine_table_format_of(magic);
    if (format == NULL)
        return JBIGI_BAD_TABLE;
    if (rows < 1 || rows > JBIGI_FB_MAX_ROWS || blocks < 1 || blocks > JBIGI_FB_MAX_BLOCKS)
        return JBIGI_BAD_TABLE;
    if (n < 1 || n > table_limbs || limbs_of_table((size_t)n, (unsigned)rows, (unsigned)blocks, format) != table_limbs)
        return JBIGI_BAD_TABLE;
    /* A table is read only where an engine reads its format (it was made
     * here, or on a CPU like this one). */
    if (jbigi_engine_for_table(format, (mp_size_t)n) == NULL)
        return JBIGI_BAD_TABLE;
    /* The reach (block_bits * blocks * rows) is at most the modulus' width,
     * as jbigi_fb_build makes it: a forged width can neither overflow nor
     * make an exponentiation loop longer than one of its own size. */
    if (block_bits < 1 || block_bits > max_block_bits((size_t)n, (unsigned)rows, (unsigned)blocks))
        return JBIGI_BAD_TABLE;
    /* The modulus, once, into memory of its own; checked there. */
    mp_limb_t *m = jbigi_scratch_alloc((size_t)n);
    if (m == NULL)
        return JBIGI_NO_MEMORY;
    for (size_t i = 0; i < (size_t)n; i++)
        m[i] = read_once(&table[HDR_SIZE + i]);
    if ((m[0] & 1) == 0 || m[n - 1] == 0 || jbigi_negated_inverse(m[0]) != minv) {
        jbigi_scratch_free(m, (size_t)n);
        return JBIGI_BAD_TABLE;
    }
    *h = (jbigi_fb_header){
        .table = table,
        .table_limbs = table_limbs,
        .modulus_limbs = (size_t)n,
        .rows = (unsigned)rows,
        .blocks = (unsigned)blocks,
        .block_bits = (size_t)block_bits,
        .modulus = m,
        .format = format,
    };
    return JBIGI_OK;
}

void jbigi_fb_release(jbigi_fb_header *h)
{
    jbigi_scratch_free(h->modulus, h->modulus_limbs);
    h->modulus = NULL;
}

size_t jbigi_fb_reach_bits(const jbigi_fb_header *h)
{
    return span_of(h) * h->blocks;
}

size_t jbigi_fb_reach_limbs(const jbigi_fb_header *h)
{
    return (jbigi_fb_reach_bits(h) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS;
}

size_t jbigi_fb_max_exponent_bits(const mp_limb_t *table, size_t table_limbs)
{
    jbigi_fb_header h;
    if (jbigi_fb_read(&h, table, table_limbs) != JBIGI_OK)
        return 0;
    const size_t reach = jbigi_fb_reach_bits(&h);
    jbigi_fb_release(&h);
    return reach;
}

enum jbigi_status jbigi_fb_build(mp_limb_t *table, size_t table_limbs, const mpz_t base, const mpz_t m,
                                 unsigned rows, unsigned blocks, size_t max_exponent_bits)
{
    if (mpz_cmp_ui(m, 1) <= 0 || mpz_even_p(m))
        return JBIGI_MODULUS_TOO_SMALL;
    const mp_size_t n = (mp_size_t)mpz_size(m);
    /* The format is the one whose size the caller allocated (asked of
     * jbigi_fb_table_limbs): an engine's that runs here. */
    const jbigi_table_format *format = format_of_size((size_t)n, rows, blocks, table_limbs);
    if (format == NULL)
        return JBIGI_BAD_TABLE;
    if (max_exponent_bits < 1 || max_exponent_bits > (size_t)n * GMP_NUMB_BITS)
        return JBIGI_BAD_TABLE;

    /* The header from these locals, which alone the build goes on with:
     * the table is never read back (Java may write it meanwhile). */
    size_t row_bits = (max_exponent_bits + rows - 1) / rows;
    size_t block_bits = (row_bits + blocks - 1) / blocks;
    const mp_limb_t minv = jbigi_negated_inverse(mpz_limbs_read(m)[0]);
    table[HDR_MAGIC] = format->magic;
    table[HDR_LIMBS] = (mp_limb_t)n;
    table[HDR_ROWS] = rows;
    table[HDR_BLOCKS] = blocks;
    table[HDR_BLOCK_BITS] = (mp_limb_t)block_bits;
    table[HDR_MINV] = minv;
    mpn_copyi(table + HDR_SIZE, mpz_limbs_read(m), n);
    const jbigi_fb_header h = {
        .table = table,
        .table_limbs = table_limbs,
        .modulus_limbs = (size_t)n,
        .rows = rows,
        .blocks = blocks,
        .block_bits = block_bits,
        .modulus = NULL, /* the engine is prepared from m itself */
        .format = format,
    };

    /* The base mod m, as n limbs (GMP's allocation first, then ours). */
    mpz_t t;
    mpz_init(t);
    mpz_mod(t, base, m);
    mp_limb_t *reduced = jbigi_scratch_alloc((size_t)n);
    if (reduced != NULL && mpz_size(t) > 0)
        mpn_copyi(reduced, mpz_limbs_read(t), (mp_size_t)mpz_size(t));
    mpz_clear(t);
    if (reduced == NULL)
        return JBIGI_NO_MEMORY;
    struct engine g;
    int rc = JBIGI_DRIVER_NO_MEMORY;
    if (engine_init(&g, format, mpz_limbs_read(m), (size_t)n, 0) == 0) {
        const jbigi_comb shape = comb_of(&h, table + HDR_SIZE + n);
        rc = jbigi_drive_comb_build(g.engine->mont, g.ctx, &shape, reduced);
        engine_clear(&g);
    }
    jbigi_scratch_free(reduced, (size_t)n);
    return rc == JBIGI_DRIVER_OK ? JBIGI_OK : JBIGI_NO_MEMORY;
}

/*
 * out (the modulus' n limbs) = base^e mod m from the table, e of e_limbs
 * limbs, at most the reach's (zero above the reach).  The comb runs the
 * steps that e_limbs needs, whatever e's value (comb_driver.h).  No GMP
 * allocation in here: the caller has its result limbs already, so running
 * out of memory cannot jump past scratch that holds secrets.
 */
static enum jbigi_status fb_run(const jbigi_fb_header *h, mp_limb_t *out, const mp_limb_t *e, size_t e_limbs,
                                int constant_time)
{
    struct engine g;
    if (engine_init(&g, h->format, h->modulus, h->modulus_limbs, constant_time) != 0)
        return JBIGI_NO_MEMORY;
    const jbigi_comb shape = comb_of(h, h->table + HDR_SIZE + h->modulus_limbs);
    int rc = jbigi_drive_comb(g.engine->mont, g.ctx, &shape, out, e, (mp_size_t)e_limbs, constant_time);
    engine_clear(&g);
    return rc == JBIGI_DRIVER_OK ? JBIGI_OK : JBIGI_NO_MEMORY;
}

enum jbigi_status jbigi_fb_powm_read(mpz_t r, const jbigi_fb_header *h, const mpz_t exp, int constant_time)
{
    if (mpz_sgn(exp) < 0)
        return JBIGI_EXPONENT_NEGATIVE;
    if (mpz_sizeinbase(exp, 2) > jbigi_fb_reach_bits(h))
        return JBIGI_EXPONENT_TOO_LONG;
    /* The exponent at its own limb count, read in place (the comb's work
     * follows that count).  r's limbs first: GMP's allocation may jump out
     * (jbigi_run_guarded), and must not while scratch holds secrets. */
    const size_t n = h->modulus_limbs;
    mp_limb_t *out = mpz_limbs_write(r, (mp_size_t)n);
    enum jbigi_status status = fb_run(h, out, mpz_limbs_read(exp), mpz_size(exp), constant_time);
    mpz_limbs_finish(r, status == JBIGI_OK ? (mp_size_t)n : 0);
    return status;
}

enum jbigi_status jbigi_fb_powm(mpz_t r, const mp_limb_t *table, size_t table_limbs, const mpz_t exp,
                                int constant_time)
{
    jbigi_fb_header h;
    enum jbigi_status status = jbigi_fb_read(&h, table, table_limbs);
    if (status != JBIGI_OK)
        return status;
    status = jbigi_fb_powm_read(r, &h, exp, constant_time);
    jbigi_fb_release(&h);
    return status;
}

enum jbigi_status jbigi_fb_powm_ct_limbs(mp_limb_t *out, const jbigi_fb_header *h, const mp_limb_t *e,
                                         size_t e_limbs)
{
    if (e_limbs < 1 || e_limbs > jbigi_fb_reach_limbs(h))
        return JBIGI_EXPONENT_TOO_LONG;
    /* Bits at or above the reach, gathered without a branch on where they
     * are: only the top limb can hold them (e_limbs <= the reach's). */
    const size_t reach = jbigi_fb_reach_bits(h);
    const size_t width = e_limbs * GMP_NUMB_BITS;
    const unsigned spare_bits = width > reach ? (unsigned)(width - reach) : 0;
    const mp_limb_t above = spare_bits == 0 ? 0 : e[e_limbs - 1] >> (GMP_NUMB_BITS - spare_bits);
    if (above != 0)
        return JBIGI_EXPONENT_TOO_LONG;
    return fb_run(h, out, e, e_limbs, 1);
}
