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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if JBIGI_GMP_MEMORY_GUARDED

/*
 * The guards now running, innermost first, each with its thread: GMP's
 * allocation functions take no context, so a failing allocation finds its
 * own thread's innermost guard here.  A list under the process lock rather
 * than a _Thread_local: thread-local storage would make the library need
 * the dynamic loader's __tls_get_addr (platform.h).  Each guard lives on
 * its caller's stack and is linked before its setjmp and unlinked before
 * jbigi_run_guarded returns, either way.
 */
struct guard {
    jmp_buf *escape;
    uintptr_t thread;
    struct guard *prev, *next;
};
static struct guard *guards;

static void link_guard(struct guard *g)
{
    jbigi_process_lock();
    g->prev = NULL;
    g->next = guards;
    if (guards != NULL)
        guards->prev = g;
    guards = g;
    jbigi_process_unlock();
}

static void unlink_guard(struct guard *g)
{
    jbigi_process_lock();
    if (g->prev != NULL)
        g->prev->next = g->next;
    else
        guards = g->next;
    if (g->next != NULL)
        g->next->prev = g->prev;
    jbigi_process_unlock();
}

/* This thread's innermost guard's jump buffer, or NULL outside any. */
static jmp_buf *escape_of_this_thread(void)
{
    const uintptr_t self = jbigi_thread_self();
    jmp_buf *escape = NULL;
    jbigi_process_lock();
    for (const struct guard *g = guards; g != NULL && escape == NULL; g = g->next)
        if (g->thread == self)
            escape = g->escape;
    jbigi_process_unlock();
    return escape;
}

/* GMP cannot take an allocation failure back: leave through the guard, or,
 * outside any guard, say why and stop as GMP itself would. */
static void out_of_memory(size_t size)
{
    jmp_buf *escape = escape_of_this_thread();
    if (escape != NULL)
        longjmp(*escape, 1);
    fprintf(stderr, "jbigi: cannot allocate %zu bytes for GMP\n", size);
    abort();
}

enum jbigi_status jbigi_run_guarded(jbigi_guarded_fn fn, void *context)
{
    jmp_buf here;
    struct guard guard = {&here, jbigi_thread_self(), NULL, NULL};
    /* Linked first: nothing between here and setjmp allocates through GMP. */
    link_guard(&guard);
    if (setjmp(here) != 0) {
        unlink_guard(&guard);
        return JBIGI_NO_MEMORY;
    }
    enum jbigi_status status = fn(context);
    unlink_guard(&guard);
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
