/*
 * bench_clock.c - the monotonic clock of bench.c, the one place of the
 * benchmark that knows the operating system.
 */
#ifndef _WIN32
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#endif

#include "bench_clock.h"

#ifdef _WIN32

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

double bench_clock_seconds(void)
{
    /* The frequency is fixed at boot; asked once. */
    static double period;
    if (period == 0.0) {
        LARGE_INTEGER frequency;
        QueryPerformanceFrequency(&frequency);
        period = 1.0 / (double)frequency.QuadPart;
    }
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart * period;
}

#else

#include <time.h>

double bench_clock_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

#endif
