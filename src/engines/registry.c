/*
 * registry.c - the engines, one row each, and the size rules that choose
 * one per call (engine.h).  Each bound was set from a measurement:
 * doc/measurements.md: "The engine table's bounds (2026-11-30 to 2026-12-03)"
 *
 *   one limb          small: variable time only
 *   2^255 - 19        p25519, the field by the modulus' form, where it is
 *                     built (64-bit limbs, a 128-bit product) and its
 *                     self-test passed; the one engine chosen by the
 *                     modulus' value (jbigi_engine_for_modulus)
 *   IFMA's sizes      avx512-ifma, where the CPU has it and its self-test
 *                     passed: from 576 bits (384 on AMD Zen 4) to 8192
 *   ADX's sizes       adx, where the CPU has BMI2 and ADX, its self-test
 *                     passed and IFMA did not take the size: 256 bits (four
 *                     limbs, all in registers); on AMD from 1024 bits at
 *                     limb counts that are a multiple of 8, or one less from
 *                     1472 bits (its eight-row reduction then runs with
 *                     little padding); on Intel from 2048 bits, multiples of
 *                     8 limbs only
 *   the rest          gmp; the base 2 from 512 bits (constant time: 1024)
 *                     on GMP's mpn functions under the base-2 driver
 *   short exponents   gmp's mpz_powm, in variable time and when no engine
 *                     is forced, for exponents of at most a few bits where
 *                     measured faster: four limbs on MULX/ADX, and on AMD
 *                     Zen 4 from 384 to 1023 bits on IFMA (the engine's
 *                     setup outweighs the few products)
 *
 * Fixed-base tables: new ones take the format of the engine chosen for
 * their size (the IFMA engine's from 1024 bits, where FixedBase's comb
 * shapes were measured for it), else GMP's; a table is multiplied by the
 * engine chosen now where that engine reads its format and takes its size,
 * else by the last row that reads the format (the GMP engine for GMP's).
 *
 * Forcing an engine (JBIGI_ENGINE, -Djbigi.engine) follows the rule stated
 * in engine.h, "Which engine runs"; the choice word below keeps it.
 */
#include "engines/engine.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_facts.h"
#include "platform/platform.h"

extern const jbigi_engine jbigi_small_engine;
extern const jbigi_engine jbigi_p25519_engine;
extern const jbigi_engine jbigi_ifma_engine;
extern const jbigi_engine jbigi_adx_engine;
extern const jbigi_engine jbigi_gmp_engine;

/* ---- the size rules ---- */

static int small_takes(mp_size_t n)
{
    return n == 1;
}

/* The special-form field takes 2^255 - 19 (its takes_modulus) wherever
 * it runs, ahead of the MULX/ADX engine's four-limb kernels and GMP.
 * doc/measurements.md: "The special-form field for 2^255 - 19 (AMD EPYC Zen 4, 2026-12-07)" */
static int p25519_takes(mp_size_t n)
{
    return n == 4;
}

/* IFMA from 9 limbs (576 bits), on AMD Zen 4 (cpu_facts.h) from 6 (384
 * bits): below, GMP is as fast or faster.
 * doc/measurements.md: "The IFMA engine's first size, Intel and AMD Zen 4 (2026-12-02)"
 * doc/measurements.md: "The IFMA engine from 384 bits on AMD Zen 4 (2026-12-07)" */
static int ifma_takes(mp_size_t n)
{
    return n >= (jbigi_cpu().amd_zen4 ? 6 : 9);
}

/* Tables in the IFMA format from 16 limbs (1024 bits). */
static int ifma_table_takes(mp_size_t n)
{
    return n >= 16;
}

/* MULX/ADX: four limbs on its register-only kernels (three, padded to
 * four, are left to GMP); on AMD multiples of 8 from 16 limbs and one less
 * from 23; on Intel, where GMP's own code runs on MULX and ADX, multiples
 * of 8 from 32 limbs. */
