/*
 * cpu_probe.c - this CPU as the library's own check sees it (cpu_check.c),
 * for the build and the tests, so that nothing reads the CPU another way.
 *
 *   cpu_probe                     the features the check knows that this CPU has,
 *                                 space-separated, named as /proc/cpuinfo names them
 *   cpu_probe --vendor            intel, amd or other
 *   cpu_probe --variant TABLE     the first row of TABLE (src/cpu/variants.tsv) this
 *                                 CPU runs, as the Java loader ranks the rows: its
 *                                 architecture's rows for its vendor, then those
 *                                 for the other vendor, then those for any CPU
 *   cpu_probe --runs TABLE CPU    exit 0 if this CPU runs row CPU of TABLE, 1 if not
 *
 * Built for the baseline of the architecture, like cpu_check.c.
 */
#include <stdio.h>
#include <string.h>

#include "cpu/cpu_check.h"

#if defined(__x86_64__)
#define HOST_ARCH "x86_64"
#elif defined(__aarch64__)
#define HOST_ARCH "aarch64"
#elif defined(__arm__)
#define HOST_ARCH "armhf"
#else
#define HOST_ARCH "unknown"
#endif

/* One row of the table: the columns the choice needs. */
struct row {
    char cpu[64], arch[32], vendor[32];
    char features[512];
};

/* Reads the next row of the table into r; 0 at the end. */
static int next_row(FILE *table, struct row *r)
{
    char line[1024];
    while (fgets(line, sizeof line, table) != NULL) {
        char *field[64];
        int n = 0;
        if (line[0] == '#')
            continue;
        for (char *t = strtok(line, " \t\r\n"); t != NULL && n < 64; t = strtok(NULL, " \t\r\n"))
            field[n++] = t;
        if (n < 7)
            continue;
        snprintf(r->cpu, sizeof r->cpu, "%s", field[0]);
        snprintf(r->arch, sizeof r->arch, "%s", field[1]);
        snprintf(r->vendor, sizeof r->vendor, "%s", field[5]);
        r->features[0] = '\0';
        for (int i = 6; i < n; i++) {
            size_t used = strlen(r->features);
            snprintf(r->features + used, sizeof r->features - used, "%s%s", used ? " " : "", field[i]);
        }
        return 1;
    }
    return 0;
}

static int runs(const struct row *r)
{
    char missing[512];
    return strcmp(r->arch, HOST_ARCH) == 0 && jbigi_cpu_check_list(r->features, missing, sizeof missing) == 0;
}

/* 0: rows for this vendor, 1: for the other vendor, 2: for any CPU. */
static int group(const struct row *r, const char *vendor)
{
    return strcmp(r->vendor, vendor) == 0 ? 0 : strcmp(r->vendor, "any") == 0 ? 2 : 1;
}

static FILE *open_table(const char *path)
{
    FILE *table = fopen(path, "r");
    if (table == NULL)
        fprintf(stderr, "cpu_probe: cannot read %s\n", path);
    return table;
}

static int print_variant(const char *path)
{
    const char *vendor = jbigi_cpu_vendor();
    for (int g = 0; g < 3; g++) {
        struct row r;
        FILE *table = open_table(path);
        if (table == NULL)
            return 2;
        while (next_row(table, &r)) {
            if (group(&r, vendor) == g && runs(&r)) {
                fclose(table);
                printf("%s\n", r.cpu);
                return 0;
            }
        }
        fclose(table);
    }
    fprintf(stderr, "cpu_probe: no row of %s runs on this %s CPU\n", path, HOST_ARCH);
    return 1;
}

static int check_row(const char *path, const char *cpu)
{
    struct row r;
    FILE *table = open_table(path);
    if (table == NULL)
        return 2;
    while (next_row(table, &r)) {
        if (strcmp(r.cpu, cpu) == 0) {
            fclose(table);
            return runs(&r) ? 0 : 1;
        }
    }
    fclose(table);
    fprintf(stderr, "cpu_probe: no row %s in %s\n", cpu, path);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--vendor") == 0) {
        printf("%s\n", jbigi_cpu_vendor());
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--variant") == 0)
        return print_variant(argv[2]);
    if (argc == 4 && strcmp(argv[1], "--runs") == 0)
        return check_row(argv[2], argv[3]);
    if (argc != 1) {
        fprintf(stderr, "usage: cpu_probe [--vendor | --variant TABLE | --runs TABLE CPU]\n");
        return 2;
    }
    const char *sep = "";
    for (size_t i = 0; jbigi_cpu_feature_name(i) != NULL; i++) {
        if (jbigi_cpu_has(jbigi_cpu_feature_name(i)) == 1) {
            printf("%s%s", sep, jbigi_cpu_feature_name(i));
            sep = " ";
        }
    }
    printf("\n");
    return 0;
}
