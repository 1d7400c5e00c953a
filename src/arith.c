/*
 * arith.c - modPow, modPowCT and modInverse on mpz_t, BigInteger semantics.
 *
 * Cases GMP would get wrong or die on are handled first, each with a reason:
 *
 *   m <= 0              BigInteger throws; mpz_powm would divide by zero.
 *   m == 1              every result is 0, even where no inverse exists
 *                       (BigInteger.modInverse(1) is 0).
 *   exp < 0             invert the base first: mpz_powm raises SIGFPE-style
 *                       division by zero when the inverse does not exist.
 *   CT: m even, exp<=0  refused, as I2P's library does (Montgomery form
 *                       needs an odd m; exp > 0 is I2P's contract).
 *
 * Which code raises to the power is chosen per call, from the modulus'
 * limb count (engine.c's table), and never changes a result.  modPow: one
 * limb to small_powm.c; odd moduli to the AVX-512 IFMA engine (ifma.h) or
 * the MULX/ADX engine (adx.h) where the table says so, and the base 2 on
 * GMP's engine to GMP's mpn functions under the base-2 driver (mpn_mont.h);
 * the rest to mpz_powm.  modPowCT: the IFMA or MULX/ADX engine's
 * constant-time path where the table picks that engine, else the base 2 on
 * the base-2 driver at the sizes jbigi_engine_gmp_base2 gives, else
 * mpn_sec_powm.
 *
 * GMP's mpz functions keep no global state, so these are reentrant.
 */
#include "arith.h"

#include "adx.h"
#include "engine.h"
#include "ifma.h"
#include "mpn_mont.h"
#include "scratch.h"
#include "small_powm.h"

const char *jbigi_status_message(enum jbigi_status status)
{
    switch (status) {
    case JBIGI_OK:                    return "no error";
    case JBIGI_MODULUS_NOT_POSITIVE:  return "BigInteger: modulus not positive";
    case JBIGI_MODULUS_EVEN:          return "modulus must be odd for the constant-time modPow";
    case JBIGI_EXPONENT_NOT_POSITIVE: return "exponent must be positive for the constant-time modPow";
    case JBIGI_NOT_INVERTIBLE:        return "BigInteger not invertible.";
    case JBIGI_MODULUS_TOO_SMALL:     return "fixed-base tables need an odd modulus greater than 1";
    case JBIGI_EXPONENT_TOO_LONG:     return "exponent is longer than the fixed-base table covers";
    case JBIGI_EXPONENT_NEGATIVE:     return "fixed-base exponent must not be negative";
    case JBIGI_BAD_TABLE:             return "not a fixed-base table made by this library";
    case JBIGI_NO_MEMORY:             return "jbigi: out of native memory";
    }
    return "unknown error";
}

/* b (zeroed, as many limbs as m) = base mod m, reduced in variable time (the
 * base is public). */
static void reduced_base(mp_limb_t *b, const mpz_t base, const mpz_t m)
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

/* An engine's variable-time exponentiation (jbigi_ifma_powm,
 * jbigi_adx_powm): 0, 1 when out of memory, 2 when it did not run. */
typedef int (*engine_powm)(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                           const mp_limb_t *m, mp_size_t n);
_Static_assert(JBIGI_IFMA_NO_MEMORY == 1 && JBIGI_ADX_NO_MEMORY == 1, "engines share their return codes");

/*
 * r = base^exp mod m on an engine's variable-time path, for odd m of a size
 * it takes and exp >= 1.  The base is reduced into [0, m) first (public,
 * variable time).  Returns JBIGI_OK, JBIGI_NO_MEMORY, or -1 if the engine
 * did not run and GMP must.  r may alias base when base < m (as powm's
 * caller does with an inverse).
 */
static int engine_power(engine_powm engine, mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    const mp_size_t n = (mp_size_t)mpz_size(m);
    /* r's limbs before the scratch: if GMP runs out of memory here, the
     * jump out (jbigi_run_guarded) skips no scratch holding a result.
     * mpz_realloc2 keeps r's value, which fits n limbs when r is the base. */
    mpz_realloc2(r, (mp_bitcnt_t)n * GMP_NUMB_BITS);
    /* Scratch: the base as n limbs and the result.  The result goes to r
     * only once the engine has run: r may alias base, and GMP must still
     * find the base if it did not. */
    const size_t scratch_limbs = 2 * (size_t)n;
    mp_limb_t *scratch = jbigi_scratch_alloc(scratch_limbs);
    if (scratch == NULL)
        return JBIGI_NO_MEMORY;
    mp_limb_t *b = scratch;
    reduced_base(b, base, m);
    mp_limb_t *result = scratch + n;
    int rc = engine(result, b, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp), mpz_limbs_read(m), n);
    if (rc == 0) {
        mpn_copyi(mpz_limbs_write(r, n), result, n);
        mpz_limbs_finish(r, n);
    }
    jbigi_scratch_free(scratch, scratch_limbs);
    if (rc == 1)
        return JBIGI_NO_MEMORY;
    return rc == 0 ? JBIGI_OK : -1;
}

