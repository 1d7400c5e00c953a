/*
 * bench_clock.h - a monotonic clock for bench.c: clock_gettime
 * (CLOCK_MONOTONIC) on Linux, QueryPerformanceCounter on Windows.
 */
#ifndef JNI_HARNESS_BENCH_CLOCK_H
#define JNI_HARNESS_BENCH_CLOCK_H

/* Seconds since an arbitrary fixed point; only differences mean anything. */
double bench_clock_seconds(void);

#endif