static int adx_takes(mp_size_t n)
{
    if (n == 4)
        return 1;
    if (jbigi_cpu().vendor == JBIGI_CPU_VENDOR_AMD)
        return n >= 16 && (n % 8 == 0 || (n % 8 == 7 && n >= 23));
    return n >= 32 && n % 8 == 0;
}

/* The engine works on n rounded up to 4 limbs, so R is GMP's (2^(64 n)),
 * and a table in GMP's format is its own, only when n is a multiple of 4. */
static int adx_table_takes(mp_size_t n)
{
    return n % 4 == 0;
}

/* The exponents, in bits, up to which GMP's mpz_powm is faster than the
 * row's variable-time power at n limbs: the engine's setup (a division,
 * R^2 mod m, the IFMA digits) then outweighs the few products; 0: none.
 * doc/measurements.md: "Short exponents to GMP (AMD EPYC Zen 4, 2026-12-07)" */
static size_t adx_short_bits(mp_size_t n)
{
    return n == 4 ? 4 : 0;
}

/* On Zen 4, by limb count from 6 (384 bits) to 15; a limb count not
 * measured takes the smaller of its neighbours'.  Elsewhere IFMA's short
 * exponents were not measured: none. */
static size_t ifma_short_bits(mp_size_t n)
{
    static const unsigned char zen4[16] = {0, 0, 0, 0, 0, 0, 20, 32, 10, 5, 3, 2, 2, 2, 2, 0};
    return jbigi_cpu().amd_zen4 && n >= 0 && n < 16 ? zen4[n] : 0;
}

static int always(mp_size_t n)
{
    (void)n;
    return 1;
}

struct row {
    const jbigi_engine *engine;
    /* The sizes it takes where it runs (engine->available()). */
    int (*takes)(mp_size_t n);
    /* The sizes whose fixed-base tables it multiplies (NULL: all). */
    int (*table_takes)(mp_size_t n);
    /* Kept when GMP is forced: GMP's own and the one-limb code. */
    int with_gmp;
    /* The base 2 on powm_base2 from these moduli bits (0: never). */
    size_t base2_bits, base2_bits_ct;
    /* The exponent bits up to which GMP takes a variable-time power of n
     * limbs from this row when it is chosen, not forced (NULL: never). */
    size_t (*short_to_gmp)(mp_size_t n);
};

/* In the order the table tries them. */
static const struct row rows[] = {
    {&jbigi_small_engine, small_takes, NULL, 1, 0, 0, NULL},
    {&jbigi_p25519_engine, p25519_takes, NULL, 0, 0, 0, NULL},
    {&jbigi_ifma_engine, ifma_takes, ifma_table_takes, 0, 0, 0, ifma_short_bits},
    {&jbigi_adx_engine, adx_takes, adx_table_takes, 0, 0, 0, adx_short_bits},
    {&jbigi_gmp_engine, always, NULL, 1, 512, 1024, NULL},
};
#define ROWS (sizeof rows / sizeof rows[0])

size_t jbigi_engine_count(void)
{
    return ROWS;
}

const jbigi_engine *jbigi_engine_at(size_t row)
{
    return row < ROWS ? rows[row].engine : NULL;
}

const jbigi_engine *jbigi_engine_gmp(void)
{
    return &jbigi_gmp_engine;
}

static const struct row *row_of(const jbigi_engine *engine)
{
    for (size_t i = 0; i < ROWS; i++)
        if (rows[i].engine == engine)
            return &rows[i];
    return NULL;
}

/* ---- names, the environment and forcing ---- */

int jbigi_engine_parse(const char *name)
{
    if (name == NULL || name[0] == '\0' || strcmp(name, "auto") == 0)
        return JBIGI_ENGINE_AUTO;
    for (size_t i = 0; i < ROWS; i++) {
        const jbigi_engine *e = rows[i].engine;
        if (e->forcible && (strcmp(name, e->name) == 0 || (e->alias != NULL && strcmp(name, e->alias) == 0)))
            return (int)i;
    }
    return JBIGI_ENGINE_UNKNOWN;
}

