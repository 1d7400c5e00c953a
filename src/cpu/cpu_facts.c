/*
 * cpu_facts.c - this CPU's facts, read once (see cpu_facts.h).
 *
 * Compiled for the baseline, without GMP and without the platform layer:
 * the CPU check runs on it before the library may run anything else, and
 * the CPU probe (cpu_probe.c) links it alone.  That is also why it does not
 * use platform.h's jbigi_once, which is compiled with the library's flags.
 *
 * Reading once matters: the engine table asks on every call, and in a
 * virtual machine each CPUID traps to the hypervisor.
 * doc/measurements.md: "CPUID on every engine choice (2026-12-06)"
 */
#include "cpu/cpu_facts.h"

#include <stdatomic.h>
#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

enum reg { EAX, EBX, ECX, EDX };

/* What the OS must save for a feature's registers (XGETBV's XCR0). */
enum state { NO_STATE, YMM_STATE, ZMM_STATE };

struct feature {
    const char *name; /* as in /proc/cpuinfo */
    unsigned leaf;    /* CPUID leaf (subleaf 0) */
    enum reg reg;
    unsigned bit;
    enum state state; /* register state the OS must also save */
};

/* Indexed by the bit's position in cpu_facts.h's mask. */
static const struct feature features[] = {
    {"sse2", 1, EDX, 26, NO_STATE},           {"pni", 1, ECX, 0, NO_STATE},
    {"ssse3", 1, ECX, 9, NO_STATE},           {"fma", 1, ECX, 12, YMM_STATE},
    {"cx16", 1, ECX, 13, NO_STATE},           {"sse4_1", 1, ECX, 19, NO_STATE},
    {"sse4_2", 1, ECX, 20, NO_STATE},         {"movbe", 1, ECX, 22, NO_STATE},
    {"popcnt", 1, ECX, 23, NO_STATE},         {"xsave", 1, ECX, 26, NO_STATE},
    {"avx", 1, ECX, 28, YMM_STATE},           {"f16c", 1, ECX, 29, YMM_STATE},
    {"bmi1", 7, EBX, 3, NO_STATE},            {"avx2", 7, EBX, 5, YMM_STATE},
    {"bmi2", 7, EBX, 8, NO_STATE},            {"avx512f", 7, EBX, 16, ZMM_STATE},
    {"adx", 7, EBX, 19, NO_STATE},            {"avx512ifma", 7, EBX, 21, ZMM_STATE},
    {"avx512bw", 7, EBX, 30, ZMM_STATE},      {"avx512vl", 7, EBX, 31, ZMM_STATE},
    {"lahf_lm", 0x80000001u, ECX, 0, NO_STATE}, {"abm", 0x80000001u, ECX, 5, NO_STATE},
    {"sse4a", 0x80000001u, ECX, 6, NO_STATE},
};
#define FEATURES (sizeof features / sizeof features[0])
_Static_assert(JBIGI_CPU_SSE4A == 1 << (FEATURES - 1) && JBIGI_CPU_ADX == 1 << 16 && JBIGI_CPU_AVX2 == 1 << 13,
               "the table's rows are cpu_facts.h's bits, in order");

/* CPUID leaf (subleaf 0) into r[EAX..EDX]; 0 when the CPU has no such leaf. */
static int cpuid(unsigned leaf, unsigned r[4])
{
    if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf) /* int in clang's cpuid.h */
        return 0;
    __cpuid_count(leaf, 0, r[EAX], r[EBX], r[ECX], r[EDX]);
    return 1;
}

/* XCR0's bits the OS sets when it saves the state: 1-2 (XMM, YMM) and, for
 * AVX-512, 5-7 (opmask, the upper halves of ZMM0-15, ZMM16-31).  0 when
 * the OS has not enabled XGETBV (CPUID 1 ECX bit 27, OSXSAVE). */
static unsigned read_xcr0(void)
{
    unsigned r[4], lo, hi;
    if (!cpuid(1, r) || !(r[ECX] & (1u << 27)))
        return 0;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0)); /* xgetbv */
    (void)hi;
    return lo;
}

static int os_saves(enum state state, unsigned xcr0)
{
    const unsigned needed = state == ZMM_STATE ? 0xe6u : state == YMM_STATE ? 0x6u : 0;
    return (xcr0 & needed) == needed;
}

static unsigned read_vendor(void)
{
    unsigned r[4];
    if (!cpuid(0, r))
        return JBIGI_CPU_VENDOR_OTHER;
    /* The vendor string is EBX, EDX, ECX. */
    if (r[EBX] == 0x756e6547u && r[EDX] == 0x49656e69u && r[ECX] == 0x6c65746eu) /* GenuineIntel */
        return JBIGI_CPU_VENDOR_INTEL;
    if (r[EBX] == 0x68747541u && r[EDX] == 0x69746e65u && r[ECX] == 0x444d4163u) /* AuthenticAMD */
        return JBIGI_CPU_VENDOR_AMD;
    if (r[EBX] == 0x6f677948u && r[EDX] == 0x6e65476eu && r[ECX] == 0x656e6975u) /* HygonGenuine */
        return JBIGI_CPU_VENDOR_AMD;
    return JBIGI_CPU_VENDOR_OTHER;
}

