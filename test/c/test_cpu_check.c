/*
 * test_cpu_check.c - the CPU check behind JNI_OnLoad, on this CPU.
 *
 * Every feature named in src/cpu/variants.tsv must be one the check knows; a
 * list with a missing or unknown feature is refused and named; the vendor
 * query names CPUID's vendor string; the features a variant's engines need
 * imply the ones below them.  Where /proc/cpuinfo disagrees with CPUID
 * (a hypervisor may leave out flags CPUID reports, valgrind and emulators
 * report their own CPUID), the disagreement is printed, never a failure:
 * CPUID is the rule.  Run from the project directory.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cpu/cpu_check.h"
#include "cpu/cpu_facts.h"

static char cpuinfo_flags[8192];
static char cpuinfo_vendor[64];

static void read_cpuinfo_flags(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    cpuinfo_flags[0] = '\0';
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "vendor_id", 9) == 0 && cpuinfo_vendor[0] == '\0') {
            const char *colon = strchr(line, ':');
            snprintf(cpuinfo_vendor, sizeof cpuinfo_vendor, "%s", colon ? colon + 1 + strspn(colon + 1, " \t") : "");
            cpuinfo_vendor[strcspn(cpuinfo_vendor, "\n")] = '\0';
        }
        if (strncmp(line, "flags", 5) == 0) {
            char *colon = strchr(line, ':');
            snprintf(cpuinfo_flags, sizeof cpuinfo_flags, " %s", colon ? colon + 1 : "");
            cpuinfo_flags[strcspn(cpuinfo_flags, "\n")] = ' ';
            break;
        }
    }
    fclose(f);
}

#if defined(__x86_64__)
#include <cpuid.h>

static int in_cpuinfo(const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    return strstr(cpuinfo_flags, key) != NULL;
}

/* CPUID's vendor string, read here without the check's code. */
static void cpuid_vendor(char vendor[13])
{
    unsigned a, b, c, d;
    vendor[0] = '\0';
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = '\0';
}

/* CPUID's family as Linux shows it (base plus extended when the base is
 * 0xf), read here without the check's code. */
static unsigned cpuid_family(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned base = (a >> 8) & 0xf;
    return base == 0xf ? base + ((a >> 20) & 0xff) : base;
}
#endif

