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
 *   CT: m even, exp<=0  mpz_powm_sec requires odd m and exp > 0.
 *
 * GMP's mpz functions keep no global state, so these are reentrant.
 */
#include "arith.h"

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

enum jbigi_status jbigi_modpow(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_cmp_ui(m, 1) == 0) {
        mpz_set_ui(r, 0);
        return JBIGI_OK;
    }
    if (mpz_sgn(exp) >= 0) {
        /* mpz_powm takes any base, including negative ones and ones >= m. */
        mpz_powm(r, base, exp, m);
        return JBIGI_OK;
    }
    /* (base^-1)^|exp|: r holds the inverse, then is raised in place (GMP
     * allows the result to alias the base). */
    if (!mpz_invert(r, base, m))
        return JBIGI_NOT_INVERTIBLE;
    mpz_t abs_exp;
    /* A read-only alias of |exp| sharing exp's limbs: no copy of the exponent. */
    mpz_roinit_n(abs_exp, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp));
    mpz_powm(r, r, abs_exp, m);
    return JBIGI_OK;
}

enum jbigi_status jbigi_modpow_ct(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    if (mpz_sgn(m) <= 0)
        return JBIGI_MODULUS_NOT_POSITIVE;
    if (mpz_even_p(m))
        return JBIGI_MODULUS_EVEN;
    if (mpz_sgn(exp) <= 0)
        return JBIGI_EXPONENT_NOT_POSITIVE;
    if (mpz_cmp_ui(m, 1) == 0) {
        mpz_set_ui(r, 0);
        return JBIGI_OK;
    }
    /* mpz_powm_sec reduces a base >= m itself, but its handling of a negative
     * base is not documented; reduce that one into [0, m) first.  The branch
     * reveals only the base's sign. */
    if (mpz_sgn(base) < 0) {
        mpz_mod(r, base, m);
        mpz_powm_sec(r, r, exp, m);
    } else {
        mpz_powm_sec(r, base, exp, m);
    }
    return JBIGI_OK;
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
