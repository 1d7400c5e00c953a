/*
 * test_engine.c - the engine switch (engine.h): the one parser of engine
 * names, and JBIGI_ENGINE as the per-call choice reads it (the engines' CPU
 * checks never do); the self-tests run once (jbigi_selftest_once), whichever
 * threads ask at once, and a failure (injected by JBIGI_ADX_SELFTEST_FAULT
 * or JBIGI_IFMA_SELFTEST_FAULT) switches its engine off for the process,
 * with a note; and nothing of this runs at load (the self-tests are
 * intercepted with --wrap to see when they run).  The program runs itself again with the variables set, so
 * that they are seen as a fresh process sees them.
 */
#define _DEFAULT_SOURCE /* setenv */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engines/adx/adx.h"
#include "check.h"
#include "cpu/cpu_check.h"
#include "engines/engine.h"
#include "engines/ifma/ifma.h"

/* The row a name parses to, by the engine's name: NULL for auto and unknown. */
static const char *parsed_name(const char *name)
{
    const int row = jbigi_engine_parse(name);
    return row >= 0 ? jbigi_engine_at((size_t)row)->name : NULL;
}

/* Whether the choice for n limbs in variable time is the engine named. */
static int chosen(mp_size_t n, const char *name)
{
    return strcmp(jbigi_engine_for(n, 0)->name, name) == 0;
}

static void check_parse(void)
{
    static const struct {
        const char *name;
        int outcome;        /* JBIGI_ENGINE_AUTO, _UNKNOWN, or 0 for a row */
        const char *engine; /* the row's engine */
    } cases[] = {
        {NULL, JBIGI_ENGINE_AUTO, NULL},       {"", JBIGI_ENGINE_AUTO, NULL},
        {"auto", JBIGI_ENGINE_AUTO, NULL},     {"gmp", 0, "gmp"},
        {"adx", 0, "adx"},                     {"ifma", 0, "avx512-ifma"},
        {"avx512-ifma", 0, "avx512-ifma"},     {"GMP", JBIGI_ENGINE_UNKNOWN, NULL},
        {"gmp ", JBIGI_ENGINE_UNKNOWN, NULL},  {"small", JBIGI_ENGINE_UNKNOWN, NULL},
        {"p25519", 0, "p25519"},               {"p25519 ", JBIGI_ENGINE_UNKNOWN, NULL},
        {"ifma2", JBIGI_ENGINE_UNKNOWN, NULL}, {"x", JBIGI_ENGINE_UNKNOWN, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *label = cases[i].name ? cases[i].name : "(null)";
        const int got = jbigi_engine_parse(cases[i].name);
        if (cases[i].engine == NULL)
            CHECK(got == cases[i].outcome, "parse(\"%s\") = %d, want %d", label, got, cases[i].outcome);
        else
            CHECK(got >= 0 && strcmp(parsed_name(cases[i].name), cases[i].engine) == 0,
                  "parse(\"%s\") = %d, not the row of %s", label, got, cases[i].engine);
    }
    /* Every row has a distinct name, and the GMP engine is one of them. */
    int gmp_rows = 0;
    for (size_t i = 0; i < jbigi_engine_count(); i++) {
        gmp_rows += jbigi_engine_at(i) == jbigi_engine_gmp();
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(jbigi_engine_at(i)->name, jbigi_engine_at(j)->name) != 0, "two rows named %s",
                  jbigi_engine_at(i)->name);
    }
    CHECK(gmp_rows == 1, "the GMP engine is in %d rows", gmp_rows);
    CHECK(jbigi_engine_at(jbigi_engine_count()) == NULL, "a row past the table");
}

/* ---- nothing at load ---- */

/* Set first thing in main: whatever ran before ran at load (in a
 * constructor, as it would inside dlopen, before JNI_OnLoad). */
static volatile int in_main;
static volatile int selftest_before_main;

int __real_jbigi_ifma_selftest(int corrupt);
int __real_jbigi_adx_selftest(int corrupt);
int __wrap_jbigi_ifma_selftest(int corrupt);
int __wrap_jbigi_adx_selftest(int corrupt);

int __wrap_jbigi_ifma_selftest(int corrupt)
{
    if (!in_main)
        selftest_before_main = 1;
    return __real_jbigi_ifma_selftest(corrupt);
}

int __wrap_jbigi_adx_selftest(int corrupt)
{
    if (!in_main)
        selftest_before_main = 1;
    return __real_jbigi_adx_selftest(corrupt);
}

/* In a child: no self-test ran and JBIGI_ENGINE was not applied before
 * main, whatever it names; the first choice applies it. */
