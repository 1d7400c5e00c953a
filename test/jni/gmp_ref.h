/*
 * gmp_ref.h - what java.math.BigInteger answers, computed with GMP in the
 * harness itself (mpz_powm, mpz_invert), for the random cases.  Compiled
 * in with -DJNI_HARNESS_GMP (and -lgmp); without it gmp_ref_available()
 * is 0 and the checks that need it are counted as skipped.  On Windows it
 * needs a GMP built for mingw-w64.
 */
#ifndef JNI_HARNESS_GMP_REF_H
#define JNI_HARNESS_GMP_REF_H

#include "bigbytes.h"

int gmp_ref_available(void);

/* GMP's version string, or "none". */
const char *gmp_ref_version(void);

/*
 * base.modPow(exponent, modulus) and value.modInverse(modulus) on
 * toByteArray() arrays: 1 with the result's toByteArray() form in *out,
 * or 0 where BigInteger throws ArithmeticException (modulus <= 0, no
 * inverse).
 */
int gmp_ref_mod_pow(const struct bytes *base, const struct bytes *exponent, const struct bytes *modulus,
                    struct bytes *out);
int gmp_ref_mod_inverse(const struct bytes *value, const struct bytes *modulus, struct bytes *out);

#endif
