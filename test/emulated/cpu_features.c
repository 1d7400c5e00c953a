/*
 * cpu_features.c - prints which of the named CPU features CPUID reports,
 * through the library's own check, as /proc/cpuinfo would list them; with
 * "--vendor", CPUID's vendor string instead.  Run under qemu-x86_64 -cpu
 * MODEL by run.sh to learn what an emulated CPU is.
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#include "cpu_check.h"

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--vendor") == 0) {
        unsigned a, b, c, d;
        char vendor[13];
        __cpuid(0, a, b, c, d);
        (void)a;
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &d, 4);
        memcpy(vendor + 8, &c, 4);
        vendor[12] = '\0';
        printf("%s\n", vendor);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (jbigi_cpu_has(argv[i]) == 1)
            printf("%s ", argv[i]);
    }
    printf("\n");
    return 0;
}
