/*
 * posix.c - platform.h on Linux and other POSIX systems: explicit_bzero,
 * aligned_alloc, mmap'd pages, one pthread mutex for the process and a
 * condition variable for waiting.  No symbol newer than the library
 * already needs (platform.h says why).
 */
#define _DEFAULT_SOURCE /* explicit_bzero, MAP_ANONYMOUS, getauxval */
#include "platform/platform.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void jbigi_secure_zero(void *p, size_t n)
{
    explicit_bzero(p, n);
}

void *jbigi_aligned_alloc(size_t alignment, size_t size)
{
    return aligned_alloc(alignment, size);
}

void jbigi_aligned_free(void *p)
{
    free(p);
}

size_t jbigi_page_size(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

void *jbigi_pages_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void jbigi_pages_free(void *p, size_t bytes)
{
    munmap(p, bytes);
}

static pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;

void jbigi_process_lock(void)
{
    pthread_mutex_lock(&process_lock);
}

void jbigi_process_unlock(void)
{
    pthread_mutex_unlock(&process_lock);
}

/* One mutex and condition variable for every waiter: the waits are rare
 * (a self-test or the first engine choice another thread is running). */
static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wait_cond = PTHREAD_COND_INITIALIZER;

void jbigi_wait_while(atomic_int *word, int value)
{
    if (atomic_load_explicit(word, memory_order_acquire) != value)
        return;
    pthread_mutex_lock(&wait_lock);
    while (atomic_load_explicit(word, memory_order_acquire) == value)
        pthread_cond_wait(&wait_cond, &wait_lock);
    pthread_mutex_unlock(&wait_lock);
}

void jbigi_store_and_wake(atomic_int *word, int value)
{
    pthread_mutex_lock(&wait_lock);
    atomic_store_explicit(word, value, memory_order_release);
    pthread_cond_broadcast(&wait_cond);
    pthread_mutex_unlock(&wait_lock);
}

uintptr_t jbigi_thread_self(void)
{
    /* pthread_t is an integer (glibc, musl) or a pointer (the BSDs). */
    return (uintptr_t)pthread_self();
}

#if (defined(__arm__) || defined(__aarch64__)) && \
    (defined(__SSP__) || defined(__SSP_STRONG__) || defined(__SSP_ALL__) || defined(__SSP_EXPLICIT__))
#include <sys/auxv.h>

/* The stack protector's canary.  On ARM, gcc reads it from the global
 * __stack_chk_guard, which glibc defines in its dynamic loader
 * (ld-linux-*.so), not in libc.so.6: taken from there, it would make the
 * library need that file, which musl's loader refuses.  So the library
 * keeps its own, hidden, taken from the 16 random bytes the kernel gives
 * each process (AT_RANDOM), where glibc and musl take theirs from; its
 * lowest byte zero as theirs, so that a string copy past a buffer cannot
 * write it.  It is set by JNI_OnLoad, not by a constructor: the armhf
 * library runs no code at load (the Makefile's -nostartfiles), so that an
 * ARMv6 meets its CPU check first.  Until then it is zero, which every
 * function checks against consistently; this one has no canary, since it
 * changes the value its own check would read. */
__attribute__((visibility("hidden"))) uintptr_t __stack_chk_guard;

JBIGI_NO_STACK_PROTECTOR void jbigi_seed_stack_guard(void)
{
    const unsigned char *random = (const unsigned char *)getauxval(AT_RANDOM);
    uintptr_t guard = (uintptr_t)0xff0a0000u; /* no random bytes: a canary a string copy cannot forge */
    if (random != NULL)
        memcpy(&guard, random, sizeof guard);
    __stack_chk_guard = guard & ~(uintptr_t)0xff;
}
#else
/* The C library's canary, set by its loader. */
void jbigi_seed_stack_guard(void)
{
}
#endif
