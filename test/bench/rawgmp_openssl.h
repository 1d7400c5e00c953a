/*
 * rawgmp_openssl.h - OpenSSL's exponentiations on rawgmp's inputs, the
 * anchor the benchmark measures every engine against, and its inverse.  Built with
 * -DJBIGI_BENCH_OPENSSL and libcrypto where libssl-dev is installed (the
 * benchmark only: the library never links OpenSSL); without it the
 * functions say OpenSSL is not there.
 */
#ifndef JBIGI_RAWGMP_OPENSSL_H
#define JBIGI_RAWGMP_OPENSSL_H

#include <gmp.h>

/* OpenSSL's version text, or NULL when this program was built without it. */
const char *bench_openssl_version(void);

/*
 * r = b^e mod m by BN_mod_exp_mont (consttime 0) or
 * BN_mod_exp_mont_consttime (1), the Montgomery context made in the call as
 * a jbigi call makes its own; b, e >= 0, m odd.  Returns 0, or -1 when
 * OpenSSL failed or is not there.
 */
int bench_openssl_powm(mpz_t r, const mpz_t b, const mpz_t e, const mpz_t m, int consttime);

/*
 * r = a^-1 mod m by BN_mod_inverse, for 0 <= a < m; returns 0, or -1 when
 * a is not invertible, OpenSSL failed or is not there.
 */
int bench_openssl_invert(mpz_t r, const mpz_t a, const mpz_t m);

#endif
