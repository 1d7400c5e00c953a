/*
 * adx_engine.c - the MULX/ADX engine (adx.h) as an engine (engine.h).  Its
 * values are GMP's (fully reduced, R = 2^(64 N), N = n rounded up to 4), so
 * it reads fixed-base tables in GMP's format where N = n.
 */
#include "engines/engine.h"
#include "engines/adx/adx.h"
#include "engines/gmp_limbs.h"

_Static_assert(sizeof(jbigi_adx_ctx) <= JBIGI_ENGINE_CTX_BYTES, "the context fits the core's space");
_Static_assert(JBIGI_ADX_NO_MEMORY == JBIGI_ENGINE_NO_MEMORY && JBIGI_ADX_UNSUPPORTED == JBIGI_ENGINE_UNSUPPORTED,
               "adx.h's return codes are engine.h's");

static int adx_engine_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    return jbigi_engine_run_powm(jbigi_adx_powm, r, base, exp, m);
}

static int adx_engine_powm_sec(mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn, const mp_limb_t *e, size_t ebits,
                               const mp_limb_t *m, mp_size_t n)
{
    return jbigi_engine_run_powm_sec(jbigi_adx_powm_sec_bits, rp, b, bn, e, ebits, m, n);
}

static int selftest_failed(void)
{
    return jbigi_adx_selftest_result() == JBIGI_SELFTEST_FAILED;
}

/* The modulus of a table is public: only the values are secret. */
static int table_ctx_init(void *ctx, const mp_limb_t *m, mp_size_t n, int secret)
{
    return jbigi_adx_ctx_init(ctx, m, n, secret ? JBIGI_ADX_SECRET | JBIGI_ADX_PUBLIC_MODULUS : 0);
}

static void table_ctx_clear(void *ctx)
{
    jbigi_adx_ctx_clear(ctx);
}

const jbigi_engine jbigi_adx_engine = {
    .name = "adx",
    .alias = NULL,
    .forcible = 1,
    .max_limbs = JBIGI_ADX_MAX_LIMBS,
    .available = jbigi_adx_available,
    .selftest_failed = selftest_failed,
    .powm = adx_engine_powm,
    .powm_sec = adx_engine_powm_sec,
    .powm_base2 = NULL, /* its powm and powm_sec raise 2 on their own base-2 path */
    .table_format = &jbigi_gmp_table_format,
    .table_ctx_init = table_ctx_init,
    .table_ctx_clear = table_ctx_clear,
    .mont = &jbigi_adx_mont_ops,
};
