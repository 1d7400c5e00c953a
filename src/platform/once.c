/*
 * once.c - jbigi_once (platform.h): something run once per process, over
 * the platform's waiting (posix.c, windows.c), the same on every OS.
 *
 * The flag's states: NEW (nothing run, or the last run could not finish),
 * RUNNING (one thread runs fn; the others wait), DONE (for good).  Only the
 * thread that moved NEW to RUNNING leaves RUNNING, through
 * jbigi_store_and_wake, so a waiter never misses the end of a run.
 */
#include "platform/platform.h"

#define ONCE_NEW 0
#define ONCE_RUNNING 1
#define ONCE_DONE 2

int jbigi_once(jbigi_once_flag *flag, int (*fn)(void *arg), void *arg)
{
    for (;;) {
        const int state = atomic_load_explicit(&flag->state, memory_order_acquire);
        if (state == ONCE_DONE)
            return 1;
        if (state == ONCE_RUNNING) {
            jbigi_wait_while(&flag->state, ONCE_RUNNING);
            continue;
        }
        int expected = ONCE_NEW;
        if (!atomic_compare_exchange_strong_explicit(&flag->state, &expected, ONCE_RUNNING, memory_order_acq_rel,
                                                     memory_order_acquire))
            continue;
        const int done = fn(arg);
        jbigi_store_and_wake(&flag->state, done ? ONCE_DONE : ONCE_NEW);
        return done;
    }
}
