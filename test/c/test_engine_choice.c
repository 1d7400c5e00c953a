/*
 * test_engine_choice.c - the rule of engine.h, "Which engine runs", under
 * threads: an explicit force wins over JBIGI_ENGINE even when it comes
 * while the first choice is applying it; a force of an engine whose
 * self-test another thread is running waits for that test and succeeds;
 * and JBIGI_ENGINE=gmp does not stop an explicit force of ADX or IFMA (the
 * engines' CPU checks hold CPU facts only).
 *
 * The self-tests are intercepted with --wrap: while a scenario holds them,
 * a self-test says it started and waits to be released, which opens the
 * race every time instead of by chance.  Each scenario runs in a fresh
 * process (this program again, with the environment it needs), as the
 * first choice is made once per process; its exit code says passed (0),
 * skipped (SKIPPED: the CPU lacks the engine) or failed.
 */
#define _DEFAULT_SOURCE /* setenv, usleep */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cpu/cpu_check.h"
#include "engines/engine.h"

#define SKIPPED 77

/* ---- the held self-tests ---- */

static atomic_int hold;    /* 1: a self-test waits for release */
static atomic_int started; /* a held self-test has started */
static atomic_int release;

int __real_jbigi_ifma_selftest(int corrupt);
int __real_jbigi_adx_selftest(int corrupt);
int __wrap_jbigi_ifma_selftest(int corrupt);
int __wrap_jbigi_adx_selftest(int corrupt);

static void held(void)
{
    if (!atomic_load(&hold))
        return;
    atomic_store(&started, 1);
    while (!atomic_load(&release))
        usleep(100);
}

int __wrap_jbigi_ifma_selftest(int corrupt)
{
    held();
    return __real_jbigi_ifma_selftest(corrupt);
}

int __wrap_jbigi_adx_selftest(int corrupt)
{
    held();
    return __real_jbigi_adx_selftest(corrupt);
}

static void wait_started(void)
{
    while (!atomic_load(&started))
        usleep(100);
}

/* ---- what the CPU has, asked of the CPU check, not of the engines ---- */

static int cpu_runs(const char *engine)
{
    if (strcmp(engine, "adx") == 0)
        return jbigi_cpu_has("bmi2") == 1 && jbigi_cpu_has("adx") == 1;
    return jbigi_cpu_has("avx512f") == 1 && jbigi_cpu_has("avx512ifma") == 1 && jbigi_cpu_has("avx512vl") == 1 &&
           jbigi_cpu_has("avx512bw") == 1 && jbigi_cpu_has("bmi2") == 1;
}

/* The engine's name as the rows spell it. */
static const char *row_name(const char *engine)
{
    return jbigi_engine_at((size_t)jbigi_engine_parse(engine))->name;
}

static int chosen(mp_size_t n, int constant_time, const char *name)
{
    return strcmp(jbigi_engine_for(n, constant_time)->name, name) == 0;
}

/* ---- the scenarios, each in its own process ---- */

static void *first_choice(void *unused)
{
    (void)unused;
    (void)jbigi_engine_for(32, 0);
    return NULL;
}

/* JBIGI_ENGINE=<engine>: the first choice applies it and runs its
 * self-test; a force of GMP arrives meanwhile and must stand. */
static int race_environment(const char *engine)
{
    if (!cpu_runs(engine))
        return SKIPPED;
    atomic_store(&hold, 1);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, first_choice, NULL) == 0, "no thread");
    wait_started();
    const int rc = jbigi_engine_force("gmp");
    atomic_store(&release, 1);
    pthread_join(t, NULL);
    CHECK(rc == 0, "JBIGI_ENGINE=%s: forcing GMP during the first choice returned %d", engine, rc);
    CHECK(chosen(32, 0, "gmp") && chosen(32, 1, "gmp"),
          "JBIGI_ENGINE=%s overwrote the explicit force of GMP made while it was applied: %s chosen", engine,
          jbigi_engine_for(32, 0)->name);
    CHECK(jbigi_engine_environment_applied(), "the first choice did not finish");
    return checks_failed > 0;
}

struct force_call {
    const char *engine;
    int rc;
    atomic_int done;
};

static void *force_thread(void *arg)
{
    struct force_call *call = arg;
    call->rc = jbigi_engine_force(call->engine);
    atomic_store(&call->done, 1);
    return NULL;
}

static void *ask_available(void *arg)
{
    const char *engine = arg;
    (void)jbigi_engine_at((size_t)jbigi_engine_parse(engine))->available();
    return NULL;
}

/* One thread runs <engine>'s self-test (held); a force of <engine> arrives
 * meanwhile: it must wait for the test and succeed, with no note. */