static void check_nothing_at_load(void)
{
    const char *env = getenv("JBIGI_ENGINE");
    CHECK(!selftest_before_main, "JBIGI_ENGINE=%s: a self-test ran at load", env ? env : "(unset)");
    CHECK(!jbigi_engine_environment_applied(), "JBIGI_ENGINE=%s: applied at load", env ? env : "(unset)");
    (void)jbigi_engine_for(32, 0);
    CHECK(jbigi_engine_environment_applied(), "JBIGI_ENGINE=%s: not applied by the first choice",
          env ? env : "(unset)");
}

/* ---- jbigi_selftest_once ---- */

static atomic_int runs;
static atomic_int release_test; /* the test returns once this is set */
static int verdict;             /* what the test returns */

static int counting_test(int corrupt)
{
    atomic_fetch_add(&runs, 1);
    while (!atomic_load(&release_test))
        ;
    return corrupt ? 1 : verdict;
}

#define THREADS 8
static atomic_int state_under_test;
static int seen[THREADS];

static void *ask(void *arg)
{
    int *slot = arg;
    *slot = jbigi_selftest_once(&state_under_test, counting_test, "JBIGI_TEST_ENGINE_NO_SUCH_VARIABLE");
    return NULL;
}

/* THREADS threads ask at once while the test runs (it waits for release):
 * it runs once, and the others wait for its outcome; every caller after
 * gets the one stored outcome.  A test out of memory stores nothing: each
 * caller (a waiter too) runs it again and gets NOT_RUN. */
static void check_once(int outcome)
{
    atomic_store(&state_under_test, JBIGI_SELFTEST_UNKNOWN);
    atomic_store(&runs, 0);
    atomic_store(&release_test, 0);
    verdict = outcome;
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, ask, &seen[t]) == 0, "thread %d not started", t);
    while (atomic_load(&runs) == 0)
        ;
    atomic_store(&release_test, 1);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    const int want = outcome < 0 ? JBIGI_SELFTEST_NOT_RUN : outcome == 0 ? JBIGI_SELFTEST_PASSED : JBIGI_SELFTEST_FAILED;
    int ran = 0;
    for (int t = 0; t < THREADS; t++) {
        CHECK(seen[t] == want, "outcome %d: a caller saw %d", outcome, seen[t]);
        ran += seen[t] == want;
    }
    if (outcome >= 0) {
        CHECK(atomic_load(&runs) == 1, "outcome %d: the test ran %d times", outcome, atomic_load(&runs));
        CHECK(ran == THREADS, "outcome %d: %d callers saw it", outcome, ran);
        CHECK(ask(&seen[0]) == NULL && seen[0] == want, "outcome %d: a later caller saw %d", outcome, seen[0]);
        CHECK(atomic_load(&runs) == 1, "outcome %d: the test ran again", outcome);
    } else {
        /* Out of memory: nothing stored; every caller ran it once. */
        CHECK(atomic_load(&runs) == THREADS, "out of memory: the test ran %d times for %d callers",
              atomic_load(&runs), THREADS);
        const int before = atomic_load(&runs);
        ask(&seen[0]);
        CHECK(atomic_load(&runs) == before + 1, "out of memory: the test did not run again");
        CHECK(seen[0] == JBIGI_SELFTEST_NOT_RUN, "out of memory: %d", seen[0]);
    }
}

/* The fault variable: "1" corrupts, another value does not. */
static void check_fault_variable(void)
{
    atomic_store(&release_test, 1);
    verdict = 0;
    atomic_store(&state_under_test, JBIGI_SELFTEST_UNKNOWN);
    setenv("JBIGI_TEST_ENGINE_FAULT", "1", 1);
    CHECK(jbigi_selftest_once(&state_under_test, counting_test, "JBIGI_TEST_ENGINE_FAULT") == JBIGI_SELFTEST_FAILED,
          "the fault variable did not fail the test");
    CHECK(jbigi_selftest_once(&state_under_test, counting_test, "JBIGI_NO_SUCH") == JBIGI_SELFTEST_FAILED,
          "a failure did not stand");
    atomic_store(&state_under_test, JBIGI_SELFTEST_UNKNOWN);
    setenv("JBIGI_TEST_ENGINE_FAULT", "0", 1);
    CHECK(jbigi_selftest_once(&state_under_test, counting_test, "JBIGI_TEST_ENGINE_FAULT") == JBIGI_SELFTEST_PASSED,
          "JBIGI_..._FAULT=0 failed the test");
    unsetenv("JBIGI_TEST_ENGINE_FAULT");
}

