/*
 * test_euler.c - Euler's criterion in modPow (core/euler.c): for the
 * table's primes and the exponent (p-1)/2, jbigi_modpow answers from the
 * Legendre symbol exactly what the power gives (against mpz_powm of the
 * base reduced as BigInteger reduces it): random bases, 0, 1, 2, p-1, p,
 * multiples of p, bases above p and far above, negative bases.  The
 * exponents (p-1)/2 +- 1 and (p-1)/2 + (p-1), other moduli (p +- 2, p
 * with bits above) and negative exponents do not take it, and their
 * results are right; the constant-time power never takes it.
 */
#include <stdio.h>
#include <gmp.h>

#include "check.h"
#include "core/arith.h"
#include "core/euler.h"

static gmp_randstate_t rs;

/* base^exp mod m as BigInteger.modPow gives it, for exp >= 0. */
static void power_reference(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m)
{
    mpz_t b;
    mpz_init(b);
    mpz_mod(b, base, m);
    mpz_powm(r, b, exp, m);
    mpz_clear(b);
}

/* jbigi_modpow(base, exp, m) against the power, and whether the shortcut
 * answers (shortcut: 1 if it must, 0 if it must not). */
static void check_power(const mpz_t base, const mpz_t exp, const mpz_t m, int shortcut, const char *what)
{
    mpz_t r, want, s;
    mpz_inits(r, want, s, NULL);
    CHECK(jbigi_euler_shortcut(s, base, exp, m) == shortcut, "%s: the shortcut %s", what,
          shortcut ? "did not answer" : "answered");
    if (shortcut) {
        power_reference(want, base, exp, m);
        CHECK(mpz_cmp(s, want) == 0, "%s: the shortcut's answer is not the power's", what);
    }
    CHECK(jbigi_modpow(r, base, exp, m) == JBIGI_OK, "%s: modpow refused", what);
    if (mpz_sgn(exp) >= 0) {
        power_reference(want, base, exp, m);
        CHECK(mpz_cmp(r, want) == 0, "%s: modpow differs from the power", what);
    }
    mpz_clears(r, want, s, NULL);
}

