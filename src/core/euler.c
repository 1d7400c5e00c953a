/*
 * euler.c - Euler's criterion for the known primes (euler.h): for p prime
 * and any base b, b^((p-1)/2) mod p is 1 if b is a non-zero square mod p,
 * p-1 if it is no square, 0 if p divides b: the Legendre symbol (b/p),
 * which the Jacobi symbol (core/jacobi.c) computes.  b is taken as the
 * power takes it, mod p (a negative or larger b gives what b mod p gives).
 * What it saves on I2P's call:
 * doc/measurements.md: "Euler's criterion in nativeModPow and the Jacobi symbol (2026-12-07)"
 *
 * A composite modulus must never take this path (the answer would be the
 * Jacobi symbol, not the power): every row's primality is proved by a
 * certificate that test_prime_certificates checks with exact arithmetic,
 * and that test also checks that the rows are the certified numbers.
 */
#include "core/euler.h"

#include "core/jacobi.h"

const struct jbigi_known_prime jbigi_known_primes[] = {
    /* 2^255 - 19: the field of Curve25519, I2P's Elligator2 (Legendre
     * symbols as x^((p-1)/2) mod p on every new ratchet session) */
    {255, {0xffffffffffffffedu, 0xffffffffffffffffu, 0xffffffffffffffffu, 0x7fffffffffffffffu}},
};

const size_t jbigi_known_prime_count = sizeof jbigi_known_primes / sizeof jbigi_known_primes[0];

/* The 64-bit word i of x >= 0 (limbs of 64 or 32 bits). */
static uint64_t word_of(const mpz_t x, size_t i)
{
#if GMP_NUMB_BITS == 64
    return (uint64_t)mpz_getlimbn(x, (mp_size_t)i);
#else
    return (uint64_t)mpz_getlimbn(x, (mp_size_t)(2 * i)) | (uint64_t)mpz_getlimbn(x, (mp_size_t)(2 * i + 1)) << 32;
#endif
}

/* 1 if m is the row's prime p and exp is (p-1)/2. */
static int matches(const struct jbigi_known_prime *row, const mpz_t exp, const mpz_t m)
{
    /* The limb counts first: a call whose exponent is not of the row's
     * length (a short public exponent, most calls) leaves at once. */
    const size_t limb_bits = (size_t)GMP_NUMB_BITS;
    if (mpz_sgn(m) <= 0 || mpz_sgn(exp) <= 0 || mpz_size(m) != (row->bits + limb_bits - 1) / limb_bits ||
        mpz_size(exp) != (row->bits - 1 + limb_bits - 1) / limb_bits)
        return 0;
    if (mpz_sizeinbase(m, 2) != row->bits || mpz_sizeinbase(exp, 2) != row->bits - 1)
        return 0;
    for (size_t i = 0; i < JBIGI_KNOWN_PRIME_WORDS; i++) {
        const uint64_t above = i + 1 < JBIGI_KNOWN_PRIME_WORDS ? row->words[i + 1] : 0;
        /* p is odd: (p-1)/2 is p shifted right by one */
        if (word_of(m, i) != row->words[i] || word_of(exp, i) != (row->words[i] >> 1 | above << 63))
            return 0;
    }
    return 1;
}

int jbigi_euler_shortcut(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    for (size_t k = 0; k < jbigi_known_prime_count; k++) {
        if (!matches(&jbigi_known_primes[k], exp, m))
            continue;
        const int symbol = jbigi_jacobi(base, m);
        if (symbol > 0)
            mpz_set_ui(r, 1);
        else if (symbol < 0)
            mpz_sub_ui(r, m, 1);
        else
            mpz_set_ui(r, 0);
        return 1;
    }
    return 0;
}