/* JBIGI_ENGINE_UNKNOWN - 1: not read yet.  Threads reading it at once
 * store the same value. */
#define ENVIRONMENT_NOT_READ (JBIGI_ENGINE_UNKNOWN - 1)

int jbigi_engine_environment(void)
{
    static atomic_int parsed = ENVIRONMENT_NOT_READ;
    int v = atomic_load_explicit(&parsed, memory_order_acquire);
    if (v == ENVIRONMENT_NOT_READ) {
        v = jbigi_engine_parse(getenv("JBIGI_ENGINE"));
        atomic_store_explicit(&parsed, v, memory_order_release);
    }
    return v;
}

/*
 * The rule (engine.h, "Which engine runs") in one word, so that a force and
 * the environment's wish are decided by one compare-and-swap: the forced
 * row plus one (0: auto), REFUSED when the engine last asked for could not
 * be used, DECIDED once anything was forced.  0: nothing asked for yet.
 * An explicit force stores its word whatever was there; the environment's
 * is stored only over 0, so it never overwrites an explicit force.
 */
#define CHOICE_ROW_MASK 0xff
#define CHOICE_REFUSED 0x100
#define CHOICE_DECIDED 0x200
static atomic_int choice;

_Static_assert(sizeof rows / sizeof rows[0] < CHOICE_ROW_MASK, "a row fits the choice word");

/* The word forcing a jbigi_engine_parse value gives.  available() runs the
 * engine's self-test if it has not run (waiting for it if another thread
 * runs it). */
static int choice_for(int row)
{
    const int usable = row == JBIGI_ENGINE_AUTO || (row >= 0 && rows[row].engine->available());
    return CHOICE_DECIDED | (usable ? row + 1 : CHOICE_REFUSED);
}

/* The forced row, or JBIGI_ENGINE_AUTO. */
static int forced_row(void)
{
    return (atomic_load_explicit(&choice, memory_order_acquire) & CHOICE_ROW_MASK) - 1;
}

static jbigi_once_flag first_choice = JBIGI_ONCE_INIT;
/* 1 once the first choice has run (environment_applied for the tests). */
static atomic_int first_choice_made;

/* The first engine choice (rule 2): JBIGI_ENGINE applied as a force unless
 * an explicit one came first or comes while its engine's self-test runs. */
static int apply_environment(void *unused)
{
    (void)unused;
    if (getenv("JBIGI_ENGINE") != NULL && atomic_load(&choice) == 0) {
        int nothing_yet = 0;
        atomic_compare_exchange_strong(&choice, &nothing_yet, choice_for(jbigi_engine_environment()));
    }
    atomic_store(&first_choice_made, 1);
    return 1;
}

static void make_first_choice(void)
{
    jbigi_once(&first_choice, apply_environment, NULL);
}

int jbigi_engine_force(const char *name)
{
    const int word = choice_for(jbigi_engine_parse(name));
    atomic_store(&choice, word);
    return word & CHOICE_REFUSED ? -1 : 0;
}

void jbigi_engine_force_gmp(int on)
{
    jbigi_engine_force(on ? jbigi_gmp_engine.name : "auto");
}

int jbigi_engine_environment_applied(void)
{
    return atomic_load(&first_choice_made) || (atomic_load(&choice) & CHOICE_DECIDED) != 0;
}

/* ---- the choice ---- */

/* Whether a row can take the n-limb modulus m (NULL: a size alone, which an
 * engine of one modulus form never takes) on this path. */
static int fits(const struct row *r, const mp_limb_t *m, mp_size_t n, int constant_time)
{
    const jbigi_engine *e = r->engine;
    return n <= e->max_limbs && (!constant_time || e->powm_sec != NULL) &&
           (e->takes_modulus == NULL || (m != NULL && e->takes_modulus(m, n)));
}

