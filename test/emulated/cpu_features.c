/*
 * cpu_features.c - prints which of the named CPU features CPUID reports,
 * through the library's own check.  Run under qemu-x86_64 -cpu MODEL by
 * run.sh to learn what an emulated CPU has.
 */
#include <stdio.h>

#include "cpu_check.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (jbigi_cpu_has(argv[i]) == 1)
            printf("%s ", argv[i]);
    }
    printf("\n");
    return 0;
}