int main(void)
{
    char message[512], line[1024];
    int names = 0, disagreements = 0;
    read_cpuinfo_flags();
    FILE *table = fopen("src/cpu/variants.tsv", "r");
    CHECK(table != NULL, "cannot open src/cpu/variants.tsv (run from the project directory)");
    while (table != NULL && fgets(line, sizeof line, table) != NULL) {
        char *field[64];
        int n = 0;
        if (line[0] == '#')
            continue;
        for (char *t = strtok(line, " \t\n"); t != NULL && n < 64; t = strtok(NULL, " \t\n"))
            field[n++] = t;
        if (n < 7)
            continue;
        for (int i = 6; i < n; i++) {
            if (strcmp(field[i], "-") == 0)
                continue;
            names++;
#if defined(__x86_64__)
            if (strcmp(field[1], "x86_64") != 0)
                continue; /* another architecture's row */
            int has = jbigi_cpu_has(field[i]);
            CHECK(has >= 0, "%s (row %s) is not a feature the CPU check knows", field[i], field[0]);
            if (cpuinfo_flags[0] != '\0' && has >= 0 && has != in_cpuinfo(field[i])) {
                printf("# %s: CPUID says %s, /proc/cpuinfo %s (a VM, an emulator or valgrind): CPUID rules\n",
                       field[i], has ? "yes" : "no", has ? "no" : "yes");
                disagreements++;
            }
#endif
        }
    }
    if (table != NULL)
        fclose(table);
    CHECK(names > 0, "no features read from src/cpu/variants.tsv");
    if (disagreements > 0)
        printf("# /proc/cpuinfo disagrees with CPUID on %d of the table's feature names\n", disagreements);

    CHECK(jbigi_cpu_check_list("", message, sizeof message) == 0, "empty list refused: %s", message);
    CHECK(jbigi_cpu_check_list("-", message, sizeof message) == 0, "\"-\" refused: %s", message);
    CHECK(jbigi_cpu_check_list("no_such_feature", message, sizeof message) != 0, "unknown name accepted");
    CHECK(strstr(message, "no_such_feature (unknown)") != NULL, "message: %s", message);
#if defined(__x86_64__)
    CHECK(jbigi_cpu_check_list("sse2", message, sizeof message) == 0, "every x86-64 has SSE2: %s", message);
    CHECK(jbigi_cpu_check_list("sse2 no_such_feature", message, sizeof message) != 0, "list with unknown accepted");
    char vendor[13];
    cpuid_vendor(vendor);
    const char *want = strcmp(vendor, "GenuineIntel") == 0 ? "intel"
                       : strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0 ? "amd"
                                                                                                      : "other";
    CHECK(strcmp(jbigi_cpu_vendor(), want) == 0, "CPUID vendor %s, but jbigi_cpu_vendor() says %s", vendor,
          jbigi_cpu_vendor());
    CHECK((jbigi_cpu().vendor == JBIGI_CPU_VENDOR_AMD) == (strcmp(want, "amd") == 0),
          "vendor %s, but the facts' vendor is %u", vendor, (unsigned)jbigi_cpu().vendor);
    /* The facts are read once and kept: later calls give the same. */
    CHECK(strcmp(jbigi_cpu_vendor(), want) == 0, "jbigi_cpu_vendor() changed on a later call: %s", jbigi_cpu_vendor());
    const unsigned family = cpuid_family();
    CHECK(jbigi_cpu().family == family, "CPUID family %u, but the facts say %u", family, (unsigned)jbigi_cpu().family);
    printf("# vendor: %s (CPUID), %s (/proc/cpuinfo); family %u\n", vendor, cpuinfo_vendor[0] ? cpuinfo_vendor : "none",
           family);
    /* What the engines and the rows need implies what lies below it: a wrong
     * bit or register would break one of these. */
    if (jbigi_cpu_has("avx512ifma") == 1)
        CHECK(jbigi_cpu_has("avx512f") == 1 && jbigi_cpu_has("avx2") == 1, "avx512ifma without avx512f and avx2");
    if (jbigi_cpu_has("avx2") == 1)
        CHECK(jbigi_cpu_has("avx") == 1, "avx2 without avx");
    if (jbigi_cpu_has("avx") == 1)
        CHECK(jbigi_cpu_has("xsave") == 1 && jbigi_cpu_has("sse4_2") == 1, "avx without xsave and sse4_2");
    if (jbigi_cpu_has("sse4_2") == 1)
        CHECK(jbigi_cpu_has("sse4_1") == 1 && jbigi_cpu_has("ssse3") == 1, "sse4_2 without sse4_1 and ssse3");
    /* Every name the check lists is one it answers for. */
    for (size_t i = 0; jbigi_cpu_feature_name(i) != NULL; i++)
        CHECK(jbigi_cpu_has(jbigi_cpu_feature_name(i)) >= 0, "listed but unknown: %s", jbigi_cpu_feature_name(i));
    CHECK(jbigi_cpu_has("sse2") == 1 && jbigi_cpu_feature_name(0) != NULL, "no sse2 on x86-64");
#elif defined(__arm__)
    /* The armhf row's one feature; qemu-arm and every armhf machine but an ARMv6 have it. */
    int v7 = jbigi_cpu_has("armv7");
    CHECK(v7 >= 0, "armv7 is not a feature the CPU check knows");
    printf("# armv7: %s\n", v7 == 1 ? "yes" : "no (an ARMv6)");
#endif
    /* Built without a variant: nothing required, always fine. */
    CHECK(jbigi_cpu_check(message, sizeof message) == 0, "default variant refused: %s", message);
    CHECK(strcmp(jbigi_cpu_variant(), "none") == 0, "variant %s", jbigi_cpu_variant());
    return finish("test_cpu_check");
}