/* Whether row r is the choice for m on this path under the forced row f
 * (JBIGI_ENGINE_AUTO: none), rule 3 of engine.h.  available() last: it
 * runs the engine's self-test on first use. */
static int qualifies(const struct row *r, const mp_limb_t *m, mp_size_t n, int constant_time, int f)
{
    const int gmp_forced = f >= 0 && rows[f].engine == &jbigi_gmp_engine;
    return (!gmp_forced || r->with_gmp) && fits(r, m, n, constant_time) && r->takes(n) && r->engine->available();
}

/*
 * The first row that takes any modulus of n limbs (no takes_modulus) and
 * qualifies, ROWS for none, remembered per limb count and path.  Its answer
 * follows n, the path and the choice word alone, and stays for a word: the
 * CPU facts are read once and each self-test runs once.  So it is kept with
 * the word it was found under; a force changes the word, and the next call
 * looks again.  A remembered entry is (word << 8) | (row + 1), 0 for none:
 * one atomic word, so a reader never sees a row with another word.
 * doc/measurements.md: "The engine choice remembered per size (AMD EPYC Zen 4, 2026-12-07)"
 */
#define REMEMBERED_LIMBS 64
static atomic_int remembered[2][REMEMBERED_LIMBS + 1];

_Static_assert((CHOICE_DECIDED | CHOICE_REFUSED | CHOICE_ROW_MASK) < (1 << 22), "an entry fits an int");

static size_t first_size_row(mp_size_t n, int constant_time, int word)
{
    const int f = (word & CHOICE_ROW_MASK) - 1;
    atomic_int *entry = n >= 1 && n <= REMEMBERED_LIMBS ? &remembered[constant_time != 0][n] : NULL;
    if (entry != NULL) {
        const int seen = atomic_load_explicit(entry, memory_order_relaxed);
        if (seen != 0 && seen >> 8 == word)
            return (size_t)(seen & 0xff) - 1;
    }
    size_t i = 0;
    while (i < ROWS && (rows[i].engine->takes_modulus != NULL || !qualifies(&rows[i], NULL, n, constant_time, f)))
        i++;
    if (entry != NULL)
        atomic_store_explicit(entry, word << 8 | (int)(i + 1), memory_order_relaxed);
    return i;
}

static const jbigi_engine *choose(const mp_limb_t *m, mp_size_t n, int constant_time)
{
    make_first_choice();
    const int word = atomic_load_explicit(&choice, memory_order_acquire);
    const int f = (word & CHOICE_ROW_MASK) - 1;
    if (f >= 0 && rows[f].engine != &jbigi_gmp_engine && fits(&rows[f], m, n, constant_time))
        return rows[f].engine;
    /* The rows of one modulus form ahead of the size rule's answer, asked
     * each call (their test is the modulus' value); then that answer. */
    const size_t by_size = first_size_row(n, constant_time, word);
    for (size_t i = 0; i < by_size; i++)
        if (rows[i].engine->takes_modulus != NULL && qualifies(&rows[i], m, n, constant_time, f))
            return rows[i].engine;
    return by_size < ROWS ? rows[by_size].engine : &jbigi_gmp_engine;
}

const jbigi_engine *jbigi_engine_for(mp_size_t n, int constant_time)
{
    return choose(NULL, n, constant_time);
}

const jbigi_engine *jbigi_engine_for_modulus(const mp_limb_t *m, mp_size_t n, int constant_time)
{
    return choose(m, n, constant_time);
}

const jbigi_engine *jbigi_engine_for_power(const mp_limb_t *m, mp_size_t n, size_t ebits)
{
    const jbigi_engine *chosen = choose(m, n, 0);
    const struct row *r = row_of(chosen);
    if (r != NULL && r->short_to_gmp != NULL && forced_row() == JBIGI_ENGINE_AUTO && ebits <= r->short_to_gmp(n))
        return &jbigi_gmp_engine;
    return chosen;
}

