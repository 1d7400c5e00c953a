/*
 * windows.c - platform.h on Windows (x86-64, built with mingw-w64):
 * SecureZeroMemory, _aligned_malloc, VirtualAlloc'd pages, an SRW lock for
 * the process and a condition variable for waiting, so that no file outside
 * src/platform/ needs an #ifdef _WIN32.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>

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

/* One lock and condition variable for every waiter (posix.c's rule). */
static SRWLOCK wait_lock = SRWLOCK_INIT;
static CONDITION_VARIABLE wait_cond = CONDITION_VARIABLE_INIT;

void jbigi_wait_while(atomic_int *word, int value)
{
    if (atomic_load_explicit(word, memory_order_acquire) != value)
        return;
    AcquireSRWLockExclusive(&wait_lock);
    while (atomic_load_explicit(word, memory_order_acquire) == value)
        SleepConditionVariableSRW(&wait_cond, &wait_lock, INFINITE, 0);
    ReleaseSRWLockExclusive(&wait_lock);
}

void jbigi_store_and_wake(atomic_int *word, int value)
{
    AcquireSRWLockExclusive(&wait_lock);
    atomic_store_explicit(word, value, memory_order_release);
    WakeAllConditionVariable(&wait_cond);
    ReleaseSRWLockExclusive(&wait_lock);
}

uintptr_t jbigi_thread_self(void)
{
    return (uintptr_t)GetCurrentThreadId();
}

/* libssp, linked in, sets its own canary when it is first used. */
void jbigi_seed_stack_guard(void)
{
}
