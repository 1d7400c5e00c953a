/*
 * test_engine.c - the engine switch (engine.h): the one parser of engine
 * names, and JBIGI_ENGINE as the engines' CPU checks and the per-call
 * choice read it.  The program runs itself again with JBIGI_ENGINE set to
 * each name, so that the variable is seen as a fresh process sees it.
 */
#define _DEFAULT_SOURCE /* setenv */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adx.h"
#include "check.h"
#include "engine.h"
#include "ifma.h"

static void check_parse(void)
{
    static const struct {
        const char *name;
        int engine;
    } cases[] = {
        {NULL, JBIGI_ENGINE_AUTO},         {"", JBIGI_ENGINE_AUTO},          {"auto", JBIGI_ENGINE_AUTO},
        {"gmp", JBIGI_ENGINE_GMP},         {"adx", JBIGI_ENGINE_ADX},        {"ifma", JBIGI_ENGINE_IFMA},
        {"avx512-ifma", JBIGI_ENGINE_IFMA}, {"GMP", JBIGI_ENGINE_UNKNOWN},    {"gmp ", JBIGI_ENGINE_UNKNOWN},
        {"small", JBIGI_ENGINE_UNKNOWN},   {"ifma2", JBIGI_ENGINE_UNKNOWN}, {"x", JBIGI_ENGINE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(jbigi_engine_parse(cases[i].name) == cases[i].engine, "parse(\"%s\") = %d, want %d",
              cases[i].name ? cases[i].name : "(null)", jbigi_engine_parse(cases[i].name), cases[i].engine);
}

/* In a child with JBIGI_ENGINE as the parent set it: what the environment
 * says, as the CPU checks and the choice see it.  Exit code: failed checks. */
static int child(void)
{
    const char *env = getenv("JBIGI_ENGINE");
    const int want = jbigi_engine_parse(env);
    CHECK(jbigi_engine_environment() == want, "JBIGI_ENGINE=%s read as %d", env ? env : "(unset)",
          jbigi_engine_environment());
    if (want == JBIGI_ENGINE_GMP) {
        CHECK(!jbigi_adx_cpu() && !jbigi_ifma_cpu(), "JBIGI_ENGINE=gmp left an engine on");
        CHECK(jbigi_engine_for(32) == JBIGI_ENGINE_GMP, "JBIGI_ENGINE=gmp: the choice at 32 limbs is not GMP");
        CHECK(jbigi_engine_for(1) == JBIGI_ENGINE_SMALL, "JBIGI_ENGINE=gmp: one limb not on small_powm");
    }
    if (want == JBIGI_ENGINE_ADX && jbigi_adx_cpu())
        CHECK(jbigi_engine_for(32) == JBIGI_ENGINE_ADX, "JBIGI_ENGINE=adx: the choice at 32 limbs is not ADX");
    if (want == JBIGI_ENGINE_IFMA && jbigi_ifma_available())
        CHECK(jbigi_engine_for(32) == JBIGI_ENGINE_IFMA, "JBIGI_ENGINE=ifma: the choice at 32 limbs is not IFMA");
    if (want == JBIGI_ENGINE_UNKNOWN)
        CHECK(strstr(jbigi_engine_note(), "not known") != NULL, "JBIGI_ENGINE=%s: no note (\"%s\")", env,
              jbigi_engine_note());
    return checks_failed > 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child();
    printf("# test_engine\n");
    check_parse();
    const char *names[] = {NULL, "auto", "gmp", "adx", "ifma", "nonsense"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (names[i] != NULL)
                setenv("JBIGI_ENGINE", names[i], 1);
            else
                unsetenv("JBIGI_ENGINE");
            execl("/proc/self/exe", argv[0], "--child", (char *)NULL);
            _exit(127);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "JBIGI_ENGINE=%s: the child failed (status %d)", names[i] ? names[i] : "(unset)", status);
    }
    return finish("test_engine");
}
