/*
 * arith.h - the three operations with java.math.BigInteger's semantics, on
 * mpz_t values.  No JNI here: jbigi.c wraps these for Java, and the C tests
 * and fuzz targets call them directly.
 */
#ifndef JBIGI_ARITH_H
#define JBIGI_ARITH_H

#include <gmp.h>

/* Why an operation refused its arguments; each maps to one Java exception. */
enum jbigi_status {
    JBIGI_OK = 0,
    JBIGI_MODULUS_NOT_POSITIVE,  /* m <= 0 */
    JBIGI_MODULUS_EVEN,          /* constant-time path: m must be odd */
    JBIGI_EXPONENT_NOT_POSITIVE, /* constant-time path: e must be > 0 */
    JBIGI_NOT_INVERTIBLE,        /* gcd(base, m) != 1 where an inverse is needed */
    JBIGI_MODULUS_TOO_SMALL,     /* fixed base: m must be odd and > 1 */
    JBIGI_EXPONENT_TOO_LONG,     /* fixed base: exp has more bits than the table covers */
    JBIGI_EXPONENT_NEGATIVE,     /* fixed base: exp < 0 (invert first, or use modpow) */
    JBIGI_BAD_TABLE,             /* fixed base: the table's header or length is inconsistent */
    JBIGI_NO_MEMORY              /* scratch space could not be allocated */
};

/* A sentence for the exception that carries status. */
const char *jbigi_status_message(enum jbigi_status status);

/*
 * r = base^exp mod m, 0 <= r < m, as BigInteger.modPow: any base; exp < 0
 * means (base^-1)^|exp| and fails with JBIGI_NOT_INVERTIBLE when base has no
 * inverse.  r may not alias the inputs.
 */
enum jbigi_status jbigi_modpow(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m);

/*
 * r = base^exp mod m in constant time (jbigi_modpow_ct_limbs) with the
 * exponent taken at its own limb count: time and memory accesses depend
 * only on the base (public), the modulus' limb count and the exponent's
 * limb count, never on the exponent's bits, as mpz_powm_sec.  I2P's
 * contract: m > 0 odd and exp > 0, anything else is refused.  Any base.
 */
enum jbigi_status jbigi_modpow_ct(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m);

/*
 * The constant-time power on a fixed-width exponent, for callers that read
 * the secret at a public width themselves (the JNI layer: an array's
 * length, a stated bound): rp[0..n) = base^e mod m, n = m's limbs, for e
 * given as exactly en >= 1 limbs (zero-padded above the value; fewer or
 * more than n).  Every loop count, copy and buffer follows n, en and the
 * base (public) only; e's value reaches no branch.
 * Requires e > 0 (the callers check it).  m must be odd (> 0); m = 1 and a
 * base that is 0 mod m give 0 at once (the base is public).
 * Order, so that running out of memory inside GMP (jbigi_run_guarded)
 * leaves nothing secret behind: every GMP allocation (the base's
 * reduction) comes before the scratch that holds secrets is taken, and
 * that scratch comes from jbigi_scratch_alloc, which reports failure.
 */
enum jbigi_status jbigi_modpow_ct_limbs(mp_limb_t *rp, const mpz_t base, const mp_limb_t *e, mp_size_t en,
                                        const mpz_t m);

/*
 * The same at a width in bits rather than limbs, for a width the caller
 * states in bits (a bound, an array's length in bytes): e below 2^ebits,
 * given as ceil(ebits / 64) limbs, ebits >= 1; every loop count, copy and
 * buffer follows n, ebits and the base.  jbigi_modpow_ct_limbs is this at
 * 64 en bits.
 */
enum jbigi_status jbigi_modpow_ct_bits(mp_limb_t *rp, const mpz_t base, const mp_limb_t *e, size_t ebits,
                                       const mpz_t m);

/* r = base^-1 mod m, as BigInteger.modInverse (m == 1 gives 0). */
enum jbigi_status jbigi_modinverse(mpz_t r, const mpz_t base, const mpz_t m);

#endif
