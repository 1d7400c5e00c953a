/*
 * wipe.c - zero-before-free memory functions for GMP.
 *
 * GMP tells its free and realloc functions the exact size of each block, so
 * the whole block can be cleared.  realloc cannot be left to the C library:
 * a moving realloc would free the old block with its contents intact, so it
 * becomes allocate, copy, wipe, free.
 *
 * What this does not cover: temporaries GMP takes from the stack (alloca,
 * blocks under 32,512 bytes in a default build), which the next call reuses
 * at once; and blocks held by a call that ran out of memory (see
 * jbigi_run_guarded).
 */
#include "core/wipe.h"
#include "platform/platform.h"

#include <gmp.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if JBIGI_GMP_MEMORY_GUARDED

/* Where this thread's innermost jbigi_run_guarded waits, or NULL. */
static _Thread_local jmp_buf *escape;

/* GMP cannot take an allocation failure back: leave through the guard, or,
 * outside any guard, say why and stop as GMP itself would. */
static void out_of_memory(size_t size)
{
    if (escape != NULL)
        longjmp(*escape, 1);
    fprintf(stderr, "jbigi: cannot allocate %zu bytes for GMP\n", size);
    abort();
}

enum jbigi_status jbigi_run_guarded(jbigi_guarded_fn fn, void *context)
{
    jmp_buf here;
    jmp_buf *volatile outer = escape; /* read again after a longjmp */
    if (setjmp(here) != 0) {
        escape = outer;
        return JBIGI_NO_MEMORY;
    }
    escape = &here;
    enum jbigi_status status = fn(context);
    escape = outer;
    return status;
}

static void *wiping_alloc(size_t size)
{
    void *p = malloc(size);
    if (p == NULL)
        out_of_memory(size);
    return p;
}

static void *wiping_realloc(void *old, size_t old_size, size_t new_size)
{
    void *p = wiping_alloc(new_size);
    memcpy(p, old, old_size < new_size ? old_size : new_size);
    jbigi_secure_zero(old, old_size);
    free(old);
    return p;
}

static void wiping_free(void *p, size_t size)
{
    /* jbigi_secure_zero, unlike memset, is not removed as a dead store. */
    jbigi_secure_zero(p, size);
    free(p);
}

void jbigi_install_wiping_allocator(void)
{
    mp_set_memory_functions(wiping_alloc, wiping_realloc, wiping_free);
}

#else /* a shared libgmp: its memory functions are not ours to change */

enum jbigi_status jbigi_run_guarded(jbigi_guarded_fn fn, void *context)
{
    return fn(context);
}

void jbigi_install_wiping_allocator(void)
{
}

#endif
