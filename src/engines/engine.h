/*
 * engine.h - the engine interface: what raises to a power mod an odd
 * modulus.  An engine is one struct of operations (struct jbigi_engine); the
 * engines are rows of one table in registry.c, which also holds the size
 * rules that choose one per call.  The choice never changes a result.
 *
 * The core (core/arith.c, core/fixedbase.c) calls engines only through this
 * header; it includes no engine's own header.  An engine lives in its own
 * folder under engines/ and exports one struct jbigi_engine; adding one is
 * that folder plus a row in registry.c.
 *
 * Engines today: "gmp" (GMP's mpz_powm and mpn_sec_powm, and the base 2 on
 * GMP's mpn functions under the drivers: gmp/), "small" (one limb, variable
 * time: small/), "adx" (MULX/ADX: adx/), "avx512-ifma" (adx/'s sibling
 * ifma/), "p25519" (the one modulus 2^255 - 19 by its form: p25519/).
 */
#ifndef JBIGI_ENGINE_H
#define JBIGI_ENGINE_H

#include <stdatomic.h>
#include <stddef.h>

#include <gmp.h>

#include "engines/powm_driver.h"

/* What an engine's operations return. */
#define JBIGI_ENGINE_DONE 0
#define JBIGI_ENGINE_NO_MEMORY 1
#define JBIGI_ENGINE_UNSUPPORTED 2 /* did not run: the caller takes the GMP engine */

/* The largest context an engine keeps for a fixed-base table, in bytes:
 * the core keeps it on its stack (each engine checks its own fits). */
#define JBIGI_ENGINE_CTX_BYTES 256

/*
 * How an engine stores a fixed-base table's entries.  The table's magic
 * names the format, and the format, not the engine chosen now, decides
 * which engine multiplies a table's entries: engines that keep the same
 * numbers (fully reduced, R = 2^(64 n)) share a format.
 */
typedef struct jbigi_table_format {
    mp_limb_t magic;
    /* Limbs (or digit words) of one entry for an n-limb modulus. */
    size_t (*entry_limbs)(mp_size_t n);
    /* The largest modulus, in limbs, a table of this format takes. */
    mp_size_t max_limbs;
} jbigi_table_format;

typedef struct jbigi_engine {
    /* As JBIGI_ENGINE, -Djbigi.engine and Engine.name() spell it; alias is
     * a second spelling or NULL. */
    const char *name;
    const char *alias;
    /* 1 if a user may force it by name. */
    int forcible;
    /* The largest modulus, in limbs, it takes. */
    mp_size_t max_limbs;
    /* For an engine of one modulus form: 1 if it computes mod m (n limbs),
     * a public value, tested per call; NULL for an engine that takes any
     * odd modulus up to max_limbs.  Such an engine is chosen only by
     * jbigi_engine_for_modulus, never for a size alone. */
    int (*takes_modulus)(const mp_limb_t *m, mp_size_t n);
    /* 1 when this CPU runs it and its self-test (run at most once per
     * process, on the first ask) passed. */
    int (*available)(void);
    /* 1 when its self-test failed here: the engine is off for the process. */
    int (*selftest_failed)(void);

    /*
     * r = base^exp mod m in variable time, for odd m of at most max_limbs
     * limbs and exp > 0; base any (the engine reduces it, in variable time:
     * the base is public).  r may alias base.  JBIGI_ENGINE_UNSUPPORTED:
     * nothing was written.
     */
    int (*powm)(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m);
    /*
     * The constant-time power: rp (n limbs) = b^e mod m, b in (0, m) of bn
     * limbs, e of ceil(ebits / 64) limbs below 2^ebits (ebits >= 1), any
     * value, m odd of n limbs.  Time and memory accesses follow n and ebits
     * only (ebits: 64 times the exponent's limb count, or a bound the
     * caller states).  No GMP allocation (scratch from support/scratch.h), so
     * running out of memory cannot jump past a secret.  NULL: the engine
     * has none (the registry never chooses it then).
     */
    int (*powm_sec)(mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn, const mp_limb_t *e, size_t ebits,
                    const mp_limb_t *m, mp_size_t n);
    /*
     * rp (n limbs) = 2^e mod m without a table and without products by the
     * base: a squaring and a doubling per bit, e of en limbs; in variable
     * time when fixed_bits is 0, else in constant time over the low
     * fixed_bits bits (e below 2^fixed_bits).  NULL when the engine has
     * none, or when its powm and powm_sec choose it themselves; the
     * registry says at which sizes it is used (jbigi_engine_base2).
     */
    int (*powm_base2)(mp_limb_t *rp, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m, mp_size_t n,
                      size_t fixed_bits);

    /* Fixed-base tables: the format of its entries, or NULL for none. */
    const jbigi_table_format *table_format;
    /* Prepares ctx (JBIGI_ENGINE_CTX_BYTES, max_align_t aligned) for a
     * table's public modulus; secret: the values multiplied are secret.
     * 0, or -1 when out of memory.  table_ctx_clear wipes and frees. */
    int (*table_ctx_init)(void *ctx, const mp_limb_t *m, mp_size_t n, int secret);
    void (*table_ctx_clear)(void *ctx);
    /* The drivers' operations on such a context. */
    const jbigi_mont_ops *mont;
} jbigi_engine;

