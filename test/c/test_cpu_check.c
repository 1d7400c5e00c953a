/*
 * test_cpu_check.c - the CPU check behind JNI_OnLoad, on this CPU.
 *
 * Every feature named in src/variants.tsv must be one the check knows; on
 * x86-64 its CPUID answer must match /proc/cpuinfo here (outside a VM or an
 * emulator that lies, they agree); a list with a missing or unknown feature
 * is refused and named; the vendor query agrees with /proc/cpuinfo's
 * vendor_id.  Run from the project directory.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cpu_check.h"

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
static int in_cpuinfo(const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    return strstr(cpuinfo_flags, key) != NULL;
}
#endif

int main(void)
{
    char message[512], line[1024];
    int names = 0, hidden = 0;
    read_cpuinfo_flags();
    FILE *table = fopen("src/variants.tsv", "r");
    CHECK(table != NULL, "cannot open src/variants.tsv (run from the project directory)");
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
            if (cpuinfo_flags[0] != '\0' && has != in_cpuinfo(field[i])) {
                /* CPUID may hide what the hardware has (valgrind hides ADX, a VM may
                 * hide AVX): that is what the check is for.  Claiming what
                 * /proc/cpuinfo does not list would be a wrong bit. */
                CHECK(has == 0, "%s: CPUID says yes, /proc/cpuinfo no: wrong CPUID bit?", field[i]);
                printf("# %s: CPUID hides it, /proc/cpuinfo lists it (an emulator or VM?)\n", field[i]);
                hidden++;
            }
#endif
        }
    }
    if (table != NULL)
        fclose(table);
    CHECK(names > 0, "no features read from src/variants.tsv");
    CHECK(hidden * 4 < names, "CPUID hides %d of %d features /proc/cpuinfo lists: is the check broken?", hidden, names);

    CHECK(jbigi_cpu_check_list("", message, sizeof message) == 0, "empty list refused: %s", message);
    CHECK(jbigi_cpu_check_list("-", message, sizeof message) == 0, "\"-\" refused: %s", message);
    CHECK(jbigi_cpu_check_list("no_such_feature", message, sizeof message) != 0, "unknown name accepted");
    CHECK(strstr(message, "no_such_feature (unknown)") != NULL, "message: %s", message);
#if defined(__x86_64__)
    CHECK(jbigi_cpu_check_list("sse2", message, sizeof message) == 0, "every x86-64 has SSE2: %s", message);
    CHECK(jbigi_cpu_check_list("sse2 no_such_feature", message, sizeof message) != 0, "list with unknown accepted");
    if (cpuinfo_vendor[0] != '\0') {
        const int amd = strcmp(cpuinfo_vendor, "AuthenticAMD") == 0 || strcmp(cpuinfo_vendor, "HygonGenuine") == 0;
        CHECK(jbigi_cpu_is_amd() == amd, "vendor %s, but jbigi_cpu_is_amd() says %d", cpuinfo_vendor, jbigi_cpu_is_amd());
        printf("# vendor: %s\n", cpuinfo_vendor);
    }
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