int main(void)
{
    const uint64_t seed = test_seed("test_euler");
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    mpz_t p, half, base, e, m, r, want;
    mpz_inits(p, half, base, e, m, r, want, NULL);

    for (size_t k = 0; k < jbigi_known_prime_count; k++) {
        const struct jbigi_known_prime *row = &jbigi_known_primes[k];
        mpz_set_ui(p, 0);
        for (int i = JBIGI_KNOWN_PRIME_WORDS - 1; i >= 0; i--) {
            mpz_mul_2exp(p, p, 32);
            mpz_add_ui(p, p, (unsigned long)(row->words[i] >> 32));
            mpz_mul_2exp(p, p, 32);
            mpz_add_ui(p, p, (unsigned long)(row->words[i] & 0xffffffffu));
        }
        mpz_sub_ui(half, p, 1);
        mpz_fdiv_q_2exp(half, half, 1);

        /* edge bases: 0, 1, 2, -1, -2, p-1, p, p+1, 2p, 5p, p^2, -p, -(p-1), 2^600 + 1 */
        const long small[] = {0, 1, 2, 3, 4, -1, -2};
        for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
            mpz_set_si(base, small[i]);
            check_power(base, half, p, 1, "small base");
        }
        mpz_sub_ui(base, p, 1);
        check_power(base, half, p, 1, "p - 1");
        mpz_set(base, p);
        check_power(base, half, p, 1, "p");
        mpz_add_ui(base, p, 1);
        check_power(base, half, p, 1, "p + 1");
        mpz_mul_ui(base, p, 2);
        check_power(base, half, p, 1, "2p");
        mpz_mul_ui(base, p, 5);
        check_power(base, half, p, 1, "5p");
        mpz_mul(base, p, p);
        check_power(base, half, p, 1, "p^2");
        mpz_neg(base, p);
        check_power(base, half, p, 1, "-p");
        mpz_sub_ui(base, p, 1);
        mpz_neg(base, base);
        check_power(base, half, p, 1, "-(p - 1)");
        mpz_ui_pow_ui(base, 2, 600);
        mpz_add_ui(base, base, 1);
        check_power(base, half, p, 1, "2^600 + 1");

        /* random bases below p, above p, negative */
        int squares = 0, others = 0;
        for (long i = 0; i < test_scale(20000); i++) {
            switch (i % 4) {
            case 0:
            case 1:
                mpz_urandomm(base, rs, p);
                break;
            case 2:
                mpz_urandomb(base, rs, row->bits + 1 + rng_next() % 300);
                break;
            default:
                mpz_urandomb(base, rs, 1 + rng_next() % (row->bits + 64));
                mpz_neg(base, base);
                break;
            }
            check_power(base, half, p, 1, "random base");
            mpz_powm(want, base, half, p);
            if (mpz_cmp_ui(want, 1) == 0)
                squares++;
            else
                others++;
        }
        CHECK(squares > test_scale(20000) / 4 && others > test_scale(20000) / 4,
              "random bases: %d squares, %d others", squares, others);

        /* exponents near (p-1)/2, and other moduli: no shortcut, right results */
        for (long i = 0; i < test_scale(200); i++) {
            mpz_urandomm(base, rs, p);
            if (i % 5 == 0)
                mpz_neg(base, base);
            mpz_add_ui(e, half, 1);
            check_power(base, e, p, 0, "(p-1)/2 + 1");
            mpz_sub_ui(e, half, 1);
            check_power(base, e, p, 0, "(p-1)/2 - 1");
            mpz_add(e, half, p);
            mpz_sub_ui(e, e, 1);
            check_power(base, e, p, 0, "(p-1)/2 + (p-1)");
            mpz_mul_2exp(e, half, 1);
            check_power(base, e, p, 0, "p - 1");
            mpz_add_ui(m, p, 2);
            mpz_sub_ui(e, m, 1);
            mpz_fdiv_q_2exp(e, e, 1);
            check_power(base, e, m, 0, "p + 2, its own (m-1)/2");
            mpz_sub_ui(m, p, 2);
            mpz_sub_ui(e, m, 1);
            mpz_fdiv_q_2exp(e, e, 1);
            check_power(base, e, m, 0, "p - 2, its own (m-1)/2");
            mpz_setbit(m, row->bits + 64); /* p with a bit far above */
            mpz_add_ui(m, m, 2);
            check_power(base, half, m, 0, "p + 2^k");
            check_power(base, half, p, 1, "(p-1)/2 again");
        }
        /* a negative exponent -(p-1)/2: the inverse's power, no shortcut */
        mpz_set_ui(base, 12345);
        mpz_neg(e, half);
        mpz_t s;
        mpz_init(s);
        CHECK(jbigi_euler_shortcut(s, base, e, p) == 0, "a negative exponent took the shortcut");
        CHECK(jbigi_modpow(r, base, e, p) == JBIGI_OK, "negative exponent refused");
        mpz_invert(want, base, p);
        mpz_powm(want, want, half, p);
        CHECK(mpz_cmp(r, want) == 0, "negative exponent: wrong result");
        mpz_clear(s);

        /* the constant-time power does the power, and agrees */
        for (int i = 0; i < 50; i++) {
            mpz_urandomm(base, rs, p);
            CHECK(jbigi_modpow_ct(r, base, half, p) == JBIGI_OK, "modpow_ct refused");
            power_reference(want, base, half, p);
            CHECK(mpz_cmp(r, want) == 0, "modpow_ct differs");
        }
    }
    mpz_clears(p, half, base, e, m, r, want, NULL);
    gmp_randclear(rs);
    return finish("test_euler");
}
