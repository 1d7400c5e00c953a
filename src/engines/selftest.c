/*
 * selftest.c - the engines' known-answer self-tests run once per process
 * (engine.h: jbigi_selftest_once).
 */
#include "engines/engine.h"

#include <stdlib.h>
#include <string.h>

/* Running state: the first caller claimed the test. */
#define SELFTEST_RUNNING (-2)

int jbigi_selftest_once(atomic_int *state, int (*test)(int corrupt), const char *fault_variable)
{
    int v = atomic_load_explicit(state, memory_order_acquire);
    if (v >= 0)
        return v;
    int expected = JBIGI_SELFTEST_UNKNOWN;
    if (v == SELFTEST_RUNNING ||
        !atomic_compare_exchange_strong_explicit(state, &expected, SELFTEST_RUNNING, memory_order_acq_rel,
                                                 memory_order_acquire))
        return expected >= 0 ? expected : JBIGI_SELFTEST_NOT_RUN; /* stored meanwhile, or running */
    const char *fault = getenv(fault_variable);
    const int rc = test(fault != NULL && strcmp(fault, "1") == 0);
    if (rc < 0) { /* out of memory: nothing known, a later caller asks again */
        atomic_store_explicit(state, JBIGI_SELFTEST_UNKNOWN, memory_order_release);
        return JBIGI_SELFTEST_NOT_RUN;
    }
    v = rc == 0 ? JBIGI_SELFTEST_PASSED : JBIGI_SELFTEST_FAILED;
    atomic_store_explicit(state, v, memory_order_release);
    return v;
}