/* In a child with JBIGI_ADX_SELFTEST_FAULT=1 or JBIGI_IFMA_SELFTEST_FAULT=1:
 * that engine is off, says so, and cannot be forced. */
static void check_injected_fault(void)
{
    char note[JBIGI_ENGINE_NOTE_BYTES];
    if (getenv("JBIGI_ADX_SELFTEST_FAULT") != NULL) {
        CHECK(!jbigi_adx_available(), "a failed ADX self-test left the engine available");
        if (jbigi_adx_cpu()) {
            CHECK(jbigi_adx_selftest_result() == JBIGI_SELFTEST_FAILED, "ADX self-test: %d, want FAILED",
                  jbigi_adx_selftest_result());
            jbigi_engine_note(note, sizeof note);
            CHECK(strstr(note, "adx switched off: its known-answer self-test failed") != NULL,
                  "no note of the ADX self-test: \"%s\"", note);
        } else {
            SKIP(2, "this CPU has no BMI2 and ADX: no ADX self-test to fail");
        }
        for (mp_size_t n = 1; n <= JBIGI_ADX_MAX_LIMBS; n++)
            CHECK(!chosen(n, "adx"), "n=%ld went to a failed ADX engine", (long)n);
        CHECK(jbigi_engine_force("adx") != 0, "a failed ADX engine could be forced");
        CHECK(!chosen(32, "adx"), "forced onto a failed ADX engine");
        jbigi_engine_force("auto");
    }
    if (getenv("JBIGI_IFMA_SELFTEST_FAULT") != NULL) {
        CHECK(!jbigi_ifma_available(), "a failed IFMA self-test left the engine available");
        jbigi_engine_note(note, sizeof note);
        if (jbigi_ifma_cpu())
            CHECK(strstr(note, "avx512-ifma switched off: its known-answer self-test failed") != NULL,
                  "no note of the IFMA self-test: \"%s\"", note);
        for (mp_size_t n = 1; n <= JBIGI_IFMA_MAX_LIMBS; n++)
            CHECK(!chosen(n, "avx512-ifma"), "n=%ld went to a failed IFMA engine", (long)n);
    }
    if (getenv("JBIGI_ADX_SELFTEST_FAULT") == NULL && getenv("JBIGI_IFMA_SELFTEST_FAULT") == NULL &&
        getenv("JBIGI_ENGINE") == NULL) {
        CHECK(jbigi_adx_available() == jbigi_adx_cpu(), "the ADX self-test failed (%d)", jbigi_adx_selftest_result());
        CHECK(jbigi_ifma_available() == jbigi_ifma_cpu(), "the IFMA self-test failed (%d)",
              jbigi_ifma_selftest_result());
        jbigi_engine_note(note, sizeof note);
        CHECK(strcmp(note, "") == 0, "a note with nothing to say: \"%s\"", note);
    }
}

/* Short exponents (jbigi_engine_for_power): to GMP where the row says so,
 * only while nothing is forced; an engine of one modulus form keeps its
 * modulus; from 1024 bits no exponent is short. */
static void check_short_exponents(int want)
{
    /* Limbs that fit 32 bits, so that the test builds for either limb size. */
    static const mp_limb_t m4[4] = {0x7f4a7c15u, 0x89abcdefu, 0x76543210u, 0xc2b2ae3du};
    mp_limb_t m16[16];
    for (size_t i = 0; i < 16; i++)
        m16[i] = m4[i % 4];
    const jbigi_engine *at4 = jbigi_engine_for_modulus(m4, 4, 0);
    const int nothing_forced = want == JBIGI_ENGINE_AUTO || want == JBIGI_ENGINE_UNKNOWN;
    if (nothing_forced && strcmp(at4->name, "adx") == 0) {
        CHECK(jbigi_engine_for_power(m4, 4, 2) == jbigi_engine_gmp(), "exponent of 2 bits at 4 limbs not on GMP");
        CHECK(jbigi_engine_for_power(m4, 4, 4) == jbigi_engine_gmp(), "exponent of 4 bits at 4 limbs not on GMP");
        CHECK(jbigi_engine_for_power(m4, 4, 5) == at4, "exponent of 5 bits at 4 limbs left its engine");
    } else {
        CHECK(jbigi_engine_for_power(m4, 4, 2) == at4, "JBIGI_ENGINE set: a short exponent left the engine chosen");
    }
#if GMP_NUMB_BITS == 64
    static const mp_limb_t p25519[4] = {0xffffffffffffffedu, 0xffffffffffffffffu, 0xffffffffffffffffu,
                                        0x7fffffffffffffffu};
    CHECK(jbigi_engine_for_power(p25519, 4, 2) == jbigi_engine_for_modulus(p25519, 4, 0),
          "a short exponent under 2^255 - 19 left its engine");
#endif
    CHECK(jbigi_engine_for_power(m16, 16, 2) == jbigi_engine_for_modulus(m16, 16, 0),
          "a short exponent at 1024 bits left its engine");
}

