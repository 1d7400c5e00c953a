/*
 * selftest_random.h - the engines' known-answer self-tests draw their
 * inputs from one fixed sequence (xorshift64*): the same numbers in every
 * process, so a mismatch is reproducible.
 */
#ifndef JBIGI_SELFTEST_RANDOM_H
#define JBIGI_SELFTEST_RANDOM_H

#include <stdint.h>

static inline uint64_t jbigi_selftest_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(0x2545f4914f6cdd1d);
}

#endif
