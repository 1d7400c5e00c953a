/*
 * ifma_cpu.c - may this process execute the AVX-512 IFMA engine?
 *
 * The CPU's facts (cpu_facts.h, read once per process) must show AVX-512
 * F, IFMA and VL, BW for the kernels' arithmetic on mask registers (every
 * CPU with IFMA has it) and BMI2's mulx on the scalar side, each with the
 * OS saving the registers.  CPU facts only: JBIGI_ENGINE and an explicit
 * force are the registry's (engine.h, "Which engine runs").
 *
 * Where the CPU can run it, the engine is used only after its known-answer
 * self-test (ifma_selftest.c) passed in this process; the test runs once,
 * on the first question whether the engine is available (the first engine
 * choice), never at load.  In test builds with JBIGI_IFMA_MODEL every CPU
 * can run the engine: the model executes the instructions.
 */
#include <stdatomic.h>

#include "cpu/cpu_facts.h"
#include "engines/engine.h"
#include "engines/ifma/ifma.h"

int jbigi_ifma_cpu(void)
{
#if defined(JBIGI_IFMA_MODEL)
    return 1;
#else
    return jbigi_cpu_has_all(JBIGI_CPU_AVX512F | JBIGI_CPU_AVX512IFMA | JBIGI_CPU_AVX512VL | JBIGI_CPU_AVX512BW |
                             JBIGI_CPU_BMI2);
#endif
}

/* The self-test's outcome, shared by every thread: run once, by the first
 * caller (jbigi_selftest_once), and a failure stands for the life of the
 * process. */
static atomic_int selftest = JBIGI_SELFTEST_UNKNOWN;

_Static_assert(JBIGI_IFMA_SELFTEST_NOT_RUN == JBIGI_SELFTEST_NOT_RUN &&
                   JBIGI_IFMA_SELFTEST_PASSED == JBIGI_SELFTEST_PASSED &&
                   JBIGI_IFMA_SELFTEST_FAILED == JBIGI_SELFTEST_FAILED,
               "ifma.h's self-test codes are engine.h's");

static int selftest_state(void)
{
    if (!jbigi_ifma_cpu())
        return JBIGI_IFMA_SELFTEST_NOT_RUN;
    return jbigi_selftest_once(&selftest, jbigi_ifma_selftest, "JBIGI_IFMA_SELFTEST_FAULT");
}

int jbigi_ifma_available(void)
{
    return jbigi_ifma_cpu() && selftest_state() == JBIGI_IFMA_SELFTEST_PASSED;
}

int jbigi_ifma_selftest_result(void)
{
    return selftest_state();
}
