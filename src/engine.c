/*
 * engine.c - the per-call engine choice, see engine.h: one table, filled
 * from measurements (doc/engines.md, "The engine table", has the figures
 * behind each bound).
 *
 *   one limb          small_powm.c (small_takes)
 *   IFMA's sizes      the AVX-512 IFMA engine, where the CPU has it and
 *                     its self-test passed: from 576 bits (512 on AMD Zen
 *                     4) to 8192 (ifma_takes)
 *   ADX's sizes       the MULX/ADX engine, where the CPU has BMI2 and ADX,
 *                     its self-test passed and IFMA did not take the size:
 *                     256 bits (four limbs, all in registers); on AMD from
 *                     1024 bits at limb counts that are a multiple of 8,
 *                     or one less from 1472 bits (its eight-row reduction
 *                     then runs with little padding); on Intel from 2048
 *                     bits, multiples of 8 limbs only (adx_takes)
 *   the rest          GMP; for the base 2 from 512 bits (constant time:
 *                     1024) GMP's mpn functions under the base-2 driver
 *                     (jbigi_engine_gmp_base2)
 */
#include "engine.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adx.h"
#include "ifma.h"

/* -1: auto; else the forced enum jbigi_engine.  Atomic, so that late
 * readers see it whole. */
static atomic_int forced = JBIGI_ENGINE_AUTO;
/* 1 when the last engine asked for could not be used. */
static atomic_int refused;

static int engine_runs_here(enum jbigi_engine engine)
{
    switch (engine) {
    case JBIGI_ENGINE_ADX: return jbigi_adx_available();
    case JBIGI_ENGINE_IFMA: return jbigi_ifma_available();
    default: return 1;
    }
}

