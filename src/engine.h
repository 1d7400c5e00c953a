/*
 * engine.h - which code raises to a power mod an odd modulus: GMP, the
 * one- and two-limb code (small_powm.h), the MULX/ADX engine (adx.h) or the
 * AVX-512 IFMA engine (ifma.h).  The choice is per call, from the table in
 * engine.c, and never changes a result.
 */
#ifndef JBIGI_ENGINE_H
#define JBIGI_ENGINE_H

#include <stdatomic.h>

#include <gmp.h>

enum jbigi_engine {
    JBIGI_ENGINE_GMP,   /* mpz_powm, mpn_sec_powm */
    JBIGI_ENGINE_SMALL, /* small_powm.c: one limb, variable time */
    JBIGI_ENGINE_ADX,   /* adx.h */
    JBIGI_ENGINE_IFMA   /* ifma.h */
};

/* What jbigi_engine_parse gives besides an engine: no engine named ("auto",
 * "" or NULL: the table chooses), and a name it does not know. */
#define JBIGI_ENGINE_AUTO (-1)
#define JBIGI_ENGINE_UNKNOWN (-2)

/*
 * An engine's name as JBIGI_ENGINE and -Djbigi.engine spell it: "gmp",
 * "adx", "ifma" (or "avx512-ifma") give the enum jbigi_engine; "auto", ""
 * and NULL give JBIGI_ENGINE_AUTO; anything else JBIGI_ENGINE_UNKNOWN.  The
 * one parser of engine names.
 */
int jbigi_engine_parse(const char *name);

/*
 * JBIGI_ENGINE from the environment, parsed (jbigi_engine_parse), read once
 * per process.  The engines' CPU checks ask it whether GMP is forced
 * (JBIGI_ENGINE=gmp switches them off); engine.c applies it as a forced
 * engine on the first engine choice.
 */
int jbigi_engine_environment(void);

/*
 * Forces an engine by name for every call from now on: "gmp", "adx" or
 * "ifma"; "auto" (or NULL) lets the table choose again.  An engine this CPU
 * cannot run, or an unknown name, leaves the choice on auto and returns -1
 * (jbigi_engine_note() then says why); 0 otherwise.  Java's Engine.select()
 * calls it for -Djbigi.engine as NativeBigInteger initialises, after
 * JNI_OnLoad.  JBIGI_ENGINE in the environment (for C programs) is applied
 * the same way on the first engine choice (jbigi_engine_for,
 * jbigi_engine_name, jbigi_engine_note), never at load, unless a force came
 * first: an explicit choice stands over the environment's.
 */
int jbigi_engine_force(const char *name);

/* 1 once JBIGI_ENGINE has been applied (or made moot by jbigi_engine_force):
 * for the tests, which check that nothing happens before the first choice. */
int jbigi_engine_environment_applied(void);

/* Forces GMP (1) or goes back to auto (0): the older switch. */
void jbigi_engine_force_gmp(int force);

/* The engine that raises to a power mod an odd modulus of n limbs now. */
enum jbigi_engine jbigi_engine_for(mp_size_t n);


/* 1 if, where the choice is GMP, the base 2 is raised on GMP's mpn
 * functions under the drivers' base-2 path (mpn_mont.h) for an odd modulus
 * of n limbs, in constant time or not. */
int jbigi_engine_gmp_base2(mp_size_t n, int constant_time);

/* 1 if an odd modulus of n limbs goes to the IFMA engine (fixed-base
 * tables take its format then). */
int jbigi_engine_ifma_takes(mp_size_t n);

/* The engine's name for 2048-bit moduli here: "avx512-ifma", "adx" or "gmp". */
const char *jbigi_engine_name(void);

/*
 * Engines' known-answer self-tests (ifma_selftest.c, adx_selftest.c), each
 * run at most once per process.  A state starts at JBIGI_SELFTEST_UNKNOWN;
 * jbigi_selftest_once(&state, test, fault_variable) returns the outcome:
 * the first caller runs test (with corrupt = 1 when the environment variable
 * fault_variable is "1") and stores PASSED or FAILED for the life of the
 * process; a caller arriving while it runs gets NOT_RUN for that call (the
 * engine is not used for it) and neither waits nor runs it again.  test
 * returns 0 when every result matched, > 0 for a mismatch, < 0 when memory
 * ran out: then nothing is stored and a later caller runs it again.
 */
#define JBIGI_SELFTEST_UNKNOWN (-1)
#define JBIGI_SELFTEST_NOT_RUN 0 /* the CPU cannot run the engine, or the test is running or ran out of memory */
#define JBIGI_SELFTEST_PASSED 1
#define JBIGI_SELFTEST_FAILED 2 /* the engine is off for the process */
int jbigi_selftest_once(atomic_int *state, int (*test)(int corrupt), const char *fault_variable);

/* What a user should know about the engines beyond the name: why an engine
 * this CPU has, or one that was asked for, is not used; "" when nothing. */
const char *jbigi_engine_note(void);

#endif