static jbigi_cpu_facts read_facts(void)
{
    jbigi_cpu_facts f = {0, 0, 0, 0, 0};
    unsigned r[4];
    const unsigned xcr0 = read_xcr0();
    for (size_t i = 0; i < FEATURES; i++) {
        const struct feature *x = &features[i];
        if (cpuid(x->leaf, r) && (r[x->reg] & (1u << x->bit)) && os_saves(x->state, xcr0))
            f.features |= 1u << i;
    }
    f.vendor = (uint8_t)read_vendor();
    if (cpuid(1, r)) {
        /* Extended family and model count where Intel's and AMD's manuals
         * say: the family for base family 0xf, the model for 0x6 and 0xf. */
        const unsigned base = (r[EAX] >> 8) & 0xf, model = (r[EAX] >> 4) & 0xf;
        f.family = (uint16_t)(base == 0xf ? base + ((r[EAX] >> 20) & 0xff) : base);
        f.model = (uint8_t)(base == 0xf || base == 0x6 ? ((r[EAX] >> 12) & 0xf0) | model : model);
    }
#if defined(JBIGI_ADX_VALGRIND)
    /* Test builds for valgrind only, on a host with ADX: valgrind executes
     * ADCX and ADOX but clears ADX in the CPUID it shows the program. */
    if (f.features & JBIGI_CPU_BMI2)
        f.features |= JBIGI_CPU_ADX;
#endif
#if defined(JBIGI_ADX_NO_AVX2)
    /* Test builds: a CPU without AVX2 (check-native.sh's valgrind phase
     * runs the MULX/ADX engine's select without it). */
    f.features &= ~(uint32_t)JBIGI_CPU_AVX2;
#endif
    f.amd_zen4 = f.vendor == JBIGI_CPU_VENDOR_AMD && f.family == 0x19 && (f.features & JBIGI_CPU_AVX512F);
    return f;
}

const char *jbigi_cpu_bit_name(unsigned i)
{
    return i < FEATURES ? features[i].name : NULL;
}

#elif defined(__arm__)
#include <sys/auxv.h>

/*
 * 32-bit ARM: the one feature is "armv7", the architecture level the armhf
 * build's code needs.  The kernel names the level in AT_PLATFORM: "v6l",
 * "v7l", "v8l" (an ARMv8 running 32-bit code).  This file is compiled as
 * ARM code for ARMv6, so that an ARMv6 gets this far and is refused.
 */
static jbigi_cpu_facts read_facts(void)
{
    jbigi_cpu_facts f = {0, 0, 0, JBIGI_CPU_VENDOR_OTHER, 0};
    const char *p = (const char *)getauxval(AT_PLATFORM);
    if (p != NULL && p[0] == 'v' && p[1] >= '0' && p[1] <= '9' &&
        (p[1] >= '7' || (p[2] >= '0' && p[2] <= '9'))) /* v7, v8, ... v10 */
        f.features = JBIGI_CPU_ARMV7;
    return f;
}

const char *jbigi_cpu_bit_name(unsigned i)
{
    _Static_assert(JBIGI_CPU_ARMV7 == 1 << 23, "armv7 is bit 23");
    return i == 23 ? "armv7" : NULL;
}

#else /* aarch64 and others: the baseline of the architecture is all we use */

static jbigi_cpu_facts read_facts(void)
{
    jbigi_cpu_facts f = {0, 0, 0, JBIGI_CPU_VENDOR_OTHER, 0};
    return f;
}

const char *jbigi_cpu_bit_name(unsigned i)
{
    (void)i;
    return NULL;
}

#endif

/*
 * The facts, kept once read.  state: NEW, then BUSY while the one thread
 * that moved it from NEW fills facts, then DONE for good, stored with
 * release after facts is written; a reader that loads DONE with acquire
 * sees facts whole.  A thread that finds BUSY reads the CPU itself and
 * returns its own copy (the same facts: CPUID answers the same), so no
 * thread ever waits and no two threads write facts.
 */
#define NEW 0
#define BUSY 1
#define DONE 2
static atomic_int state = NEW;
static jbigi_cpu_facts facts;

jbigi_cpu_facts jbigi_cpu(void)
{
    int seen = atomic_load_explicit(&state, memory_order_acquire);
    if (seen == DONE)
        return facts;
    if (seen == NEW && atomic_compare_exchange_strong_explicit(&state, &seen, BUSY, memory_order_acquire,
                                                               memory_order_acquire)) {
        facts = read_facts();
        atomic_store_explicit(&state, DONE, memory_order_release);
        return facts;
    }
    if (seen == DONE) /* another thread finished between the load and the exchange */
        return facts;
    return read_facts();
}

int jbigi_cpu_has_all(uint32_t wanted)
{
    return (jbigi_cpu().features & wanted) == wanted;
}