/* 2^e mod m on GMP's mpn functions under the base-2 driver, as an engine's
 * variable-time exponentiation (b, which is 2, is not read). */
static int gmp_base2_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                          mp_size_t n)
{
    (void)b;
    return jbigi_mpn_powm_base2(r, e, en, m, n, 0) == 0 ? 0 : JBIGI_ADX_NO_MEMORY;
}

/* mpz_powm, or small_powm or the IFMA engine where they take the modulus (odd,
 * their sizes).  r may alias base: each reads the base before writing r. */
static enum jbigi_status powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    const mp_size_t n = (mp_size_t)mpz_size(m);
    if (mpz_odd_p(m) && mpz_sgn(exp) > 0 && jbigi_engine_for(n) == JBIGI_ENGINE_SMALL) {
        mp_limb_t b[JBIGI_SMALL_MAX_LIMBS] = {0};
        reduced_base(b, base, m);
        mp_limb_t rp[JBIGI_SMALL_MAX_LIMBS];
        if (jbigi_small_powm(rp, b, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp), mpz_limbs_read(m), n) == 0) {
            mpn_copyi(mpz_limbs_write(r, n), rp, n);
            mpz_limbs_finish(r, n);
            return JBIGI_OK;
        }
    }
    if (mpz_odd_p(m) && mpz_sgn(exp) > 0) {
        const int base_is_two = mpz_cmp_ui(base, 2) == 0;
        const enum jbigi_engine engine = jbigi_engine_for(n);
        int status = -1;
        if (engine == JBIGI_ENGINE_IFMA)
            status = engine_power(jbigi_ifma_powm, r, base, exp, m);
        else if (engine == JBIGI_ENGINE_ADX)
            status = engine_power(jbigi_adx_powm, r, base, exp, m);
        else if (engine == JBIGI_ENGINE_GMP && base_is_two && jbigi_engine_gmp_base2(n, 0))
            status = engine_power(gmp_base2_powm, r, base, exp, m);
        if (status >= 0)
            return (enum jbigi_status)status;
    }
    /* mpz_powm takes any base, including negative ones and ones >= m. */
    mpz_powm(r, base, exp, m);
    return JBIGI_OK;
}

enum jbigi_status jbigi_modpow(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_cmp_ui(m, 1) == 0) {
        mpz_set_ui(r, 0);
        return JBIGI_OK;
    }
    if (mpz_sgn(exp) >= 0)
        return powm(r, base, exp, m);
    /* (base^-1)^|exp|: r holds the inverse, then is raised in place (powm
     * allows the result to alias the base). */
    if (!mpz_invert(r, base, m))
        return JBIGI_NOT_INVERTIBLE;
    mpz_t abs_exp;
    /* A read-only alias of |exp| sharing exp's limbs: no copy of the exponent. */
    mpz_roinit_n(abs_exp, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp));
    return powm(r, r, abs_exp, m);
}

/*
 * The constant-time power.  Its work follows public sizes only: the
 * modulus' limb count and the exponent's limb count (the en limbs the
 * caller hands over: the value's own limb count in jbigi_modpow_ct, an
 * array's length or a stated bound in the JNI layer), never the exponent's
 * bits.  That is what mpz_powm_sec promises, and what BigInteger shows
 * itself (bitLength).  A short secret (a 160-bit DSA nonce under a
 * 1024-bit modulus) so costs what its own limbs need, not the modulus'.
 *
 * The base is public: a negative one, or one not below the modulus, is
 * reduced first with mpz_mod, in time that depends on its value, and a
 * base that is 0 mod m answers 0 at once (mpn_sec_powm requires B > 0).
 * (mpz_powm_sec is no help there: for a negative base it branches on the
 * exponent's low bit to choose the sign of the result.)
 */

/* base reduced into [0, m): base itself when it already is, else reduced
 * (public, variable time; allocates through GMP). */
static mpz_srcptr public_base(mpz_t reduced, const mpz_t base, const mpz_t m)
{
    if (mpz_sgn(base) >= 0 && mpz_cmp(base, m) < 0)
        return base;
    mpz_mod(reduced, base, m);
    return reduced;
}

/* rp = b^e mod m, b in (0, m), e of en >= 1 limbs (any value): the
 * engine's constant-time path (IFMA or MULX/ADX) where the table gives it
 * n; else, for the base 2 at the sizes jbigi_engine_gmp_base2 gives, GMP's
 * mpn functions under the base-2 driver; else mpn_sec_powm.  Each runs over
 * all GMP_NUMB_BITS en bits of e.  No GMP allocation: scratch comes from
 * jbigi_scratch_alloc. */
