/*
 * windows.c - platform.h on Windows (x86-64, built with mingw-w64).
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <malloc.h>

#include "platform/platform.h"

void jbigi_secure_zero(void *p, size_t n)
{
    /* SecureZeroMemory writes through a volatile pointer: never elided. */
    SecureZeroMemory(p, n);
}

void *jbigi_aligned_alloc(size_t alignment, size_t size)
{
    return _aligned_malloc(size, alignment);
}

void jbigi_aligned_free(void *p)
{
    _aligned_free(p);
}

size_t jbigi_page_size(void)
{
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return info.dwPageSize > 0 ? (size_t)info.dwPageSize : 4096;
}

void *jbigi_pages_alloc(size_t bytes)
{
    /* Committed pages are zero; reserved and committed together, so the
     * whole block is released with one call. */
    return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void jbigi_pages_free(void *p, size_t bytes)
{
    (void)bytes; /* MEM_RELEASE takes the whole reservation, and a size of 0 */
    VirtualFree(p, 0, MEM_RELEASE);
}

/* A slim reader/writer lock needs no initialisation call: SRWLOCK_INIT. */
static SRWLOCK process_lock = SRWLOCK_INIT;

void jbigi_process_lock(void)
{
    AcquireSRWLockExclusive(&process_lock);
}

void jbigi_process_unlock(void)
{
    ReleaseSRWLockExclusive(&process_lock);
}
