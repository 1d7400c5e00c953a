/*
 * ifma_cpu.c - may this process execute the AVX-512 IFMA engine?
 *
 * Baseline x86-64 code only: it runs before anything knows the answer.
 *
 * The CPU must report the instructions (CPUID leaf 7: AVX512F, AVX512IFMA,
 * AVX512VL, AVX512BW for the mask arithmetic, and BMI2 for the scalar
 * side's mulx: every CPU with IFMA has the last two) and the OS must save
 * the registers they use across context switches (CPUID leaf 1 OSXSAVE,
 * then XGETBV: XCR0 bits 1 and 2 for the SSE/AVX halves, 5, 6 and 7 for
 * the opmask registers and the upper ZMM state).
 * A CPU with the instructions under an OS or hypervisor that does not save
 * ZMM state would corrupt registers silently, hence both checks.
 *
 * CPU facts only: JBIGI_ENGINE and an explicit force are the registry's
 * (engine.h, "Which engine runs"), so neither changes what is cached here.
 *
 * The answer (and whether the CPU is an AMD Zen 4, for the size table
 * in registry.c) is computed on the first question and cached in an atomic;
 * threads asking at once compute the same value, so the race is benign.
 * Nothing here runs at load: from Java the first question comes from the
 * first engine choice (Engine.select() as NativeBigInteger initialises),
 * after JNI_OnLoad's CPU check.
 *
 * Where the CPU can run it, the engine is used only after its known-answer
 * self-test (ifma_selftest.c) passed in this process; the test runs once,
 * on the first question whether the engine is available (the first engine
 * choice), never at load.  In test builds with JBIGI_IFMA_MODEL every CPU
 * "has" the instructions: the model runs them.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_check.h"
#include "engines/engine.h"
#include "engines/ifma/ifma.h"

#if defined(JBIGI_IFMA_MODEL)
/* Test builds: the model of the instructions runs anywhere. */
static int cpu_has_ifma(void)
{
    return 1;
}
#else
/* The CPU check's rule (cpu_check.c: CPUID, and XGETBV for the ZMM state),
 * as for every other feature: AVX-512 F, IFMA and VL, BW for the kernels'
 * arithmetic on mask registers (every CPU with IFMA has it), and BMI2's
 * mulx on the scalar side. */
static int cpu_has_ifma(void)
{
    return jbigi_cpu_has("avx512f") == 1 && jbigi_cpu_has("avx512ifma") == 1 && jbigi_cpu_has("avx512vl") == 1 &&
           jbigi_cpu_has("avx512bw") == 1 && jbigi_cpu_has("bmi2") == 1;
}
#endif

/* AMD family 19h (Zen 3 and Zen 4; only Zen 4 has IFMA). */
static int cpu_is_amd_family_19h(void)
{
    return jbigi_cpu_is_amd() && jbigi_cpu_family() == 0x19;
}

/* -1: not computed yet; 0: the CPU cannot run the engine; 1: it can; 2:
 * it can, and it is an AMD Zen 4 (family 19h), where the engine wins from
 * smaller moduli than elsewhere (see ifma_powm.c).  One CPUID pass per
 * process: in a virtual machine a CPUID instruction may cost microseconds. */
static atomic_int cpu = -1;

static int compute_cpu(void)
{
    int v = 0;
    if (cpu_has_ifma())
        v = cpu_is_amd_family_19h() ? 2 : 1;
    atomic_store_explicit(&cpu, v, memory_order_release);
    return v;
}

static int cpu_state(void)
{
    int v = atomic_load_explicit(&cpu, memory_order_acquire);
    return v >= 0 ? v : compute_cpu();
}

int jbigi_ifma_cpu(void)
{
    return cpu_state() > 0;
}

int jbigi_ifma_zen4(void)
{
    return cpu_state() == 2;
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
