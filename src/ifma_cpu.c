/*
 * ifma_cpu.c - may this process execute the AVX-512 IFMA engine?
 *
 * Baseline x86-64 code only: it runs before anything knows the answer.
 *
 * The CPU must report the instructions (CPUID leaf 7: AVX512F, AVX512IFMA,
 * AVX512VL, and BMI2 for the scalar side's mulx, which every CPU with IFMA
 * has) and the OS must save the registers they use across context switches
 * (CPUID leaf 1 OSXSAVE, then XGETBV: XCR0 bits 1 and 2 for the SSE/AVX
 * halves, 5, 6 and 7 for the opmask registers and the upper ZMM state).
 * A CPU with the instructions under an OS or hypervisor that does not save
 * ZMM state would corrupt registers silently, hence both checks.
 *
 * JBIGI_ENGINE=gmp in the environment makes the engine unavailable: the
 * forced-GMP switch for valgrind (which cannot execute AVX-512) and for
 * comparisons.  The environment is read once, with the CPU.
 *
 * The answer is computed at load time by a constructor and cached in an
 * atomic; a caller arriving before the constructor (another constructor)
 * computes it itself.  Both give the same value, so the race is benign.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ifma.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

static int cpu_has_ifma(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) /* OSXSAVE */
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    const unsigned xcr0_needed = (1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7);
    if ((lo & xcr0_needed) != xcr0_needed)
        return 0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    const unsigned leaf7_needed = (1u << 8)     /* BMI2: mulx, in the scalar side */
                                  | (1u << 16)  /* AVX512F */
                                  | (1u << 21)  /* AVX512IFMA */
                                  | (1u << 31); /* AVX512VL */
    return (b & leaf7_needed) == leaf7_needed;
}
#else
static int cpu_has_ifma(void)
{
    return 0;
}
#endif

static int engine_forced_off(void)
{
    const char *env = getenv("JBIGI_ENGINE");
    return env != NULL && strcmp(env, "gmp") == 0;
}

/* -1: not computed yet; otherwise the answer. */
static atomic_int available = -1;

static int compute(void)
{
    int v = !engine_forced_off() && cpu_has_ifma();
    atomic_store_explicit(&available, v, memory_order_release);
    return v;
}

__attribute__((constructor)) static void ifma_cpu_init(void)
{
    compute();
}

int jbigi_ifma_available(void)
{
    int v = atomic_load_explicit(&available, memory_order_acquire);
    return v >= 0 ? v : compute();
}
