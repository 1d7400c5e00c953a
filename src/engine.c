/*
 * engine.c - the per-call engine choice, see engine.h.
 */
#include "engine.h"

#include <stdatomic.h>

#include "ifma.h"

/* The one switch, set at load: atomic so that late readers see it whole. */
static atomic_int gmp_forced;

void jbigi_engine_force_gmp(int force)
{
    atomic_store(&gmp_forced, force != 0);
}

int jbigi_engine_ifma_takes(mp_size_t n)
{
    return !atomic_load_explicit(&gmp_forced, memory_order_relaxed) && jbigi_ifma_takes(n);
}

const char *jbigi_engine_name(void)
{
    return !atomic_load(&gmp_forced) && jbigi_ifma_available() ? "avx512-ifma" : "gmp";
}

const char *jbigi_engine_note(void)
{
    if (jbigi_ifma_selftest_result() == JBIGI_IFMA_SELFTEST_FAILED)
        return "avx512-ifma switched off: its known-answer self-test failed on this CPU";
    return "";
}
