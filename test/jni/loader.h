/*
 * loader.h - opening the library under test and finding its symbols: the
 * one place that knows the operating system (dlopen on Linux, LoadLibraryA
 * on Windows), so the rest of the harness is plain C11.
 */
#ifndef JNI_HARNESS_LOADER_H
#define JNI_HARNESS_LOADER_H

#include <stddef.h>

/* A function pointer of no particular type: what a symbol is found as,
 * before the caller gives it its real type (natives.c). */
typedef void (*loader_fn)(void);

struct loader_library;

/* Opens the library at path; NULL with why (error_size bytes) if it cannot. */
struct loader_library *loader_open(const char *path, char *error, size_t error_size);

/* The exported function name, or NULL if the library has none. */
loader_fn loader_symbol(struct loader_library *lib, const char *name);

#endif
