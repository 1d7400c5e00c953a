/*
 * cpu_facts.h - what this CPU is, read once per process: the vendor, the
 * family and model, every feature bit the library asks about, and the
 * facts derived from them.
 *
 * The one place the library reads CPUID (jcpuid.c aside: it hands I2P the
 * raw registers).  The CPU check (cpu_check.h), the engines and the engine
 * table (engines/registry.c) all ask here.  Facts only: which engine the
 * environment or a caller wishes for (JBIGI_ENGINE, a force) is the
 * registry's, never folded in here.
 *
 * A feature bit is set when CPUID reports the instructions and, for those
 * on the AVX or AVX-512 registers, XGETBV shows that the OS saves those
 * registers: a CPU with the instructions under an OS that does not save
 * them would corrupt registers silently.  Off x86 there is no CPUID: the
 * vendor is "other", family and model 0, and the one bit that can be set
 * is JBIGI_CPU_ARMV7 (32-bit ARM, from the kernel's AT_PLATFORM).
 *
 * Compiled for the baseline of the architecture (the Makefile's
 * BASELINE_SOURCES): the CPU check runs on it before anything knows the
 * CPU can run the rest of the library.
 *
 * Test builds may pretend a different CPU (cpu_facts.c): JBIGI_ADX_VALGRIND
 * (ADX wherever BMI2 is: valgrind runs ADCX and ADOX but hides ADX from
 * the CPUID it shows) and JBIGI_ADX_NO_AVX2 (no AVX2: the path of CPUs
 * without it).
 */
#ifndef JBIGI_CPU_FACTS_H
#define JBIGI_CPU_FACTS_H

#include <stdint.h>

/* Feature bits, each named as /proc/cpuinfo names it (cpu_check.h). */
enum {
    JBIGI_CPU_SSE2 = 1 << 0,
    JBIGI_CPU_PNI = 1 << 1, /* SSE3 */
    JBIGI_CPU_SSSE3 = 1 << 2,
    JBIGI_CPU_FMA = 1 << 3,
    JBIGI_CPU_CX16 = 1 << 4,
    JBIGI_CPU_SSE4_1 = 1 << 5,
    JBIGI_CPU_SSE4_2 = 1 << 6,
    JBIGI_CPU_MOVBE = 1 << 7,
    JBIGI_CPU_POPCNT = 1 << 8,
    JBIGI_CPU_XSAVE = 1 << 9,
    JBIGI_CPU_AVX = 1 << 10,
    JBIGI_CPU_F16C = 1 << 11,
    JBIGI_CPU_BMI1 = 1 << 12,
    JBIGI_CPU_AVX2 = 1 << 13,
    JBIGI_CPU_BMI2 = 1 << 14,
    JBIGI_CPU_AVX512F = 1 << 15,
    JBIGI_CPU_ADX = 1 << 16,
    JBIGI_CPU_AVX512IFMA = 1 << 17,
    JBIGI_CPU_AVX512BW = 1 << 18,
    JBIGI_CPU_AVX512VL = 1 << 19,
    JBIGI_CPU_LAHF_LM = 1 << 20,
    JBIGI_CPU_ABM = 1 << 21,
    JBIGI_CPU_SSE4A = 1 << 22,
    JBIGI_CPU_ARMV7 = 1 << 23 /* 32-bit ARM at ARMv7 or later */
};

/* The vendor, from CPUID's vendor string. */
enum {
    JBIGI_CPU_VENDOR_OTHER = 0, /* and every CPU off x86 */
    JBIGI_CPU_VENDOR_INTEL = 1, /* GenuineIntel */
    JBIGI_CPU_VENDOR_AMD = 2    /* AuthenticAMD, or HygonGenuine: AMD's Zen 1 made under licence */
};

typedef struct jbigi_cpu_facts {
    uint32_t features; /* JBIGI_CPU_* bits */
    uint16_t family;   /* base plus extended family, as Linux shows it (0x19 Zen 3 and 4, 0x1a Zen 5) */
    uint8_t model;     /* extended model and model, as Linux shows it */
    uint8_t vendor;    /* JBIGI_CPU_VENDOR_* */
    /* Derived.  AMD Zen 4: AMD family 19h with AVX-512 (Zen 3, the rest of
     * family 19h, has none).  Its IFMA units make the IFMA engine pay from
     * smaller moduli than elsewhere (the engine table, registry.c). */
    uint8_t amd_zen4;
} jbigi_cpu_facts;

/* This CPU's facts: read on the first call, the same on every later call
 * and in every thread.  Any thread may call it at any time. */
jbigi_cpu_facts jbigi_cpu(void);

/* 1 when the CPU has every feature of the mask (JBIGI_CPU_* bits or'ed). */
int jbigi_cpu_has_all(uint32_t features);

/* The name of feature bit i (0 from JBIGI_CPU_SSE2 = 1 << 0), as
 * /proc/cpuinfo and src/cpu/variants.tsv name it, where this architecture
 * can report it; NULL otherwise, and past the last bit. */
const char *jbigi_cpu_bit_name(unsigned i);

#endif