int jbigi_engine_parse(const char *name)
{
    if (name == NULL || name[0] == '\0' || strcmp(name, "auto") == 0)
        return JBIGI_ENGINE_AUTO;
    if (strcmp(name, "gmp") == 0)
        return JBIGI_ENGINE_GMP;
    if (strcmp(name, "adx") == 0)
        return JBIGI_ENGINE_ADX;
    if (strcmp(name, "ifma") == 0 || strcmp(name, "avx512-ifma") == 0)
        return JBIGI_ENGINE_IFMA;
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

/* Forces engine (a jbigi_engine_parse value). */
static int force(int engine)
{
    const int usable =
        engine == JBIGI_ENGINE_AUTO || (engine >= 0 && engine_runs_here((enum jbigi_engine)engine));
    atomic_store(&forced, usable ? engine : JBIGI_ENGINE_AUTO);
    atomic_store(&refused, !usable);
    return usable ? 0 : -1;
}

/* 1 once JBIGI_ENGINE has been applied, or made moot by an explicit force. */
static atomic_int environment_applied;

/* JBIGI_ENGINE from the environment (the switch for C programs and the
 * tests), applied as a forced engine on the first engine choice: never at
 * load, so that no engine runs its self-test inside dlopen, before
 * JNI_OnLoad's CPU check.  A thread choosing while another applies it gets
 * the table's choice for that call, which gives the same results. */
static void apply_environment(void)
{
    if (atomic_load_explicit(&environment_applied, memory_order_acquire) ||
        atomic_exchange(&environment_applied, 1))
        return;
    if (getenv("JBIGI_ENGINE") != NULL)
        force(jbigi_engine_environment());
}

int jbigi_engine_force(const char *name)
{
    atomic_store(&environment_applied, 1); /* an explicit choice stands over JBIGI_ENGINE */
    return force(jbigi_engine_parse(name));
}

void jbigi_engine_force_gmp(int force)
{
    jbigi_engine_force(force ? "gmp" : "auto");
}

int jbigi_engine_environment_applied(void)
{
    return atomic_load(&environment_applied);
}

/* ---- the table: which engine takes an odd modulus of n limbs ---- */

/* One limb: small_powm.c. */
static int small_takes(mp_size_t n)
{
    return n == 1;
}

/* IFMA from 9 limbs (576 bits), on AMD Zen 4 from 8 (512 bits): below,
 * GMP is as fast or faster (test/bench/ifma_bench.c). */
#define IFMA_MIN_LIMBS 9
#define IFMA_MIN_LIMBS_ZEN4 8

static int ifma_takes(mp_size_t n)
{
    if (n > JBIGI_IFMA_MAX_LIMBS || !jbigi_ifma_available())
        return 0;
    return n >= (jbigi_ifma_zen4() ? IFMA_MIN_LIMBS_ZEN4 : IFMA_MIN_LIMBS);
}

/* MULX/ADX: the limb counts where it beats GMP (see above): four limbs on
 * its register-only kernels (three, padded to four, are left to GMP); on
 * AMD multiples of 8 from 16 limbs and one less from 23; on Intel, where
 * GMP's own code runs on MULX and ADX, multiples of 8 from 32 limbs. */
static int adx_takes(mp_size_t n)
{
    if (n > JBIGI_ADX_MAX_LIMBS || !jbigi_adx_available())
        return 0;
    if (n == 4)
        return 1;
    if (jbigi_adx_amd())
        return n >= 16 && (n % 8 == 0 || (n % 8 == 7 && n >= 23));
    return n >= 32 && n % 8 == 0;
}

/* GMP's engine raises 2 on GMP's mpn functions under the base-2 driver
 * (mpn_mont.c: a squaring and a doubling per bit, no products by the base)
 * rather than with mpz_powm or mpn_sec_powm, from 512 bits in variable time
 * and 1024 in constant time; the MULX/ADX engine's sizes stay its own for
 * the base 2 too. */
#define GMP_BASE2_MIN_BITS 512
#define GMP_BASE2_MIN_BITS_CT 1024

int jbigi_engine_gmp_base2(mp_size_t n, int constant_time)
{
    return (size_t)n * GMP_NUMB_BITS >= (constant_time ? GMP_BASE2_MIN_BITS_CT : GMP_BASE2_MIN_BITS);
}

enum jbigi_engine jbigi_engine_for(mp_size_t n)
{
    apply_environment();
    const int f = atomic_load_explicit(&forced, memory_order_relaxed);
    if (f == JBIGI_ENGINE_GMP)
        return small_takes(n) ? JBIGI_ENGINE_SMALL : JBIGI_ENGINE_GMP;
    if (f == JBIGI_ENGINE_ADX && n <= JBIGI_ADX_MAX_LIMBS)
        return JBIGI_ENGINE_ADX;
    if (f == JBIGI_ENGINE_IFMA && n <= JBIGI_IFMA_MAX_LIMBS)
        return JBIGI_ENGINE_IFMA;
    if (small_takes(n))
        return JBIGI_ENGINE_SMALL;
    if (ifma_takes(n))
        return JBIGI_ENGINE_IFMA;
    if (adx_takes(n))
        return JBIGI_ENGINE_ADX;
    return JBIGI_ENGINE_GMP;
}

int jbigi_engine_ifma_takes(mp_size_t n)
{
    return jbigi_engine_for(n) == JBIGI_ENGINE_IFMA;
}

const char *jbigi_engine_name(void)
{
    switch (jbigi_engine_for(32)) {
    case JBIGI_ENGINE_IFMA: return "avx512-ifma";
    case JBIGI_ENGINE_ADX: return "adx";
    default: return "gmp";
    }
}

/* Running state: the first caller claimed the test. */
#define SELFTEST_RUNNING (-2)

int jbigi_selftest_once(atomic_int *state, int (*test)(int corrupt), const char *fault_variable)
{
    int v = atomic_load_explicit(state, memory_order_acquire);
    if (v >= 0)
        return v;
    int expected = JBIGI_SELFTEST_UNKNOWN;
    if (v == SELFTEST_RUNNING ||
        !atomic_compare_exchange_strong_explicit(state, &expected, SELFTEST_RUNNING, memory_order_acq_rel,
                                                 memory_order_acquire))
        return expected >= 0 ? expected : JBIGI_SELFTEST_NOT_RUN; /* stored meanwhile, or running */
    const char *fault = getenv(fault_variable);
    const int rc = test(fault != NULL && strcmp(fault, "1") == 0);
    if (rc < 0) { /* out of memory: nothing known, a later caller asks again */
        atomic_store_explicit(state, JBIGI_SELFTEST_UNKNOWN, memory_order_release);
        return JBIGI_SELFTEST_NOT_RUN;
    }
    v = rc == 0 ? JBIGI_SELFTEST_PASSED : JBIGI_SELFTEST_FAILED;
    atomic_store_explicit(state, v, memory_order_release);
    return v;
}

const char *jbigi_engine_note(void)
{
    apply_environment();
    const int ifma_off = jbigi_ifma_selftest_result() == JBIGI_IFMA_SELFTEST_FAILED;
    const int adx_off = jbigi_adx_selftest_result() == JBIGI_SELFTEST_FAILED;
    if (ifma_off && adx_off)
        return "avx512-ifma switched off: its known-answer self-test failed on this CPU; "
               "adx switched off: its known-answer self-test failed on this CPU";
    if (ifma_off)
        return "avx512-ifma switched off: its known-answer self-test failed on this CPU";
    if (adx_off)
        return "adx switched off: its known-answer self-test failed on this CPU";
    if (atomic_load(&refused))
        return "the engine asked for is not known or this CPU cannot run it: chosen per call instead";
    return "";
}
