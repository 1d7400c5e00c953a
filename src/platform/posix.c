/*
 * posix.c - platform.h on Linux and other POSIX systems: explicit_bzero,
 * aligned_alloc, mmap'd pages, one pthread mutex for the process and a
 * condition variable for waiting.  No symbol newer than the library
 * already needs (platform.h says why).
 */
#define _DEFAULT_SOURCE /* explicit_bzero, MAP_ANONYMOUS */
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
