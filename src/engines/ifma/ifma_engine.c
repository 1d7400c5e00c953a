/*
 * ifma_engine.c - the AVX-512 IFMA engine (ifma.h) as an engine
 * (engine.h), with its own fixed-base table format: entries in its 52-bit
 * digits, ifma_words(n) words each.
 */
#include "engines/engine.h"
#include "engines/ifma/ifma.h"

_Static_assert(sizeof(jbigi_ifma_ctx) <= JBIGI_ENGINE_CTX_BYTES, "the context fits the core's space");
_Static_assert(JBIGI_IFMA_NO_MEMORY == JBIGI_ENGINE_NO_MEMORY && JBIGI_IFMA_UNSUPPORTED == JBIGI_ENGINE_UNSUPPORTED,
               "ifma.h's return codes are engine.h's");

static int ifma_engine_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    return jbigi_engine_run_powm(jbigi_ifma_powm, r, base, exp, m);
}

static int ifma_engine_powm_sec(mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn, const mp_limb_t *e,
                                size_t ebits, const mp_limb_t *m, mp_size_t n)
{
    return jbigi_engine_run_powm_sec(jbigi_ifma_powm_sec_bits, rp, b, bn, e, ebits, m, n);
}

static int selftest_failed(void)
{
    return jbigi_ifma_selftest_result() == JBIGI_IFMA_SELFTEST_FAILED;
}

/* Digit words of one number for an n-limb modulus, as ifma.h defines them
 * (ceil((64 n + 2) / 52) digits, rounded up to 8); checked against the
 * engine's own context whenever one is made for a table. */
static size_t words_per_entry(mp_size_t n)
{
    const size_t digits = (64 * (size_t)n + 2 + 51) / 52;
    return (digits + 7) / 8 * 8;
}

/* The modulus of a table is public: only the values are secret. */
static int table_ctx_init(void *ctx, const mp_limb_t *m, mp_size_t n, int secret)
{
    jbigi_ifma_ctx *c = ctx;
    if (jbigi_ifma_ctx_init(c, m, n, secret ? JBIGI_IFMA_SECRET_VALUES : 0) != 0)
        return -1;
    if ((size_t)c->words != words_per_entry(n)) {
        jbigi_ifma_ctx_clear(c);
        return -1;
    }
    return 0;
}

static void table_ctx_clear(void *ctx)
{
    jbigi_ifma_ctx_clear(ctx);
}

/* "JBI2": version 2 of the comb's layout in the engine's digits. */
static const jbigi_table_format ifma_table_format = {
    .magic = 0x4a424932,
    .entry_limbs = words_per_entry,
    .max_limbs = JBIGI_IFMA_MAX_LIMBS,
};

const jbigi_engine jbigi_ifma_engine = {
    .name = "avx512-ifma",
    .alias = "ifma",
    .forcible = 1,
    .max_limbs = JBIGI_IFMA_MAX_LIMBS,
    .available = jbigi_ifma_available,
    .selftest_failed = selftest_failed,
    .powm = ifma_engine_powm,
    .powm_sec = ifma_engine_powm_sec,
    .powm_base2 = NULL, /* its powm and powm_sec raise 2 on their own base-2 path */
    .table_format = &ifma_table_format,
    .table_ctx_init = table_ctx_init,
    .table_ctx_clear = table_ctx_clear,
    .mont = &jbigi_ifma_mont_ops,
};
