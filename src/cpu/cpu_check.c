/*
 * cpu_check.c - the CPU check behind JNI_OnLoad (see cpu_check.h), over
 * this CPU's facts (cpu_facts.h).
 *
 * JBIGI_VARIANT, JBIGI_RESOURCE and JBIGI_FEATURES come from the build (the Makefile reads
 * them from src/cpu/variants.tsv).  This file must not be compiled with -march
 * or linked with anything that is: it runs before the CPU is known to be
 * able to run the rest of the library.
 */
#include "cpu/cpu_check.h"

#include <stdio.h>
#include <string.h>

#include "cpu/cpu_facts.h"

#ifndef JBIGI_VARIANT
#define JBIGI_VARIANT "none"
#endif
#ifndef JBIGI_RESOURCE
#define JBIGI_RESOURCE "libjbigi-linux-" JBIGI_VARIANT "_64.so"
#endif
#ifndef JBIGI_FEATURES
#define JBIGI_FEATURES ""
#endif

/* The facts' bits, 32 of them at most. */
#define BITS 32

int jbigi_cpu_has(const char *name)
{
    for (unsigned i = 0; i < BITS; i++) {
        const char *known = jbigi_cpu_bit_name(i);
        if (known != NULL && strcmp(name, known) == 0)
            return jbigi_cpu_has_all(UINT32_C(1) << i);
    }
    return -1;
}

const char *jbigi_cpu_feature_name(size_t i)
{
    for (unsigned b = 0; b < BITS; b++) {
        const char *known = jbigi_cpu_bit_name(b);
        if (known != NULL && i-- == 0)
            return known;
    }
    return NULL;
}

const char *jbigi_cpu_vendor(void)
{
    switch (jbigi_cpu().vendor) {
    case JBIGI_CPU_VENDOR_INTEL:
        return "intel";
    case JBIGI_CPU_VENDOR_AMD:
        return "amd";
    default:
        return "other";
    }
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
