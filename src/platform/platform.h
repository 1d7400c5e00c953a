/*
 * platform.h - what the library needs of the operating system, in one
 * place: memory that is wiped however the compiler optimises, 64-byte
 * aligned heap blocks, whole pages of their own, and one process-wide lock.
 * posix.c implements it on Linux and the BSDs, windows.c on Windows; the
 * rest of the library includes no OS header for these.
 */
#ifndef JBIGI_PLATFORM_H
#define JBIGI_PLATFORM_H

#include <stddef.h>

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

#endif
