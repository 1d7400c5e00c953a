/*
 * test_cpu_facts.c - this CPU's facts (src/cpu/cpu_facts.h): they equal
 * what CPUID and XGETBV say, read here without the library's code; they
 * are read once, whichever threads ask first and at once, and never again;
 * the test builds' hooks hide and show what they say.
 *
 * Two copies of the facts run here: the library's, linked like every C
 * test's sources, and a second one, src/cpu/cpu_facts.c included below
 * under other names, built with both hooks (JBIGI_ADX_VALGRIND,
 * JBIGI_ADX_NO_AVX2) and with each CPUID it executes counted.
 */
#include <stdatomic.h>
#include <string.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#endif

#include "check.h"
#include "cpu/cpu_check.h"
#include "cpu/cpu_facts.h"

/* Whether the library's copy of the facts, linked below, was built with
 * the test builds' hooks (check-native.sh's valgrind phase passes them on
 * the command line): read before this file defines them for its own copy. */
#if defined(JBIGI_ADX_VALGRIND)
#define LIBRARY_SHOWS_ADX 1
#else
#define LIBRARY_SHOWS_ADX 0
#endif
#if defined(JBIGI_ADX_NO_AVX2)
#define LIBRARY_HIDES_AVX2 1
#else
#define LIBRARY_HIDES_AVX2 0
#endif

#if defined(__x86_64__)
#include <cpuid.h>

/* ---- the second copy: the hooks on, every CPUID it executes counted ---- */

static atomic_int cpuid_count;
#undef __cpuid_count
#define __cpuid_count(leaf, sub, a, b, c, d)                                                                     \
    do {                                                                                                         \
        atomic_fetch_add(&cpuid_count, 1);                                                                       \
        __asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "0"(leaf), "2"(sub));                \
    } while (0)
#define JBIGI_ADX_VALGRIND 1
#define JBIGI_ADX_NO_AVX2 1
#define jbigi_cpu copy_cpu
#define jbigi_cpu_has_all copy_has_all
#define jbigi_cpu_bit_name copy_bit_name
jbigi_cpu_facts copy_cpu(void);
int copy_has_all(uint32_t features);
const char *copy_bit_name(unsigned i);
#include "../../src/cpu/cpu_facts.c"
#undef jbigi_cpu
#undef jbigi_cpu_has_all
#undef jbigi_cpu_bit_name

/* ---- CPUID read here, without the library's code ---- */

static unsigned leaf_reg(unsigned leaf, int reg)
{
    unsigned r[4] = {0, 0, 0, 0};
    if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) >= leaf)
        __asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "0"(leaf), "2"(0));
    return r[reg];
}

static int same(jbigi_cpu_facts a, jbigi_cpu_facts b)
{
    return a.features == b.features && a.family == b.family && a.model == b.model && a.vendor == b.vendor &&
           a.amd_zen4 == b.amd_zen4;
}