/* ---- the registry (registry.c) ---- */

/* What jbigi_engine_parse gives besides a row: no engine named ("auto",
 * "" or NULL: the table chooses), and a name it does not know. */
#define JBIGI_ENGINE_AUTO (-1)
#define JBIGI_ENGINE_UNKNOWN (-2)

/* The rows, in the order the table tries them. */
size_t jbigi_engine_count(void);
const jbigi_engine *jbigi_engine_at(size_t row);

/*
 * A name as JBIGI_ENGINE and -Djbigi.engine spell it (an engine's name or
 * alias, if it may be forced) gives its row; "auto", "" and NULL give
 * JBIGI_ENGINE_AUTO; anything else JBIGI_ENGINE_UNKNOWN.  The one parser
 * of engine names.
 */
int jbigi_engine_parse(const char *name);

/*
 * Which engine runs: the rule, stated here once (registry.c keeps it).
 *
 *   1. An explicit force (jbigi_engine_force: Java's Engine.select() for
 *      -Djbigi.engine as NativeBigInteger initialises, after JNI_OnLoad;
 *      the tests) wins, whenever it comes: before the first engine choice,
 *      while it runs, or after.  The last explicit force stands.
 *   2. JBIGI_ENGINE from the environment (for C programs and the tests) is
 *      applied as a force by the first engine choice, once per process
 *      (jbigi_once; never at load, so no self-test runs inside dlopen), and
 *      only if no explicit force came first or while it was applied.
 *   3. Otherwise the size table chooses per call (jbigi_engine_for).
 *
 * A force, explicit or from the environment, takes an engine only where
 * it can run: what the CPU has (each engine's own CPU check, which holds
 * CPU facts only and never reads the environment) and its self-test,
 * which a force waits for when another thread is running it.  An engine
 * that cannot run, or an unknown name, leaves the choice on auto and the
 * note says so.  Choices made while the first choice runs wait for it.
 */

/* JBIGI_ENGINE from the environment, parsed, read once per process. */
int jbigi_engine_environment(void);

/*
 * Forces an engine by name for every call from now on ("gmp", "adx",
 * "ifma", "p25519": that one for its modulus only; "auto" or NULL lets the table choose again): 0, or -1 when the
 * name is unknown or this CPU cannot run that engine (the choice is then
 * on auto and jbigi_engine_note says why).  Rule 1 above.
 */
int jbigi_engine_force(const char *name);
/* Forces GMP (1) or goes back to auto (0): the older switch. */
void jbigi_engine_force_gmp(int force);
/* 1 once the first engine choice has applied JBIGI_ENGINE (or found it
 * unset or made moot by an explicit force): for the tests, which check
 * that nothing happens before the first choice. */
int jbigi_engine_environment_applied(void);

/*
 * The engine for an odd modulus of n limbs now: in variable time any row;
 * in constant time one with a powm_sec.  A forced engine is taken where
 * its size allows; forcing GMP keeps the one-limb code.
 */
const jbigi_engine *jbigi_engine_for(mp_size_t n, int constant_time);
/* The same for the modulus m itself (n limbs, odd): an engine of one
 * modulus form (takes_modulus) is chosen here, where its form matches, and
 * forced where its form matches; otherwise jbigi_engine_for(n, ...). */
const jbigi_engine *jbigi_engine_for_modulus(const mp_limb_t *m, mp_size_t n, int constant_time);
/* The engine for a variable-time power mod m with an exponent of ebits
 * bits: jbigi_engine_for_modulus's, unless no engine is forced and the
 * exponent is short enough that GMP's mpz_powm is the faster there. */
