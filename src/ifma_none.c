/*
 * ifma_none.c - the IFMA engine's entry points for builds without the
 * engine: 32-bit targets (armhf), whose GMP limbs are 32 bits wide while the
 * engine and the fixed-base tables are written for 64-bit limbs.  The
 * engine is never available here, so the callers (engine.c, arith.c) always
 * take GMP's path.  Linked instead of ifma_cpu.c, ifma_selftest.c,
 * ifma_mont.c and ifma_powm.c (see the Makefile's LIMB32_OMITTED).
 */
#include "ifma.h"

int jbigi_ifma_cpu(void)
{
    return 0;
}

int jbigi_ifma_available(void)
{
    return 0;
}

int jbigi_ifma_selftest_result(void)
{
    return JBIGI_IFMA_SELFTEST_NOT_RUN;
}

/* Never called here (jbigi_ifma_cpu() is 0); -1: nothing known. */
int jbigi_ifma_selftest(int corrupt)
{
    (void)corrupt;
    return -1;
}

int jbigi_ifma_zen4(void)
{
    return 0;
}

int jbigi_ifma_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                    const mp_limb_t *m, mp_size_t n)
{
    (void)r, (void)b, (void)e, (void)en, (void)m, (void)n;
    return JBIGI_IFMA_UNSUPPORTED;
}

int jbigi_ifma_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                        const mp_limb_t *m, mp_size_t n)
{
    (void)r, (void)b, (void)e, (void)en, (void)m, (void)n;
    return JBIGI_IFMA_UNSUPPORTED;
}
