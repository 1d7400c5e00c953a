/*
 * ifma_none.c - the IFMA engine's entry points for builds without the
 * engine: 32-bit targets (armhf), whose GMP limbs are 32 bits wide while the
 * engine and the fixed-base tables are written for 64-bit limbs.  The
 * engine is never available here, so the registry (registry.c) never
 * chooses it.  Linked instead of every other file of this folder (see the
 * Makefile's LIMB32_OMITTED).
 */
#include "engines/engine.h"
#include "engines/ifma/ifma.h"

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

int jbigi_ifma_powm_sec_bits(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                             const mp_limb_t *m, mp_size_t n)
{
    (void)r, (void)b, (void)e, (void)ebits, (void)m, (void)n;
    return JBIGI_IFMA_UNSUPPORTED;
}

/* The engine's row (engine.h): never available, so never chosen. */
static int none_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    (void)r, (void)base, (void)exp, (void)m;
    return JBIGI_ENGINE_UNSUPPORTED;
}

static int none_powm_sec(mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn, const mp_limb_t *e, size_t ebits,
                         const mp_limb_t *m, mp_size_t n)
{
    (void)rp, (void)b, (void)bn, (void)e, (void)ebits, (void)m, (void)n;
    return JBIGI_ENGINE_UNSUPPORTED;
}

static int never_failed(void)
{
    return 0;
}

const jbigi_engine jbigi_ifma_engine = {
    .name = "avx512-ifma",
    .alias = "ifma",
    .forcible = 1,
    .max_limbs = JBIGI_IFMA_MAX_LIMBS,
    .available = jbigi_ifma_available,
    .selftest_failed = never_failed,
    .powm = none_powm,
    .powm_sec = none_powm_sec,
    .powm_base2 = NULL,
    .table_format = NULL,
    .table_ctx_init = NULL,
    .table_ctx_clear = NULL,
    .mont = NULL,
};
