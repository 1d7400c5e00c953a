/*
 * rng.h - the harness's random numbers: splitmix64, reproducible from the
 * seed it prints (JBIGI_TEST_SEED replays a run, as for the C tests), and
 * the share of random cases to run (JBIGI_TEST_SCALE percent: lower under
 * valgrind).
 */
#ifndef JNI_HARNESS_RNG_H
#define JNI_HARNESS_RNG_H

#include <stddef.h>
#include <stdint.h>

/* Seeds from JBIGI_TEST_SEED, else from the clock; prints the seed. */
void rng_init(void);

uint64_t rng_next(void);

/* A number below bound (bound > 0). */
uint64_t rng_below(uint64_t bound);

void rng_fill(unsigned char *out, size_t len);

/* count scaled by JBIGI_TEST_SCALE percent (default 100), at least 1. */
unsigned long rng_scaled(unsigned long count);

#endif
