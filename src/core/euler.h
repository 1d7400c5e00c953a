/*
 * euler.h - Euler's criterion inside the variable-time modPow: for a
 * modulus p in a short table of primes, each proved prime by a
 * certificate kept in the tree (test/certificates/prime-certificates.txt,
 * checked by test_prime_certificates), the power base^((p-1)/2) mod p is
 * the Legendre symbol (base/p) written as 1, p-1 or 0, and the symbol
 * (core/jacobi.c) costs a fraction of the power.  Only jbigi_modpow asks;
 * the constant-time powers never do.
 */
#ifndef JBIGI_EULER_H
#define JBIGI_EULER_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

/* The largest known prime, in 64-bit words. */
#define JBIGI_KNOWN_PRIME_WORDS 4

/* A prime of the table: its length in bits and its value as little-endian
 * 64-bit words (zero above its length). */
struct jbigi_known_prime {
    unsigned bits;
    uint64_t words[JBIGI_KNOWN_PRIME_WORDS];
};

/* The table, for the tests (each row's certificate, the shortcut's edges). */
extern const struct jbigi_known_prime jbigi_known_primes[];
extern const size_t jbigi_known_prime_count;

/*
 * If m is a prime of the table and exp is exactly (m-1)/2: r =
 * base^exp mod m, from the Legendre symbol of base (any sign or size,
 * reduced as the power reduces it), and 1.  Otherwise 0, r untouched.
 * Variable time: for the variable-time modPow only.  r may not alias the
 * inputs.
 */
int jbigi_euler_shortcut(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m);

#endif