static void check_against_cpuid(void)
{
    const jbigi_cpu_facts f = jbigi_cpu();
    const unsigned eax1 = leaf_reg(1, 0), ecx1 = leaf_reg(1, 2), ebx7 = leaf_reg(7, 1);
    unsigned xcr0 = 0;
    if (ecx1 & (1u << 27)) {
        unsigned hi;
        __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(xcr0), "=d"(hi) : "c"(0));
        (void)hi;
    }
    const int ymm = (xcr0 & 0x6u) == 0x6u, zmm = (xcr0 & 0xe6u) == 0xe6u;
    struct {
        uint32_t bit;
        int want;
        const char *name;
    } rows[] = {
        {JBIGI_CPU_BMI2, !!(ebx7 & (1u << 8)), "bmi2"},
        {JBIGI_CPU_ADX, !!(ebx7 & (1u << 19)), "adx"},
        {JBIGI_CPU_AVX2, (ebx7 & (1u << 5)) && ymm, "avx2"},
        {JBIGI_CPU_AVX512F, (ebx7 & (1u << 16)) && zmm, "avx512f"},
        {JBIGI_CPU_AVX512IFMA, (ebx7 & (1u << 21)) && zmm, "avx512ifma"},
        {JBIGI_CPU_AVX512BW, (ebx7 & (1u << 30)) && zmm, "avx512bw"},
        {JBIGI_CPU_AVX512VL, (ebx7 & (1u << 31)) && zmm, "avx512vl"},
        {JBIGI_CPU_SSE2, !!(leaf_reg(1, 3) & (1u << 26)), "sse2"},
        {JBIGI_CPU_ABM, !!(leaf_reg(0x80000001u, 2) & (1u << 5)), "abm"},
    };
    /* Where the library was built with the test builds' hooks, they change
     * two facts on purpose: what CPUID says is then not what they must say. */
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (LIBRARY_SHOWS_ADX && rows[i].bit == JBIGI_CPU_ADX && (ebx7 & (1u << 8)))
            rows[i].want = 1;
        if (LIBRARY_HIDES_AVX2 && rows[i].bit == JBIGI_CPU_AVX2)
            rows[i].want = 0;
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        CHECK(!!(f.features & rows[i].bit) == rows[i].want, "%s: CPUID says %d, the facts %d", rows[i].name,
              rows[i].want, !!(f.features & rows[i].bit));
        CHECK(jbigi_cpu_has(rows[i].name) == rows[i].want, "%s: the check by name disagrees with CPUID",
              rows[i].name);
        CHECK(strcmp(jbigi_cpu_bit_name((unsigned)__builtin_ctz(rows[i].bit)), rows[i].name) == 0,
              "bit of %s named %s", rows[i].name, jbigi_cpu_bit_name((unsigned)__builtin_ctz(rows[i].bit)));
    }
    const unsigned base = (eax1 >> 8) & 0xf, model = (eax1 >> 4) & 0xf;
    const unsigned want_family = base == 0xf ? base + ((eax1 >> 20) & 0xff) : base;
    const unsigned want_model = base == 0xf || base == 6 ? ((eax1 >> 12) & 0xf0) | model : model;
    CHECK(f.family == want_family, "family: CPUID %u, the facts %u", want_family, (unsigned)f.family);
    CHECK(f.model == want_model, "model: CPUID %u, the facts %u", want_model, (unsigned)f.model);
    char vendor[13];
    const unsigned v[3] = {leaf_reg(0, 1), leaf_reg(0, 3), leaf_reg(0, 2)};
    memcpy(vendor, v, 12);
    vendor[12] = '\0';
    const unsigned want_vendor = strcmp(vendor, "GenuineIntel") == 0 ? JBIGI_CPU_VENDOR_INTEL
                                 : strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0
                                     ? JBIGI_CPU_VENDOR_AMD
                                     : JBIGI_CPU_VENDOR_OTHER;
    CHECK(f.vendor == want_vendor, "vendor %s, the facts say %u", vendor, (unsigned)f.vendor);
    CHECK(f.amd_zen4 == (want_vendor == JBIGI_CPU_VENDOR_AMD && want_family == 0x19 && (f.features & JBIGI_CPU_AVX512F)),
          "Zen 4: the facts say %u", (unsigned)f.amd_zen4);
    printf("# %s family %#x model %#x, features %#x%s\n", vendor, want_family, want_model, (unsigned)f.features,
           f.amd_zen4 ? ", AMD Zen 4" : "");
}

/* ---- the first use, by many threads at once ---- */

#define THREADS 8
static atomic_int ready; /* threads at the start line: all go at once */
static jbigi_cpu_facts seen[THREADS];

static void first_use(size_t i)
{
    atomic_fetch_add(&ready, 1);
    while (atomic_load(&ready) < THREADS)
        ;
    seen[i] = copy_cpu();
}

#if defined(_WIN32)
static DWORD WINAPI first_use_thread(LPVOID arg)
{
    first_use((size_t)arg);
    return 0;
}
#else
static void *first_use_thread(void *arg)
{
    first_use((size_t)arg);
    return NULL;
}
#endif

