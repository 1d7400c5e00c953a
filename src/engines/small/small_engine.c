/*
 * small_engine.c - the one- and two-limb code (small_powm.c) as an engine
 * (engine.h): variable time only, no tables; the registry gives it one
 * limb.
 */
#include "engines/engine.h"
#include "engines/small/small_powm.h"

static int small_engine_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    const mp_size_t n = (mp_size_t)mpz_size(m);
    if (n > JBIGI_SMALL_MAX_LIMBS)
        return JBIGI_ENGINE_UNSUPPORTED;
    /* The base reduced into [0, m) on the stack: no allocation at this size. */
    mp_limb_t b[JBIGI_SMALL_MAX_LIMBS] = {0};
    jbigi_engine_reduce_base(b, base, m);
    mp_limb_t rp[JBIGI_SMALL_MAX_LIMBS];
    if (jbigi_small_powm(rp, b, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp), mpz_limbs_read(m), n) != 0)
        return JBIGI_ENGINE_UNSUPPORTED;
    mpn_copyi(mpz_limbs_write(r, n), rp, n);
    mpz_limbs_finish(r, n);
    return JBIGI_ENGINE_DONE;
}

static int runs_everywhere(void)
{
    return 1;
}

static int never_fails(void)
{
    return 0;
}

const jbigi_engine jbigi_small_engine = {
    .name = "small",
    .alias = NULL,
    .forcible = 0,
    .max_limbs = JBIGI_SMALL_MAX_LIMBS,
    .available = runs_everywhere,
    .selftest_failed = never_fails,
    .powm = small_engine_powm,
    .powm_sec = NULL,
    .powm_base2 = NULL,
    .table_format = NULL,
    .table_ctx_init = NULL,
    .table_ctx_clear = NULL,
    .mont = NULL,
};
