/*
 * cpu_check.c - the CPU check behind JNI_OnLoad (see cpu_check.h).
 *
 * JBIGI_VARIANT, JBIGI_RESOURCE and JBIGI_FEATURES come from the build (the Makefile reads
 * them from src/cpu/variants.tsv).  This file must not be compiled with -march
 * or linked with anything that is: it runs before the CPU is known to be
 * able to run the rest of the library.
 */
#include "cpu/cpu_check.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#ifndef JBIGI_VARIANT
#define JBIGI_VARIANT "none"
#endif
#ifndef JBIGI_RESOURCE
#define JBIGI_RESOURCE "libjbigi-linux-" JBIGI_VARIANT "_64.so"
#endif
#ifndef JBIGI_FEATURES
#define JBIGI_FEATURES ""
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

enum reg { EBX, ECX, EDX };

/* What the OS must save for a feature's registers (XGETBV's XCR0). */
enum state { NO_STATE, YMM_STATE, ZMM_STATE };

struct feature {
    const char *name;     /* as in /proc/cpuinfo */
    unsigned leaf;        /* CPUID leaf (subleaf 0) */
    enum reg reg;
    unsigned bit;
    enum state state;     /* register state the OS must also save */
};

static const struct feature features[] = {
    {"sse2", 1, EDX, 26, NO_STATE},     {"pni", 1, ECX, 0, NO_STATE},       {"ssse3", 1, ECX, 9, NO_STATE},
    {"fma", 1, ECX, 12, YMM_STATE},     {"cx16", 1, ECX, 13, NO_STATE},     {"sse4_1", 1, ECX, 19, NO_STATE},
    {"sse4_2", 1, ECX, 20, NO_STATE},   {"movbe", 1, ECX, 22, NO_STATE},    {"popcnt", 1, ECX, 23, NO_STATE},
    {"xsave", 1, ECX, 26, NO_STATE},    {"avx", 1, ECX, 28, YMM_STATE},     {"f16c", 1, ECX, 29, YMM_STATE},
    {"bmi1", 7, EBX, 3, NO_STATE},      {"avx2", 7, EBX, 5, YMM_STATE},     {"bmi2", 7, EBX, 8, NO_STATE},
    {"avx512f", 7, EBX, 16, ZMM_STATE}, {"adx", 7, EBX, 19, NO_STATE},      {"avx512ifma", 7, EBX, 21, ZMM_STATE},
    {"avx512bw", 7, EBX, 30, ZMM_STATE}, {"avx512vl", 7, EBX, 31, ZMM_STATE},
    {"lahf_lm", 0x80000001u, ECX, 0, NO_STATE},
    {"abm", 0x80000001u, ECX, 5, NO_STATE}, {"sse4a", 0x80000001u, ECX, 6, NO_STATE},
};

static int cpuid_reg(unsigned leaf, enum reg reg, unsigned *value)
{
    unsigned a, b, c, d;
    if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf) /* int in clang's cpuid.h */
        return 0;
    __cpuid_count(leaf, 0, a, b, c, d);
    (void)a;
    *value = reg == EBX ? b : reg == ECX ? c : d;
    return 1;
}

/* The OS saves and restores the register state: OSXSAVE, then XCR0's bits
 * 1-2 (XMM, YMM) and, for AVX-512, 5-7 (opmask, the upper halves of
 * ZMM0-15, ZMM16-31). */
static int os_saves(enum state state)
{
    unsigned ecx, lo, hi;
    if (state == NO_STATE)
        return 1;
    if (!cpuid_reg(1, ECX, &ecx) || !(ecx & (1u << 27)))
        return 0;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0)); /* xgetbv */
    (void)hi;
    const unsigned needed = state == ZMM_STATE ? 0xe6u : 0x6u;
    return (lo & needed) == needed;
}

int jbigi_cpu_has(const char *name)
{
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
        const struct feature *f = &features[i];
        unsigned value;
        if (strcmp(name, f->name) != 0)
            continue;
        if (!cpuid_reg(f->leaf, f->reg, &value) || !(value & (1u << f->bit)))
            return 0;
        return os_saves(f->state);
    }
    return -1;
}

const char *jbigi_cpu_feature_name(size_t i)
{
    return i < sizeof features / sizeof features[0] ? features[i].name : NULL;
}

/* The vendor from CPUID's string, one of vendor_names. */
static const char *const vendor_names[] = {"other", "intel", "amd"};