static int force_during_selftest(const char *engine)
{
    if (!cpu_runs(engine))
        return SKIPPED;
    atomic_store(&hold, 1);
    pthread_t tester, forcer;
    struct force_call call = {engine, -2, 0};
    CHECK(pthread_create(&tester, NULL, ask_available, (void *)engine) == 0, "no thread");
    wait_started();
    CHECK(pthread_create(&forcer, NULL, force_thread, &call) == 0, "no thread");
    /* Give the force time to arrive while the test is held; it must not
     * come back before the test does. */
    for (int i = 0; i < 200 && !atomic_load(&call.done); i++)
        usleep(1000);
    const int returned_early = atomic_load(&call.done);
    atomic_store(&release, 1);
    pthread_join(tester, NULL);
    pthread_join(forcer, NULL);
    char note[JBIGI_ENGINE_NOTE_BYTES];
    jbigi_engine_note(note, sizeof note);
    CHECK(call.rc == 0, "forcing %s while its self-test ran was refused (%d%s): \"%s\"", engine, call.rc,
          returned_early ? ", without waiting for the test" : "", note);
    CHECK(strcmp(note, "") == 0, "forcing %s while its self-test ran left a note: \"%s\"", engine, note);
    CHECK(chosen(32, 0, row_name(engine)), "forced %s, but %s chosen", engine, jbigi_engine_for(32, 0)->name);
    return checks_failed > 0;
}

/* JBIGI_ENGINE=gmp: the first choice is GMP; an explicit force of <engine>
 * still takes it, and going back to GMP and to auto works. */
static int force_over_gmp_environment(const char *engine)
{
    if (!cpu_runs(engine))
        return SKIPPED;
    CHECK(chosen(32, 0, "gmp") && chosen(32, 1, "gmp"), "JBIGI_ENGINE=gmp: %s chosen",
          jbigi_engine_for(32, 0)->name);
    const int rc = jbigi_engine_force(engine);
    char note[JBIGI_ENGINE_NOTE_BYTES];
    jbigi_engine_note(note, sizeof note);
    CHECK(rc == 0, "JBIGI_ENGINE=gmp: an explicit force of %s was refused: \"%s\"", engine, note);
    CHECK(chosen(32, 0, row_name(engine)) && chosen(32, 1, row_name(engine)),
          "JBIGI_ENGINE=gmp: forced %s, but %s chosen", engine, jbigi_engine_for(32, 0)->name);
    CHECK(jbigi_engine_force("gmp") == 0 && chosen(32, 0, "gmp"), "back to GMP");
    CHECK(jbigi_engine_force("auto") == 0 && !chosen(32, 0, "gmp"), "auto after JBIGI_ENGINE=gmp: still GMP");
    return checks_failed > 0;
}

static int child(const char *scenario, const char *engine)
{
    if (strcmp(scenario, "race-environment") == 0)
        return race_environment(engine);
    if (strcmp(scenario, "force-during-selftest") == 0)
        return force_during_selftest(engine);
    if (strcmp(scenario, "force-over-gmp-environment") == 0)
        return force_over_gmp_environment(engine);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--child") == 0)
        return child(argv[2], argv[3]);
    printf("# test_engine_choice\n");
    static const struct {
        const char *scenario, *engine, *environment; /* JBIGI_ENGINE, or NULL for unset */
    } runs[] = {
        {"race-environment", "adx", "adx"},
        {"race-environment", "ifma", "ifma"},
        {"force-during-selftest", "adx", NULL},
        {"force-during-selftest", "ifma", NULL},
        {"force-over-gmp-environment", "adx", "gmp"},
        {"force-over-gmp-environment", "ifma", "gmp"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        const char *env = runs[i].environment ? runs[i].environment : "(unset)";
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            unsetenv("JBIGI_ENGINE");
            if (runs[i].environment != NULL)
                setenv("JBIGI_ENGINE", runs[i].environment, 1);
            /* As test_engine.c: argv[0] (natively under valgrind), or the
             * emulator JBIGI_TEST_EMULATOR names. */
            const char *emulator = getenv("JBIGI_TEST_EMULATOR");
            if (emulator != NULL && emulator[0] != '\0')
                execlp(emulator, emulator, argv[0], "--child", runs[i].scenario, runs[i].engine, (char *)NULL);
            execl(argv[0], argv[0], "--child", runs[i].scenario, runs[i].engine, (char *)NULL);
            _exit(127);
        }
        int status = 0;
        const int ended = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status);
        if (ended && WEXITSTATUS(status) == SKIPPED)
            SKIP(1, "%s %s (JBIGI_ENGINE=%s): this CPU cannot run %s", runs[i].scenario, runs[i].engine, env,
                 runs[i].engine);
        else
            CHECK(ended && WEXITSTATUS(status) == 0, "%s %s (JBIGI_ENGINE=%s): failed (status %d)", runs[i].scenario,
                  runs[i].engine, env, status);
    }
    return finish("test_engine_choice");
}