static enum jbigi_status sec_powm(mp_limb_t *rp, mpz_srcptr b, const mp_limb_t *e, mp_size_t en, const mpz_t m)
{
    const mp_size_t n = (mp_size_t)mpz_size(m);
    const mp_size_t bn = (mp_size_t)mpz_size(b);
    const int base_is_two = mpz_cmp_ui(b, 2) == 0;
    const enum jbigi_engine engine = jbigi_engine_for(n);
    if (engine == JBIGI_ENGINE_IFMA || engine == JBIGI_ENGINE_ADX) {
        /* The engines take the base as n limbs. */
        mp_limb_t *padded_base = jbigi_scratch_alloc((size_t)n);
        if (padded_base == NULL)
            return JBIGI_NO_MEMORY;
        mpn_copyi(padded_base, mpz_limbs_read(b), bn);
        int rc = engine == JBIGI_ENGINE_IFMA ? jbigi_ifma_powm_sec(rp, padded_base, e, en, mpz_limbs_read(m), n)
                                             : jbigi_adx_powm_sec(rp, padded_base, e, en, mpz_limbs_read(m), n);
        jbigi_scratch_free(padded_base, (size_t)n);
        if (rc == 0)
            return JBIGI_OK;
        if (rc == 1)
            return JBIGI_NO_MEMORY;
        /* Unsupported: GMP below. */
    }
    if (base_is_two && jbigi_engine_gmp_base2(n, 1)) {
        /* GMP's mpn functions under the base-2 driver, e at its width. */
        return jbigi_mpn_powm_base2(rp, e, en, mpz_limbs_read(m), n, 1) == 0 ? JBIGI_OK : JBIGI_NO_MEMORY;
    }
    const mp_bitcnt_t enb = (mp_bitcnt_t)en * GMP_NUMB_BITS;
    const size_t scratch_limbs = (size_t)mpn_sec_powm_itch(bn, enb, n);
    mp_limb_t *scratch = jbigi_scratch_alloc(scratch_limbs);
    if (scratch == NULL)
        return JBIGI_NO_MEMORY;
    mpn_sec_powm(rp, mpz_limbs_read(b), bn, e, enb, mpz_limbs_read(m), n, scratch);
    jbigi_scratch_free(scratch, scratch_limbs);
    return JBIGI_OK;
}

enum jbigi_status jbigi_modpow_ct_limbs(mp_limb_t *rp, const mpz_t base, const mp_limb_t *e, mp_size_t en,
                                        const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_even_p(m))
        return JBIGI_MODULUS_EVEN;
    const mp_size_t n = (mp_size_t)mpz_size(m);
    mpn_zero(rp, n);
    if (mpz_cmp_ui(m, 1) == 0) /* everything is 0 mod 1 */
        return JBIGI_OK;
    mpz_t reduced;
    mpz_init(reduced);
    mpz_srcptr b = public_base(reduced, base, m);
    enum jbigi_status status = JBIGI_OK;
    if (mpz_sgn(b) != 0) /* else 0^e = 0 for e > 0 */
        status = sec_powm(rp, b, e, en, m);
    mpz_clear(reduced);
    return status;
}

enum jbigi_status jbigi_modpow_ct(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_even_p(m))
        return JBIGI_MODULUS_EVEN;
    if (mpz_sgn(exp) <= 0)
        return JBIGI_EXPONENT_NOT_POSITIVE;
    const mp_size_t n = (mp_size_t)mpz_size(m);
    /* The exponent at its own limb count: the public size the work follows. */
    const mp_size_t en = (mp_size_t)mpz_size(exp);
    /* Every GMP allocation first - r's limbs, the base's reduction - so
     * that none can jump out while the exponent's copy exists. */
    mp_limb_t *rp = mpz_limbs_write(r, n);
    mpz_t reduced;
    mpz_init(reduced);
    mpz_srcptr b = public_base(reduced, base, m);
    enum jbigi_status status = JBIGI_NO_MEMORY;
    mp_limb_t *e = jbigi_scratch_alloc((size_t)en);
    if (e != NULL) {
        mpn_copyi(e, mpz_limbs_read(exp), en);
        status = jbigi_modpow_ct_limbs(rp, b, e, en, m);
        jbigi_scratch_free(e, (size_t)en);
    }
    mpz_limbs_finish(r, status == JBIGI_OK ? n : 0);
    mpz_clear(reduced);
    return status;
}

enum jbigi_status jbigi_modinverse(mpz_t r, const mpz_t base, const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_cmp_ui(m, 1) == 0) {
        mpz_set_ui(r, 0);
        return JBIGI_OK;
    }
    /* mpz_invert answers 0 <= r < m for any base sign, and 0 when no
     * inverse exists: one pass, no separate gcd. */
    if (!mpz_invert(r, base, m))
        return JBIGI_NOT_INVERTIBLE;
    return JBIGI_OK;
}
