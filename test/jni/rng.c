/*
 * rng.c - splitmix64 (Steele, Lea and Flood's generator): tiny, and good
 * enough to spread test operands.
 */
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t state;

void rng_init(void)
{
    const char *text = getenv("JBIGI_TEST_SEED");
    uint64_t seed = text != NULL ? strtoull(text, NULL, 0) : (uint64_t)time(NULL);
    printf("# random cases: seed %llu (JBIGI_TEST_SEED=%llu replays them)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    state = seed;
}

uint64_t rng_next(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t rng_below(uint64_t bound)
{
    return rng_next() % bound; /* the bias is immaterial for test operands */
}

void rng_fill(unsigned char *out, size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = (unsigned char)(rng_next() >> 56);
}

unsigned long rng_scaled(unsigned long count)
{
    const char *text = getenv("JBIGI_TEST_SCALE");
    long percent = text != NULL ? strtol(text, NULL, 10) : 100;
    if (percent <= 0 || percent > 100)
        percent = 100;
    unsigned long n = count * (unsigned long)percent / 100;
    return n > 0 ? n : 1;
}
