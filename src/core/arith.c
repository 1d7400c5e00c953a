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
 *   exp = (m-1)/2, m a  the Legendre symbol as 1, m-1 or 0 (Euler's
 *   known prime         criterion, core/euler.c): variable time only.
 *
 * Which code raises to the power is chosen per call by the engine
 * registry (engines/engine.h), from the modulus' limb count (for 2^255 -
 * 19, its value; in variable time, a short exponent's length too), and
 * never changes a result: this file only calls through the interface.  Even moduli,
 * and engines that decline a call, go to the GMP engine, which takes any
 * modulus.
 *
 * GMP's mpz functions keep no global state, so these are reentrant.
 */
#include "core/arith.h"

#include "core/euler.h"
#include "support/scratch.h"
#include "engines/engine.h"

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

static enum jbigi_status status_of(int rc)
{
    return rc == JBIGI_ENGINE_DONE ? JBIGI_OK : JBIGI_NO_MEMORY;
}

/* r = 2^exp mod m on an engine's base-2 path, for odd m and exp > 0. */
static int base2_power(const jbigi_engine *engine, mpz_t r, const mpz_t exp, const mpz_t m)
{
    const mp_size_t n = (mp_size_t)mpz_size(m);
    /* r's limbs before the scratch: GMP's allocation may jump out
     * (jbigi_run_guarded), and must not skip scratch.  mpz_realloc2 keeps
     * r's value, for the GMP engine should this path decline. */
    mpz_realloc2(r, (mp_bitcnt_t)n * GMP_NUMB_BITS);
    mp_limb_t *result = jbigi_scratch_alloc((size_t)n);
    if (result == NULL)
        return JBIGI_ENGINE_NO_MEMORY;
    const int rc =
        engine->powm_base2(result, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp), mpz_limbs_read(m), n, 0);
    if (rc == JBIGI_ENGINE_DONE) {
        mpn_copyi(mpz_limbs_write(r, n), result, n);
        mpz_limbs_finish(r, n);
    }
    jbigi_scratch_free(result, (size_t)n);
    return rc;
}

/* r = base^exp mod m for exp >= 0: the engine the registry chooses for an
 * odd modulus and exp > 0, else (or where it declines) the GMP engine.  r
 * may alias base: each engine reads the base before writing r. */
static enum jbigi_status powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (mpz_odd_p(m) && mpz_sgn(exp) > 0) {
        const mp_size_t n = (mp_size_t)mpz_size(m);
        const jbigi_engine *engine = jbigi_engine_for_power(mpz_limbs_read(m), n, mpz_sizeinbase(exp, 2));
        const int rc = mpz_cmp_ui(base, 2) == 0 && jbigi_engine_base2(engine, n, 0)
                           ? base2_power(engine, r, exp, m)
                           : engine->powm(r, base, exp, m);
        if (rc != JBIGI_ENGINE_UNSUPPORTED)
            return status_of(rc);
    }
    return status_of(jbigi_engine_gmp()->powm(r, base, exp, m));
}

enum jbigi_status jbigi_modpow(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_cmp_ui(m, 1) == 0) {
        mpz_set_ui(r, 0);
        return JBIGI_OK;
    }
    if (mpz_sgn(exp) >= 0) {
        if (jbigi_euler_shortcut(r, base, exp, m))
            return JBIGI_OK;
        return powm(r, base, exp, m);
    }
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
 * modulus' limb count and the exponent's public width: its limb count
 * (the en limbs the caller hands over: the value's own limb count in
 * jbigi_modpow_ct, an array's limbs in the JNI layer) or a width in bits
 * the caller states (jbigi_modpow_ct_bits: a bound, an array's length in
 * bytes), never the exponent's own bits.  That is what mpz_powm_sec promises, and what BigInteger shows
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

/* rp = b^e mod m, b in (0, m), e below 2^ebits (ceil(ebits / 64) limbs,
 * any value), on the engine the registry chooses for constant time (its
 * base-2 path for the base 2 where the registry says so), else the GMP
 * engine.  Each runs over the ebits bits.  No GMP allocation: scratch
 * comes from jbigi_scratch_alloc. */
static enum jbigi_status sec_powm(mp_limb_t *rp, mpz_srcptr b, const mp_limb_t *e, size_t ebits, const mpz_t m)
{
    const mp_size_t en = (mp_size_t)((ebits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    const mp_size_t n = (mp_size_t)mpz_size(m);
    const mp_size_t bn = (mp_size_t)mpz_size(b);
    const mp_limb_t *mp = mpz_limbs_read(m);
    const jbigi_engine *engine = jbigi_engine_for_modulus(mp, n, 1);
    int rc = mpz_cmp_ui(b, 2) == 0 && jbigi_engine_base2(engine, n, 1)
                 ? engine->powm_base2(rp, e, en, mp, n, ebits)
                 : engine->powm_sec(rp, mpz_limbs_read(b), bn, e, ebits, mp, n);
    if (rc == JBIGI_ENGINE_UNSUPPORTED)
        rc = jbigi_engine_gmp()->powm_sec(rp, mpz_limbs_read(b), bn, e, ebits, mp, n);
    return status_of(rc);
}

enum jbigi_status jbigi_modpow_ct_bits(mp_limb_t *rp, const mpz_t base, const mp_limb_t *e, size_t ebits,
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
        status = sec_powm(rp, b, e, ebits, m);
    mpz_clear(reduced);
    return status;
}

enum jbigi_status jbigi_modpow_ct_limbs(mp_limb_t *rp, const mpz_t base, const mp_limb_t *e, mp_size_t en,
                                        const mpz_t m)
{
    return jbigi_modpow_ct_bits(rp, base, e, (size_t)en * GMP_NUMB_BITS, m);
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
