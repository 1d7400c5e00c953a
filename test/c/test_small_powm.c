/*
 * test_small_powm.c - small_powm against mpz_powm, bit for bit: random
 * one- and two-limb odd moduli of every width, bases 0, 1, m-1 and random,
 * exponents from 1 bit to beyond the modulus, all ones, single bits; and
 * jbigi_modpow, which sends one-limb moduli there, against the same.
 */
#include <gmp.h>
#include <stdio.h>

#include "core/arith.h"
#include "check.h"
#include "engines/small/small_powm.h"

static gmp_randstate_t state;

static void check_case(const mpz_t b, const mpz_t e, const mpz_t m, const char *what)
{
    mpz_t want, got;
    mpz_inits(want, got, NULL);
    mpz_powm(want, b, e, m);
    const mp_size_t n = (mp_size_t)mpz_size(m);
    mp_limb_t bl[JBIGI_SMALL_MAX_LIMBS] = {0}, rl[JBIGI_SMALL_MAX_LIMBS];
    mpz_t reduced;
    mpz_init(reduced);
    mpz_mod(reduced, b, m);
    mpz_export(bl, NULL, -1, sizeof(mp_limb_t), 0, 0, reduced);
    int rc = jbigi_small_powm(rl, bl, mpz_limbs_read(e), (mp_size_t)mpz_size(e), mpz_limbs_read(m), n);
    mpz_import(got, (size_t)n, -1, sizeof(mp_limb_t), 0, 0, rl);
    CHECK(rc == 0 && mpz_cmp(got, want) == 0, "%s: small_powm, %zu-bit modulus", what, mpz_sizeinbase(m, 2));
    enum jbigi_status st = jbigi_modpow(got, b, e, m);
    CHECK(st == JBIGI_OK && mpz_cmp(got, want) == 0, "%s: jbigi_modpow, %zu-bit modulus", what,
          mpz_sizeinbase(m, 2));
    mpz_clears(want, got, reduced, NULL);
}

int main(void)
{
    uint64_t seed = test_seed("test_small_powm");
    gmp_randinit_default(state);
    gmp_randseed_ui(state, (unsigned long)seed);
    mpz_t m, b, e;
    mpz_inits(m, b, e, NULL);
    for (unsigned bits = 2; bits <= GMP_NUMB_BITS * JBIGI_SMALL_MAX_LIMBS; bits++) {
        for (long c = 0; c < test_scale(400); c++) {
            mpz_urandomb(m, state, bits);
            mpz_setbit(m, bits - 1);
            mpz_setbit(m, 0);
            switch (c % 4) {
            case 0: mpz_set_ui(b, 0); break;
            case 1: mpz_set_ui(b, 1); break;
            case 2: mpz_sub_ui(b, m, 1); break;
            default: mpz_urandomb(b, state, bits + 8); break; /* often >= m: reduced first */
            }
            unsigned ebits = 1 + (unsigned)(rng_next() % (bits + 80));
            mpz_urandomb(e, state, ebits);
            if (c % 7 == 0) { /* all ones */
                mpz_set_ui(e, 0);
                mpz_setbit(e, ebits);
                mpz_sub_ui(e, e, 1);
            } else if (c % 11 == 0) { /* one bit */
                mpz_set_ui(e, 0);
                mpz_setbit(e, ebits - 1);
            }
            if (mpz_sgn(e) == 0)
                mpz_set_ui(e, 1);
            check_case(b, e, m, c % 4 == 3 ? "random base" : "edge base");
        }
    }
    /* The largest moduli of each limb count: all ones. */
    for (unsigned bits = GMP_NUMB_BITS; bits <= GMP_NUMB_BITS * JBIGI_SMALL_MAX_LIMBS; bits += GMP_NUMB_BITS) {
        mpz_set_ui(m, 0);
        mpz_setbit(m, bits);
        mpz_sub_ui(m, m, 1);
        mpz_urandomb(b, state, bits);
        mpz_urandomb(e, state, 300);
        mpz_setbit(e, 299);
        check_case(b, e, m, "all-ones modulus");
    }
    mpz_clears(m, b, e, NULL);
    gmp_randclear(state);
    return finish("test_small_powm");
}
