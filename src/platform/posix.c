/*
 * posix.c - platform.h on Linux and other POSIX systems.
 */
#define _DEFAULT_SOURCE /* explicit_bzero, MAP_ANONYMOUS */
#include "platform/platform.h"

#include <pthread.h>
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
