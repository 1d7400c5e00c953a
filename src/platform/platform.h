/*
 * platform.h - what the library needs of the operating system, in one
 * place: memory that is wiped however the compiler optimises, 64-byte
 * aligned heap blocks, whole pages of their own, one process-wide lock,
 * waiting for another thread, and the calling thread's identity.  posix.c
 * implements it on Linux and the BSDs, windows.c on Windows (once.c, over
 * the waiting, on both); the rest of the library includes no OS header for
 * these.
 *
 * What it may ask of the C library: on Linux nothing beyond libc.so.6, and
 * no symbol newer than the library already needs (pthread_once and the
 * pthread_key functions are GLIBC_2.34 in glibc's libc.so.6, so the once
 * below is built on a mutex and a condition variable, which are older);
 * no thread-local storage (a _Thread_local under the general-dynamic model
 * makes the library need ld-linux's __tls_get_addr, which musl's loader
 * refuses, and under mingw-w64 it becomes emutls).
 */
#ifndef JBIGI_PLATFORM_H
#define JBIGI_PLATFORM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Zeroes n bytes at p; never removed as a dead store. */
void jbigi_secure_zero(void *p, size_t n);

/* size bytes aligned to alignment (a power of two; size a multiple of
 * it), or NULL; released with jbigi_aligned_free only. */
void *jbigi_aligned_alloc(size_t alignment, size_t size);
void jbigi_aligned_free(void *p);

/* The system's page size. */
size_t jbigi_page_size(void);
/* bytes (a multiple of the page size) of fresh zeroed pages, mapped for
 * this block alone, or NULL; unmapped again by jbigi_pages_free, which
 * hands them back to the system at once. */
void *jbigi_pages_alloc(size_t bytes);
void jbigi_pages_free(void *p, size_t bytes);

/* One process-wide lock, for short sections that only read and write
 * memory (the record of live table blocks).  Never held across a call out. */
void jbigi_process_lock(void);
void jbigi_process_unlock(void);

/* Waiting for another thread: jbigi_wait_while returns once *word is not
 * value (at once if it is not now); jbigi_store_and_wake stores value in
 * *word and wakes every waiter.  A word some thread waits on is changed
 * only by jbigi_store_and_wake, so no wake-up is lost. */
void jbigi_wait_while(atomic_int *word, int value);
void jbigi_store_and_wake(atomic_int *word, int value);

/*
 * Runs something once per process (once.c).  jbigi_once(flag, fn, arg) runs
 * fn(arg) unless a run of fn on this flag has already returned 1; a caller
 * arriving while another thread runs it waits for that run.  fn returns 1
 * when its work is done for good, 0 when it could not be done (out of
 * memory): then the flag is as before and the next caller, a waiter
 * included, runs fn again.  jbigi_once returns what the run it saw
 * returned (1 when done before).  fn must not ask for the same flag, and
 * must return: a jump out of it (longjmp) would leave the flag running and
 * every later caller waiting.
 */
typedef struct jbigi_once_flag {
    atomic_int state;
} jbigi_once_flag;
#define JBIGI_ONCE_INIT {0}
int jbigi_once(jbigi_once_flag *flag, int (*fn)(void *arg), void *arg);

/* The calling thread, as a number no other live thread has. */
uintptr_t jbigi_thread_self(void);

/* A function without the stack protector's canary: one that must run
 * before the canary is set, and kernels whose arrays are indexed by
 * constants only (each use says why). */
#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define JBIGI_NO_STACK_PROTECTOR __attribute__((no_stack_protector))
#endif
#endif
#ifndef JBIGI_NO_STACK_PROTECTOR
#define JBIGI_NO_STACK_PROTECTOR
#endif

/* Sets the stack protector's canary where the library keeps its own (ARM,
 * posix.c); elsewhere nothing.  JNI_OnLoad calls it once, after the CPU
 * check has passed and before any other code of the library runs. */
void jbigi_seed_stack_guard(void);

#endif