/* THREADS threads, each calling first_use(i) at once; 0 when one did not start. */
static int race_first_use(void)
{
    int started = 1;
#if defined(_WIN32)
    HANDLE t[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        started &= (t[i] = CreateThread(NULL, 0, first_use_thread, (LPVOID)i, 0, NULL)) != NULL;
    for (size_t i = 0; i < THREADS; i++)
        if (t[i] != NULL) {
            WaitForSingleObject(t[i], INFINITE);
            CloseHandle(t[i]);
        }
#else
    pthread_t t[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        started &= pthread_create(&t[i], NULL, first_use_thread, (void *)i) == 0;
    for (size_t i = 0; i < THREADS && started; i++)
        pthread_join(t[i], NULL);
#endif
    return started;
}

static void check_read_once(void)
{
    /* What one reading of the CPU costs in CPUIDs (read_facts, the copy's own). */
    atomic_store(&cpuid_count, 0);
    const jbigi_cpu_facts direct = read_facts();
    const int per_read = atomic_load(&cpuid_count);
    CHECK(per_read > 0, "reading the facts executed no CPUID");
    CHECK(atomic_load(&state) == NEW, "a reading outside jbigi_cpu() published the facts");

    atomic_store(&cpuid_count, 0);
    if (!race_first_use()) {
        CHECK(0, "a thread did not start");
        return;
    }
    const int race = atomic_load(&cpuid_count);
    CHECK(race % per_read == 0 && race >= per_read && race <= THREADS * per_read,
          "the first use by %d threads executed %d CPUIDs, %d a reading", THREADS, race, per_read);
    for (size_t i = 0; i < THREADS; i++)
        CHECK(same(seen[i], direct), "thread %zu saw other facts", i);
    CHECK(atomic_load(&state) == DONE, "the facts were not kept");

    /* Kept: later calls, from any thread, read the CPU no more. */
    atomic_store(&cpuid_count, 0);
    for (int i = 0; i < 1000; i++)
        CHECK(same(copy_cpu(), direct), "call %d: other facts", i);
    CHECK(copy_has_all(direct.features) && !copy_has_all(~direct.features), "has_all disagrees with the facts");
    CHECK(atomic_load(&cpuid_count) == 0, "%d CPUIDs after the facts were kept", atomic_load(&cpuid_count));
    printf("# %d threads at once: %d reading(s) of the CPU, none after\n", THREADS, race / per_read);
}

/* ---- the hooks: the copy's facts against the library's ---- */

static void check_hooks(void)
{
    const jbigi_cpu_facts real = jbigi_cpu(), hooked = copy_cpu();
    uint32_t want = real.features & ~(uint32_t)JBIGI_CPU_AVX2;
    if (real.features & JBIGI_CPU_BMI2)
        want |= JBIGI_CPU_ADX;
    CHECK(hooked.features == want, "hooked features %#x, want %#x (AVX2 hidden, ADX with BMI2)",
          (unsigned)hooked.features, (unsigned)want);
    CHECK(!(hooked.features & JBIGI_CPU_AVX2), "JBIGI_ADX_NO_AVX2 left AVX2");
    CHECK(hooked.vendor == real.vendor && hooked.family == real.family && hooked.model == real.model &&
              hooked.amd_zen4 == real.amd_zen4,
          "the hooks changed more than the features");
}

int main(void)
{
    check_read_once();
    check_against_cpuid();
    check_hooks();
    return finish("test_cpu_facts");
}

#else /* no CPUID: the facts say none */

int main(void)
{
    const jbigi_cpu_facts f = jbigi_cpu();
    CHECK(f.vendor == JBIGI_CPU_VENDOR_OTHER && f.family == 0 && f.model == 0 && !f.amd_zen4, "facts off x86");
    CHECK((f.features & ~(uint32_t)JBIGI_CPU_ARMV7) == 0, "x86 features off x86: %#x", (unsigned)f.features);
    CHECK(strcmp(jbigi_cpu_vendor(), "other") == 0, "vendor %s off x86", jbigi_cpu_vendor());
    return finish("test_cpu_facts");
}

#endif