static int read_vendor(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    /* The vendor string is EBX, EDX, ECX. */
    if (b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu) /* GenuineIntel */
        return 1;
    if (b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u) /* AuthenticAMD */
        return 2;
    if (b == 0x6f677948u && d == 0x6e65476eu && c == 0x656e6975u) /* HygonGenuine: AMD's Zen 1, licensed */
        return 2;
    return 0;
}

static unsigned read_family(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    (void)b, (void)c, (void)d;
    const unsigned base = (a >> 8) & 0xf, ext = (a >> 20) & 0xff;
    return base == 0xf ? base + ext : base;
}

/* Vendor and family are read once per process and kept: the engine table
 * asks for them on every call, and in a virtual machine each CPUID traps
 * to the hypervisor (on an Intel Xeon VM, reading the vendor on each call
 * took 40% of a 1024-bit modPowCT with a 160-bit exponent).  -1: not read
 * yet; threads reading at once store the same value. */
static atomic_int vendor_read = -1, family_read = -1;

const char *jbigi_cpu_vendor(void)
{
    int v = atomic_load_explicit(&vendor_read, memory_order_relaxed);
    if (v < 0) {
        v = read_vendor();
        atomic_store_explicit(&vendor_read, v, memory_order_relaxed);
    }
    return vendor_names[v];
}

unsigned jbigi_cpu_family(void)
{
    int v = atomic_load_explicit(&family_read, memory_order_relaxed);
    if (v < 0) {
        v = (int)read_family();
        atomic_store_explicit(&family_read, v, memory_order_relaxed);
    }
    return (unsigned)v;
}

#elif defined(__arm__)
#include <sys/auxv.h>

/*
 * 32-bit ARM: the one feature is "armv7", the architecture level the armhf
 * build's code needs.  The kernel names the level in AT_PLATFORM: "v6l",
 * "v7l", "v8l" (an ARMv8 running 32-bit code).  This file is compiled as
 * ARM code for ARMv6, so that an ARMv6 gets this far and is refused.
 */
int jbigi_cpu_has(const char *name)
{
    const char *platform;
    if (strcmp(name, "armv7") != 0)
        return -1;
    platform = (const char *)getauxval(AT_PLATFORM);
    if (platform == NULL || platform[0] != 'v' || platform[1] < '0' || platform[1] > '9')
        return 0;
    return platform[1] >= '7' || (platform[2] >= '0' && platform[2] <= '9'); /* v7, v8, ... v10 */
}

const char *jbigi_cpu_feature_name(size_t i)
{
    return i == 0 ? "armv7" : NULL;
}

#else /* aarch64 and others: the baseline of the architecture is all we use */

int jbigi_cpu_has(const char *name)
{
    (void)name;
    return -1;
}

#endif

#if !defined(__x86_64__) && !defined(__i386__)
const char *jbigi_cpu_vendor(void)
{
    return "other";
}

unsigned jbigi_cpu_family(void)
{
    return 0;
}
#endif

#if !defined(__x86_64__) && !defined(__i386__) && !defined(__arm__)
const char *jbigi_cpu_feature_name(size_t i)
{
    (void)i;
    return NULL;
}
#endif

int jbigi_cpu_is_amd(void)
{
    return strcmp(jbigi_cpu_vendor(), "amd") == 0;
}

int jbigi_cpu_check_list(const char *features_list, char *message, size_t size)
{
    char name[32];
    size_t used = 0;
    int missing = 0;
    const char *p = features_list;
    if (size > 0)
        message[0] = '\0';
    while (*p != '\0') {
        size_t n = strcspn(p, " \t");
        if (n > 0 && !(n == 1 && *p == '-')) {
            int has = -1;
            if (n < sizeof name) {
                memcpy(name, p, n);
                name[n] = '\0';
                has = jbigi_cpu_has(name);
            }
            if (has != 1) {
                int w = snprintf(message + used, size - used, "%s%.*s%s", missing ? " " : "lacks ", (int)n, p, has < 0 ? " (unknown)" : "");
                if (w > 0 && (size_t)w < size - used)
                    used += (size_t)w;
                missing = 1;
            }
        }
        p += n;
        p += strspn(p, " \t");
    }
    return missing ? -1 : 0;
}

int jbigi_cpu_check(char *message, size_t size)
{
    char missing[256];
    if (jbigi_cpu_check_list(JBIGI_FEATURES, missing, sizeof missing) == 0)
        return 0;
    snprintf(message, size,
             "this CPU cannot run %s (built for %s; CPUID: %s): not loading it",
             JBIGI_RESOURCE, JBIGI_FEATURES, missing);
    return -1;
}

const char *jbigi_cpu_variant(void)
{
    return JBIGI_VARIANT;
}
