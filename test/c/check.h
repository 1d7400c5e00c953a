/*
 * check.h - the few helpers the C tests share: counted checks, a seeded
 * generator, and the closing "N passed, N failed" line (with ", N skipped"
 * when checks could not run here).
 */
#ifndef JBIGI_TEST_CHECK_H
#define JBIGI_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long checks_passed, checks_failed, checks_skipped;

/* Counts one check; prints the failing ones with where they are. */
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            checks_passed++;                                               \
        } else {                                                           \
            checks_failed++;                                               \
            if (checks_failed <= 20) {                                     \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);       \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)

/* Counts n checks that cannot run on this machine (for example for lack of
 * a CPU feature) as skipped, and prints why: the run's summary shows them. */
#define SKIP(n, ...)                                                       \
    do {                                                                   \
        checks_skipped += (n);                                             \
        printf("# SKIP %lu: ", (unsigned long)(n));                        \
        printf(__VA_ARGS__);                                               \
        putchar('\n');                                                     \
    } while (0)

/* xorshift64*: reproducible from the printed seed. */
static uint64_t rng_state;

static inline void rng_seed(uint64_t seed)
{
    rng_state = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

static inline uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

static inline void rng_bytes(uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = (uint8_t)(rng_next() >> 56);
}

/* The seed from JBIGI_TEST_SEED, or a fresh one; printed so a failure replays. */
static inline uint64_t test_seed(const char *name)
{
    const char *env = getenv("JBIGI_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    printf("# %s: seed %llu (replay with JBIGI_TEST_SEED=%llu)\n", name,
           (unsigned long long)seed, (unsigned long long)seed);
    rng_seed(seed);
    return seed;
}

/* How many of count random cases to run: JBIGI_TEST_SCALE percent of them
 * (default 100), at least one.  check-native.sh lowers it under valgrind. */
static inline long test_scale(long count)
{
    const char *env = getenv("JBIGI_TEST_SCALE");
    long percent = env ? strtol(env, NULL, 10) : 100;
    long n = percent > 0 ? count * percent / 100 : count;
    return n > 0 ? n : 1;
}

/* Whether to run one case of a fixed list (sizes, engines, shapes): always
 * at JBIGI_TEST_SCALE 100 (the default), else with that percent's chance,
 * drawn from the seeded generator, so a scaled run (valgrind) tries a
 * different part of the list each time and a failure replays. */
static inline int test_sample(void)
{
    const long percent = test_scale(100);
    return percent >= 100 || (long)(rng_next() % 100) < percent;
}

static inline int finish(const char *name)
{
    printf("# %s\n%lu passed, %lu failed", name, checks_passed, checks_failed);
    if (checks_skipped)
        printf(", %lu skipped", checks_skipped);
    putchar('\n');
    return checks_failed == 0 ? 0 : 1;
}

#endif