int jbigi_engine_base2(const jbigi_engine *engine, mp_size_t n, int constant_time)
{
    const struct row *r = row_of(engine);
    const size_t from = r == NULL ? 0 : constant_time ? r->base2_bits_ct : r->base2_bits;
    return engine->powm_base2 != NULL && from > 0 && (size_t)n * GMP_NUMB_BITS >= from;
}

const char *jbigi_engine_name(void)
{
    make_first_choice();
    const int f = forced_row();
    if (f >= 0 && rows[f].engine->takes_modulus != NULL) /* forced, and it runs here */
        return rows[f].engine->name;
    return jbigi_engine_for(32, 0)->name;
}

/* ---- fixed-base tables ---- */

/* Whether a row multiplies tables of an n-limb modulus in its format. */
static int reads_table(const struct row *r, const jbigi_table_format *format, mp_size_t n)
{
    return r->engine->table_format == format && r->engine->table_ctx_init != NULL &&
           n <= format->max_limbs && (r->table_takes == NULL || r->table_takes(n));
}

const jbigi_table_format *jbigi_engine_table_format(mp_size_t n)
{
    const jbigi_engine *chosen = jbigi_engine_for(n, 0);
    const struct row *r = row_of(chosen);
    if (chosen->table_format != NULL && reads_table(r, chosen->table_format, n))
        return chosen->table_format;
    return jbigi_gmp_engine.table_format;
}

const jbigi_engine *jbigi_engine_for_table(const jbigi_table_format *format, mp_size_t n)
{
    if (format == NULL || n < 1 || n > format->max_limbs)
        return NULL;
    const jbigi_engine *chosen = jbigi_engine_for(n, 0);
    const struct row *r = row_of(chosen);
    if (r != NULL && reads_table(r, format, n))
        return chosen;
    for (size_t i = ROWS; i-- > 0;)
        if (rows[i].engine->table_format == format)
            return rows[i].engine->available() ? rows[i].engine : NULL;
    return NULL;
}

size_t jbigi_engine_table_format_count(void)
{
    size_t count = 0;
    while (jbigi_engine_table_format_at(count) != NULL)
        count++;
    return count;
}

const jbigi_table_format *jbigi_engine_table_format_at(size_t index)
{
    /* The distinct formats, in the rows' order. */
    size_t seen = 0;
    for (size_t i = 0; i < ROWS; i++) {
        const jbigi_table_format *f = rows[i].engine->table_format;
        if (f == NULL)
            continue;
        int first = 1;
        for (size_t j = 0; j < i; j++)
            if (rows[j].engine->table_format == f)
                first = 0;
        if (first && seen++ == index)
            return f;
    }
    return NULL;
}

const jbigi_table_format *jbigi_engine_table_format_of(mp_limb_t magic)
{
    for (size_t i = 0; i < ROWS; i++) {
        const jbigi_table_format *f = rows[i].engine->table_format;
        if (f != NULL && f->magic == magic)
            return f;
    }
    return NULL;
}

/* ---- what a user should know ---- */

void jbigi_engine_note(char *note, size_t size)
{
    make_first_choice();
    if (size == 0)
        return;
    note[0] = '\0';
    for (size_t i = 0; i < ROWS; i++) {
        if (!rows[i].engine->selftest_failed())
            continue;
        const size_t used = strlen(note);
        snprintf(note + used, size - used, "%s%s switched off: its known-answer self-test failed on this CPU",
                 used > 0 ? "; " : "", rows[i].engine->name);
    }
    if (note[0] == '\0' && (atomic_load(&choice) & CHOICE_REFUSED))
        snprintf(note, size, "%s", "the engine asked for is not known or this CPU cannot run it: chosen per call instead");
}
