/*
 * reference.h - the slow, obviously right versions that the C tests and the
 * fuzz targets hold the library's code against, written from the
 * definitions and sharing nothing with src/.
 */
#ifndef JBIGI_TEST_REFERENCE_H
#define JBIGI_TEST_REFERENCE_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

/* value = the bytes as base-256 digits, minus 256^len if the top bit is set. */
static inline void reference_import(mpz_t value, const uint8_t *bytes, size_t len)
{
    mpz_set_ui(value, 0);
    for (size_t i = 0; i < len; i++) {
        mpz_mul_2exp(value, value, 8);
        mpz_add_ui(value, value, bytes[i]);
    }
    if (bytes[0] & 0x80) {
        mpz_t power;
        mpz_init(power);
        mpz_setbit(power, 8 * len);
        mpz_sub(value, value, power);
        mpz_clear(power);
    }
}

/* base^exp mod m (m > 0, exp >= 0) by left-to-right binary powering. */
static inline void reference_powm(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    mpz_t acc, b;
    mpz_init_set_ui(acc, 1);
    mpz_init(b);
    mpz_mod(b, base, m);
    for (size_t bit = mpz_sizeinbase(exp, 2); bit-- > 0;) {
        mpz_mul(acc, acc, acc);
        mpz_mod(acc, acc, m);
        if (mpz_tstbit(exp, bit)) {
            mpz_mul(acc, acc, b);
            mpz_mod(acc, acc, m);
        }
    }
    mpz_mod(r, acc, m);
    mpz_clears(acc, b, NULL);
}

#endif
