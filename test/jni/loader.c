/*
 * loader.c - dlopen/dlsym on Linux, LoadLibraryA/GetProcAddress on
 * Windows.  Nothing else in the harness calls the operating system beyond
 * C11's stdio and stdlib.
 */
#include "loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

struct loader_library {
    HMODULE module;
};

struct loader_library *loader_open(const char *path, char *error, size_t error_size)
{
    HMODULE module = LoadLibraryA(path);
    if (module == NULL) {
        snprintf(error, error_size, "LoadLibraryA(\"%s\") failed with Windows error %lu", path,
                 (unsigned long)GetLastError());
        return NULL;
    }
    struct loader_library *lib = malloc(sizeof *lib);
    if (lib == NULL) {
        FreeLibrary(module);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    lib->module = module;
    return lib;
}

loader_fn loader_symbol(struct loader_library *lib, const char *name)
{
    /* FARPROC to void (*)(void): the one function pointer type any other
     * converts to without a warning; the caller converts it back. */
    return (loader_fn)GetProcAddress(lib->module, name);
}

#else

#include <dlfcn.h>

struct loader_library {
    void *handle;
};

struct loader_library *loader_open(const char *path, char *error, size_t error_size)
{
    /* RTLD_NOW: a missing symbol inside the library fails here, not in
     * the middle of a test.  RTLD_LOCAL, as the JVM loads JNI libraries. */
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(error, error_size, "dlopen: %s", dlerror());
        return NULL;
    }
    struct loader_library *lib = malloc(sizeof *lib);
    if (lib == NULL) {
        dlclose(handle);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    lib->handle = handle;
    return lib;
}

loader_fn loader_symbol(struct loader_library *lib, const char *name)
{
    /* dlsym gives a void *; POSIX guarantees it converts to a function
     * pointer, which C11 cannot spell without a cast it warns about under
     * -pedantic: memcpy says the same without one. */
    void *address = dlsym(lib->handle, name);
    loader_fn fn;
    _Static_assert(sizeof fn == sizeof address, "function and object pointers differ in size");
    memcpy(&fn, &address, sizeof fn);
    return fn;
}

#endif
