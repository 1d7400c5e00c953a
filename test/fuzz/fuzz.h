/*
 * fuzz.h - what the libFuzzer targets share: a check that aborts (which
 * libFuzzer reports as a crash, saving the input) with the target's name and
 * a message, and the start-up every target needs.
 */
#ifndef JBIGI_FUZZ_H
#define JBIGI_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "core/wipe.h"

/* Each target defines FUZZ_TARGET_NAME, its name in reports, before
 * including this. */
#define REQUIRE(cond, ...)                             \
    do {                                               \
        if (!(cond)) {                                 \
            fprintf(stderr, "%s: ", FUZZ_TARGET_NAME); \
            fprintf(stderr, __VA_ARGS__);              \
            fputc('\n', stderr);                       \
            abort();                                   \
        }                                              \
    } while (0)

/* The library runs with the wiping allocator (JNI_OnLoad installs it). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    jbigi_install_wiping_allocator();
    return 0;
}

#endif