/* In a child with JBIGI_ENGINE as the parent set it: what the environment
 * says, as the CPU checks and the choice see it.  Exit code: failed checks. */
static int child(void)
{
    check_nothing_at_load();
    const char *env = getenv("JBIGI_ENGINE");
    const int want = jbigi_engine_parse(env);
    const char *want_name = parsed_name(env) != NULL ? parsed_name(env) : "";
    CHECK(jbigi_engine_environment() == want, "JBIGI_ENGINE=%s read as %d", env ? env : "(unset)",
          jbigi_engine_environment());
    if (strcmp(want_name, "gmp") == 0) {
        CHECK(jbigi_adx_cpu() == (jbigi_cpu_has("bmi2") == 1 && jbigi_cpu_has("adx") == 1),
              "JBIGI_ENGINE=gmp changed the ADX engine's view of the CPU");
        CHECK(chosen(32, "gmp") && jbigi_engine_for(32, 1) == jbigi_engine_gmp(), "JBIGI_ENGINE=gmp: the choice at 32 limbs is not GMP");
        CHECK(chosen(1, "small") && jbigi_engine_for(1, 1) == jbigi_engine_gmp(), "JBIGI_ENGINE=gmp: one limb not on small_powm");
    }
    if (strcmp(want_name, "adx") == 0 && jbigi_adx_cpu())
        CHECK(chosen(32, "adx") && strcmp(jbigi_engine_for(32, 1)->name, "adx") == 0, "JBIGI_ENGINE=adx: the choice at 32 limbs is not ADX");
    if (strcmp(want_name, "avx512-ifma") == 0 && jbigi_ifma_available())
        CHECK(chosen(32, "avx512-ifma"), "JBIGI_ENGINE=ifma: the choice at 32 limbs is not IFMA");
    if (want == JBIGI_ENGINE_UNKNOWN) {
        char note[JBIGI_ENGINE_NOTE_BYTES];
        jbigi_engine_note(note, sizeof note);
        CHECK(strstr(note, "not known") != NULL, "JBIGI_ENGINE=%s: no note (\"%s\")", env, note);
    }
    check_short_exponents(want);
    check_injected_fault();
    return checks_failed > 0;
}

int main(int argc, char **argv)
{
    in_main = 1;
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child();
    printf("# test_engine\n");
    check_parse();
    for (int outcome = -1; outcome <= 1; outcome++)
        check_once(outcome);
    check_fault_variable();
    /* Children: JBIGI_ENGINE, then the fault variables. */
    static const struct {
        const char *variable, *value;
    } runs_of[] = {
        {"JBIGI_ENGINE", NULL},
        {"JBIGI_ENGINE", "auto"},
        {"JBIGI_ENGINE", "gmp"},
        {"JBIGI_ENGINE", "adx"},
        {"JBIGI_ENGINE", "ifma"},
        {"JBIGI_ENGINE", "nonsense"},
        {"JBIGI_ADX_SELFTEST_FAULT", "1"},
        {"JBIGI_IFMA_SELFTEST_FAULT", "1"},
    };
    for (size_t i = 0; i < sizeof runs_of / sizeof runs_of[0]; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            unsetenv("JBIGI_ENGINE");
            unsetenv("JBIGI_ADX_SELFTEST_FAULT");
            unsetenv("JBIGI_IFMA_SELFTEST_FAULT");
            if (runs_of[i].value != NULL)
                setenv(runs_of[i].variable, runs_of[i].value, 1);
            /* argv[0], not /proc/self/exe: under valgrind that is valgrind's
             * own tool, and the child should run this program (natively).
             * Under qemu-user (another architecture's build), the emulator
             * named by JBIGI_TEST_EMULATOR runs it. */
            const char *emulator = getenv("JBIGI_TEST_EMULATOR");
            if (emulator != NULL && emulator[0] != '\0')
                execlp(emulator, emulator, argv[0], "--child", (char *)NULL);
            execl(argv[0], argv[0], "--child", (char *)NULL);
            execl("/proc/self/exe", argv[0], "--child", (char *)NULL);
            _exit(127);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "%s=%s: the child failed (status %d)", runs_of[i].variable,
              runs_of[i].value ? runs_of[i].value : "(unset)", status);
    }
    return finish("test_engine");
}
