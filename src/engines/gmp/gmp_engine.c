/*
 * gmp_engine.c - GMP's functions as an engine (engine.h): mpz_powm in
 * variable time (any modulus, even ones too: every other engine falls back
 * to it), mpn_sec_powm in constant time, the base 2 on GMP's mpn functions
 * under the drivers' base-2 path (mpn_mont.c), and fixed-base tables in
 * GMP's own format: entries of n limbs in Montgomery form, R = 2^(64 n).
 */
#include "engines/engine.h"
#include "engines/gmp/mpn_mont.h"
#include "engines/gmp_limbs.h"

#include <limits.h>

#include "support/scratch.h"

_Static_assert(sizeof(jbigi_mpn_ctx) <= JBIGI_ENGINE_CTX_BYTES, "the context fits the core's space");

/* Any modulus > 0 and any exponent >= 0 (exp = 0 gives 1 mod m): mpz_powm
 * reduces the base itself, negative ones and ones >= m too. */
static int gmp_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    mpz_powm(r, base, exp, m);
    return JBIGI_ENGINE_DONE;
}

/* mpn_sec_powm over the low ebits bits of e: its own unit. */
static int gmp_powm_sec(mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn, const mp_limb_t *e, size_t ebits,
                        const mp_limb_t *m, mp_size_t n)
{
    const mp_bitcnt_t enb = (mp_bitcnt_t)ebits;
    const size_t scratch_limbs = (size_t)mpn_sec_powm_itch(bn, enb, n);
    mp_limb_t *scratch = jbigi_scratch_alloc(scratch_limbs);
    if (scratch == NULL)
        return JBIGI_ENGINE_NO_MEMORY;
    mpn_sec_powm(rp, b, bn, e, enb, m, n, scratch);
    jbigi_scratch_free(scratch, scratch_limbs);
    return JBIGI_ENGINE_DONE;
}

static int gmp_powm_base2(mp_limb_t *rp, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m, mp_size_t n,
                          size_t fixed_bits)
{
    return jbigi_mpn_powm_base2(rp, e, en, m, n, fixed_bits) == 0 ? JBIGI_ENGINE_DONE : JBIGI_ENGINE_NO_MEMORY;
}

static int runs_everywhere(void)
{
    return 1;
}

static int never_fails(void)
{
    return 0;
}


static int table_ctx_init(void *ctx, const mp_limb_t *m, mp_size_t n, int secret)
{
    return jbigi_mpn_ctx_init(ctx, m, n, secret);
}

static void table_ctx_clear(void *ctx)
{
    jbigi_mpn_ctx_clear(ctx);
}

const jbigi_engine jbigi_gmp_engine = {
    .name = "gmp",
    .alias = NULL,
    .forcible = 1,
    .max_limbs = INT_MAX / 64,
    .available = runs_everywhere,
    .selftest_failed = never_fails,
    .powm = gmp_powm,
    .powm_sec = gmp_powm_sec,
    .powm_base2 = gmp_powm_base2,
    .table_format = &jbigi_gmp_table_format,
    .table_ctx_init = table_ctx_init,
    .table_ctx_clear = table_ctx_clear,
    .mont = &jbigi_mpn_mont_ops,
};
