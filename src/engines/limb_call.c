/*
 * limb_call.c - the mpz side of an engine's power, written once for every
 * engine that works on limbs (engine.h: jbigi_engine_reduce_base,
 * jbigi_engine_run_powm and jbigi_engine_run_powm_sec).
 */
#include "engines/engine.h"

#include "platform/platform.h"
#include "support/scratch.h"

/* Limbs of scratch a call keeps on its stack: the base and the result of
 * a modulus up to 2048 bits (the constant-time path's base up to 4096). */
#define STACK_SCRATCH_LIMBS 64

void jbigi_engine_reduce_base(mp_limb_t *b, const mpz_t base, const mpz_t m)
{
    if (mpz_sgn(base) >= 0 && mpz_cmp(base, m) < 0) {
        mpn_copyi(b, mpz_limbs_read(base), (mp_size_t)mpz_size(base));
    } else {
        mpz_t reduced;
        mpz_init(reduced);
        mpz_mod(reduced, base, m);
        mpn_copyi(b, mpz_limbs_read(reduced), (mp_size_t)mpz_size(reduced));
        mpz_clear(reduced);
    }
}

int jbigi_engine_run_powm(jbigi_limb_powm fn, mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    const mp_size_t n = (mp_size_t)mpz_size(m);
    /* r's limbs before the scratch: if GMP runs out of memory here, the
     * jump out (jbigi_run_guarded) skips no scratch holding a result.
     * mpz_realloc2 keeps r's value, which fits n limbs when r is the base. */
    mpz_realloc2(r, (mp_bitcnt_t)n * GMP_NUMB_BITS);
    /* Scratch: the base as n limbs and the result.  The result goes to r
     * only once the engine has run: r may alias base, and the GMP engine
     * must still find the base if this one did not run.  On the stack up
     * to STACK_SCRATCH_LIMBS, where the heap's allocation, zeroing and
     * free weigh on a short modulus' call. */
    const size_t scratch_limbs = 2 * (size_t)n;
    mp_limb_t stack_scratch[STACK_SCRATCH_LIMBS];
    mp_limb_t *scratch = stack_scratch;
    if (scratch_limbs <= STACK_SCRATCH_LIMBS)
        mpn_zero(scratch, (mp_size_t)scratch_limbs); /* the base's limbs above its own size */
    else
        scratch = jbigi_scratch_alloc(scratch_limbs); /* zeroed */
    if (scratch == NULL)
        return JBIGI_ENGINE_NO_MEMORY;
    mp_limb_t *b = scratch;
    /* mpz_mod may allocate (and jump out): public values only so far. */
    jbigi_engine_reduce_base(b, base, m);
    mp_limb_t *result = scratch + n;
    const int rc = fn(result, b, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp), mpz_limbs_read(m), n);
    if (rc == JBIGI_ENGINE_DONE) {
        mpn_copyi(mpz_limbs_write(r, n), result, n);
        mpz_limbs_finish(r, n);
    }
    if (scratch == stack_scratch)
        jbigi_secure_zero(scratch, scratch_limbs * sizeof(mp_limb_t));
    else
        jbigi_scratch_free(scratch, scratch_limbs);
    return rc;
}

int jbigi_engine_run_powm_sec(jbigi_limb_powm_sec fn, mp_limb_t *rp, const mp_limb_t *b, mp_size_t bn,
                              const mp_limb_t *e, size_t ebits, const mp_limb_t *m, mp_size_t n)
{
    mp_limb_t stack_base[STACK_SCRATCH_LIMBS];
    mp_limb_t *padded_base = stack_base;
    if ((size_t)n <= STACK_SCRATCH_LIMBS)
        mpn_zero(padded_base, n);
    else
        padded_base = jbigi_scratch_alloc((size_t)n); /* zeroed */
    if (padded_base == NULL)
        return JBIGI_ENGINE_NO_MEMORY;
    mpn_copyi(padded_base, b, bn);
    const int rc = fn(rp, padded_base, e, ebits, m, n);
    if (padded_base == stack_base)
        jbigi_secure_zero(padded_base, (size_t)n * sizeof(mp_limb_t));
    else
        jbigi_scratch_free(padded_base, (size_t)n);
    return rc;
}
