/*
 * p25519_engine.c - the special-form field (p25519.h) as an engine
 * (engine.h): it takes the one modulus 2^255 - 19 (takes_modulus), in
 * variable and in constant time; no base-2 path and no fixed-base tables.
 */
#include "engines/engine.h"
#include "engines/p25519/p25519.h"

static int takes_modulus(const mp_limb_t *m, mp_size_t n)
{
    return jbigi_p25519_is_modulus(m, n);
}

static int p25519_engine_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (!jbigi_p25519_is_modulus(mpz_limbs_read(m), (mp_size_t)mpz_size(m)))
        return JBIGI_ENGINE_UNSUPPORTED;
    return jbigi_engine_run_powm(jbigi_p25519_powm, r, base, exp, m);
}

static int p25519_engine_powm_sec(mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn, const mp_limb_t *e,
                                  size_t ebits, const mp_limb_t *m, mp_size_t n)
{
    if (!jbigi_p25519_is_modulus(m, n))
        return JBIGI_ENGINE_UNSUPPORTED;
    return jbigi_engine_run_powm_sec(jbigi_p25519_powm_sec, rp, b, bn, e, ebits, m, n);
}

static int selftest_failed(void)
{
    return jbigi_p25519_selftest_result() == JBIGI_SELFTEST_FAILED;
}

const jbigi_engine jbigi_p25519_engine = {
    .name = "p25519",
    .alias = NULL,
    .forcible = 1,
    .max_limbs = JBIGI_P25519_LIMBS,
    .takes_modulus = takes_modulus,
    .available = jbigi_p25519_available,
    .selftest_failed = selftest_failed,
    .powm = p25519_engine_powm,
    .powm_sec = p25519_engine_powm_sec,
    .powm_base2 = NULL,
    .table_format = NULL,
    .table_ctx_init = NULL,
    .table_ctx_clear = NULL,
    .mont = NULL,
};
