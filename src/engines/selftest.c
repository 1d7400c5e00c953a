/*
 * selftest.c - the engines' known-answer self-tests run once per process
 * (engine.h: jbigi_selftest_once).
 *
 * Only the thread that claimed the test (UNKNOWN to RUNNING) leaves
 * RUNNING, through jbigi_store_and_wake, so a caller waiting for the
 * outcome never misses it.
 */
#include "engines/engine.h"

#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

/* Running state: the first caller claimed the test. */
#define SELFTEST_RUNNING (-2)

int jbigi_selftest_once(atomic_int *state, int (*test)(int corrupt), const char *fault_variable)
{
    for (;;) {
        const int v = atomic_load_explicit(state, memory_order_acquire);
        if (v >= 0)
            return v;
        if (v == SELFTEST_RUNNING) { /* another thread runs it: its outcome is this caller's */
            jbigi_wait_while(state, SELFTEST_RUNNING);
            continue;
        }
        int expected = JBIGI_SELFTEST_UNKNOWN;
        if (!atomic_compare_exchange_strong_explicit(state, &expected, SELFTEST_RUNNING, memory_order_acq_rel,
                                                     memory_order_acquire))
            continue;
        const char *fault = getenv(fault_variable);
        const int rc = test(fault != NULL && strcmp(fault, "1") == 0);
        if (rc < 0) { /* out of memory: nothing known, a later caller (or a waiter) asks again */
            jbigi_store_and_wake(state, JBIGI_SELFTEST_UNKNOWN);
            return JBIGI_SELFTEST_NOT_RUN;
        }
        const int outcome = rc == 0 ? JBIGI_SELFTEST_PASSED : JBIGI_SELFTEST_FAILED;
        jbigi_store_and_wake(state, outcome);
        return outcome;
    }
}