const jbigi_engine *jbigi_engine_for_power(const mp_limb_t *m, mp_size_t n, size_t ebits);
/* The engine every other falls back to: GMP's, which takes any modulus
 * (even ones too, in variable time), any size. */
const jbigi_engine *jbigi_engine_gmp(void);
/* 1 if engine raises the base 2 on its powm_base2 for n limbs. */
int jbigi_engine_base2(const jbigi_engine *engine, mp_size_t n, int constant_time);

/* The format new fixed-base tables for an n-limb modulus take, and the
 * engine that multiplies a table of a format for an n-limb modulus now
 * (NULL: no engine here reads that format). */
const jbigi_table_format *jbigi_engine_table_format(mp_size_t n);
const jbigi_engine *jbigi_engine_for_table(const jbigi_table_format *format, mp_size_t n);
/* The formats this process can read, and the format of a magic (or NULL). */
size_t jbigi_engine_table_format_count(void);
const jbigi_table_format *jbigi_engine_table_format_at(size_t i);
const jbigi_table_format *jbigi_engine_table_format_of(mp_limb_t magic);

/* The engine's name for 2048-bit moduli here: "avx512-ifma", "adx" or "gmp";
 * an engine of one modulus form (p25519) when it is forced and runs here,
 * so that the status names what was asked for. */
const char *jbigi_engine_name(void);

/* What a user should know about the engines beyond the name: why an engine
 * this CPU has, or one that was asked for, is not used; "" when nothing.
 * Written into note (size bytes, cut short to fit, always terminated). */
#define JBIGI_ENGINE_NOTE_BYTES 256
void jbigi_engine_note(char *note, size_t size);

/* ---- for the engines ---- */

/*
 * Engines' known-answer self-tests, each run at most once per process.  A
 * state starts at JBIGI_SELFTEST_UNKNOWN; jbigi_selftest_once(&state, test,
 * fault_variable) returns the outcome: the first caller runs test (with
 * corrupt = 1 when the environment variable fault_variable is "1") and
 * stores PASSED or FAILED for the life of the process; a caller arriving
 * while it runs waits for that outcome (so a force never finds an engine
 * "unusable" only because its test was running).  test returns 0 when
 * every result matched, > 0 for a mismatch, < 0 when memory ran out: then
 * nothing is stored, that caller gets NOT_RUN, and the next caller (a
 * waiter included) runs it again.  test must return, never leave by a
 * jump (jbigi_run_guarded's, from GMP's allocator): waiters would wait for
 * good; the self-tests take their memory from calloc for that reason.
 */
#define JBIGI_SELFTEST_UNKNOWN (-1)
#define JBIGI_SELFTEST_NOT_RUN 0 /* the CPU cannot run the engine, or the test ran out of memory */
#define JBIGI_SELFTEST_PASSED 1
#define JBIGI_SELFTEST_FAILED 2 /* the engine is off for the process */
int jbigi_selftest_once(atomic_int *state, int (*test)(int corrupt), const char *fault_variable);

/* An engine's power on limbs: r (n limbs) = b^e mod m for b (n limbs) < m,
 * e of en limbs; a JBIGI_ENGINE_* code. */
typedef int (*jbigi_limb_powm)(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                               const mp_limb_t *m, mp_size_t n);

/* b (zeroed, as many limbs as m) = base mod m, reduced in variable time:
 * the base of a variable-time power is public. */
void jbigi_engine_reduce_base(mp_limb_t *b, const mpz_t base, const mpz_t m);

/*
 * The mpz side of an engine's variable-time power, written once: reduces
 * the base into n limbs of scratch (variable time, public), runs fn, and
 * writes r only when fn ran.  r may alias base.  For odd m, exp > 0.
 */
int jbigi_engine_run_powm(jbigi_limb_powm fn, mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m);

/* An engine's constant-time power on limbs: the same over the low ebits
 * bits of e (ceil(ebits / 64) limbs, below 2^ebits). */
typedef int (*jbigi_limb_powm_sec)(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                                   const mp_limb_t *m, mp_size_t n);

/* The constant-time side, written once: b (bn limbs) padded to n limbs of
 * scratch, then fn; the padding is wiped. */
int jbigi_engine_run_powm_sec(jbigi_limb_powm_sec fn, mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn,
                              const mp_limb_t *e, size_t ebits, const mp_limb_t *m, mp_size_t n);

#endif
