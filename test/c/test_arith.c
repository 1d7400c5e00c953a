/*
 * test_arith.c - arith.c and version.c: BigInteger's edge cases, and random
 * cases against a plain square-and-multiply reference written here.
 */
#include <gmp.h>
#include <string.h>

#include "core/arith.h"
#include "check.h"
#include "engines/engine.h"
#include "reference.h"
#include "jni/version.h"

static void set(mpz_t v, const char *decimal)
{
    mpz_set_str(v, decimal, 10);
}

/* Runs op on decimal strings and checks status and, when OK, the result. */
static void expect(const char *what, enum jbigi_status want_status, const char *want,
                   enum jbigi_status got_status, const mpz_t got)
{
    CHECK(got_status == want_status, "%s: status %d, want %d", what, got_status, want_status);
    if (want_status == JBIGI_OK && got_status == JBIGI_OK) {
        mpz_t w;
        mpz_init_set_str(w, want, 10);
        CHECK(mpz_cmp(got, w) == 0, "%s: result %s, want %s", what, mpz_get_str(NULL, 10, got), want);
        mpz_clear(w);
    }
}

static void check_edge_cases(void)
{
    mpz_t b, e, m, r;
    mpz_inits(b, e, m, r, NULL);
#define POW(fn, sb, se, sm, st, want)                                 \
    do {                                                              \
        set(b, sb); set(e, se); set(m, sm);                           \
        expect(#fn "(" sb "," se "," sm ")", st, want, fn(r, b, e, m), r); \
    } while (0)
    POW(jbigi_modpow, "2", "10", "1000", JBIGI_OK, "24");
    POW(jbigi_modpow, "2", "10", "0", JBIGI_MODULUS_NOT_POSITIVE, "");
    POW(jbigi_modpow, "2", "10", "-7", JBIGI_MODULUS_NOT_POSITIVE, "");
    POW(jbigi_modpow, "5", "3", "1", JBIGI_OK, "0");
    POW(jbigi_modpow, "0", "-1", "1", JBIGI_OK, "0");           /* m == 1 wins over no inverse */
    POW(jbigi_modpow, "0", "0", "7", JBIGI_OK, "1");
    POW(jbigi_modpow, "-2", "3", "7", JBIGI_OK, "6");           /* -8 mod 7 */
    POW(jbigi_modpow, "3", "-1", "7", JBIGI_OK, "5");           /* 3*5 = 15 = 1 mod 7 */
    POW(jbigi_modpow, "3", "-2", "7", JBIGI_OK, "4");           /* 5^2 = 25 = 4 mod 7 */
    POW(jbigi_modpow, "-3", "-3", "7", JBIGI_OK, "1");          /* -3 = 4, 4^3 = 64 = 1 mod 7 */
    POW(jbigi_modpow, "-3", "-1", "7", JBIGI_OK, "2");          /* 4 * 2 = 8 = 1 mod 7 */
    POW(jbigi_modpow, "2", "-1", "8", JBIGI_NOT_INVERTIBLE, "");
    POW(jbigi_modpow, "0", "-5", "11", JBIGI_NOT_INVERTIBLE, "");
    POW(jbigi_modpow, "14", "-1", "7", JBIGI_NOT_INVERTIBLE, "");
    POW(jbigi_modpow, "100", "3", "7", JBIGI_OK, "1");          /* base > m */
    POW(jbigi_modpow_ct, "2", "10", "1001", JBIGI_OK, "23");
    POW(jbigi_modpow_ct, "2", "10", "1000", JBIGI_MODULUS_EVEN, "");
    POW(jbigi_modpow_ct, "2", "0", "1001", JBIGI_EXPONENT_NOT_POSITIVE, "");
    POW(jbigi_modpow_ct, "2", "-3", "1001", JBIGI_EXPONENT_NOT_POSITIVE, "");
    POW(jbigi_modpow_ct, "2", "3", "0", JBIGI_MODULUS_NOT_POSITIVE, "");
    POW(jbigi_modpow_ct, "2", "3", "-5", JBIGI_MODULUS_NOT_POSITIVE, "");
    POW(jbigi_modpow_ct, "2", "3", "1", JBIGI_OK, "0");
    POW(jbigi_modpow_ct, "-2", "3", "7", JBIGI_OK, "6");
    POW(jbigi_modpow_ct, "-9", "1", "7", JBIGI_OK, "5");
    POW(jbigi_modpow_ct, "0", "5", "7", JBIGI_OK, "0");
#undef POW
#define INV(sb, sm, st, want)                                         \
    do {                                                              \
        set(b, sb); set(m, sm);                                       \
        expect("modinverse(" sb "," sm ")", st, want, jbigi_modinverse(r, b, m), r); \
    } while (0)
    INV("3", "7", JBIGI_OK, "5");
    INV("-3", "7", JBIGI_OK, "2");
    INV("10", "7", JBIGI_OK, "5");
    INV("5", "1", JBIGI_OK, "0");
    INV("0", "1", JBIGI_OK, "0");
    INV("0", "7", JBIGI_NOT_INVERTIBLE, "");
    INV("6", "9", JBIGI_NOT_INVERTIBLE, "");
    INV("3", "0", JBIGI_MODULUS_NOT_POSITIVE, "");
    INV("3", "-7", JBIGI_MODULUS_NOT_POSITIVE, "");
#undef INV
    mpz_clears(b, e, m, r, NULL);
}

static void random_mpz(mpz_t v, unsigned max_bits, gmp_randstate_t state)
{
    unsigned bits = 1 + (unsigned)(rng_next() % max_bits);
    mpz_urandomb(v, state, bits);
    if (rng_next() & 1)
        mpz_neg(v, v);
}

static void check_random_cases(void)
{
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, (unsigned long)rng_next());
    mpz_t b, e, m, r, want, check;
    mpz_inits(b, e, m, r, want, check, NULL);
    const int cases = (int)test_scale(4000);
    for (int i = 0; i < cases; i++) {
        random_mpz(b, 600, state);
        random_mpz(e, 300, state);
        mpz_abs(e, e);
        mpz_urandomb(m, state, 1 + (unsigned)(rng_next() % 600));
        mpz_add_ui(m, m, 2);
        if (i % 2)
            mpz_setbit(m, 0);

        CHECK(jbigi_modpow(r, b, e, m) == JBIGI_OK, "modpow status");
        reference_powm(want, b, e, m);
        CHECK(mpz_cmp(r, want) == 0, "modpow random case %d", i);

        if (mpz_odd_p(m) && mpz_sgn(e) > 0) {
            CHECK(jbigi_modpow_ct(r, b, e, m) == JBIGI_OK, "modpow_ct status");
            CHECK(mpz_cmp(r, want) == 0, "modpow_ct random case %d", i);
        }

        /* modinverse: r*b = 1 mod m exactly when gcd(b, m) = 1. */
        mpz_gcd(check, b, m);
        int invertible = mpz_cmp_ui(check, 1) == 0;
        enum jbigi_status st = jbigi_modinverse(r, b, m);
        CHECK(st == (invertible ? JBIGI_OK : JBIGI_NOT_INVERTIBLE), "modinverse status case %d", i);
        if (invertible && st == JBIGI_OK) {
            mpz_mul(check, r, b);
            mpz_mod(check, check, m);
            CHECK(mpz_cmp_ui(check, 1) == 0 && mpz_sgn(r) >= 0 && mpz_cmp(r, m) < 0,
                  "modinverse value case %d", i);
            /* A negative exponent is the inverse raised to |exponent|. */
            mpz_neg(e, e);
            if (mpz_sgn(e) < 0) {
                CHECK(jbigi_modpow(check, b, e, m) == JBIGI_OK, "negative exponent status");
                mpz_neg(e, e);
                reference_powm(want, r, e, m);
                CHECK(mpz_cmp(check, want) == 0, "negative exponent case %d", i);
            }
        }
    }
    mpz_clears(b, e, m, r, want, check, NULL);
    gmp_randclear(state);
}

/* The base 2 through every engine this CPU runs (each has a base-2 path
 * at some sizes, GMP's from 512 bits), at lengths around the engines' size
 * boundaries, against GMP: both exponentiations, exponents short, long,
 * wider than the modulus and all ones. */
static void check_base_two(void)
{
    static const char *const engines[] = {"auto", "gmp", "adx", "ifma"};
    static const int limbs[] = {2, 4, 7, 8, 9, 12, 15, 16, 17, 23, 24, 28, 31, 32, 33, 36, 48};
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, (unsigned long)rng_next());
    mpz_t two, e, m, r, want;
    mpz_inits(two, e, m, r, want, NULL);
    mpz_set_ui(two, 2);
    int engines_run = 0;
    for (size_t k = 0; k < sizeof engines / sizeof engines[0]; k++) {
        if (jbigi_engine_force(engines[k]) != 0)
            continue; /* not on this CPU */
        engines_run++;
        for (size_t i = 0; i < sizeof limbs / sizeof limbs[0]; i++) {
            const unsigned bits = 64 * (unsigned)limbs[i]; /* 64-bit limbs */
            const int cases = (int)test_scale(limbs[i] <= 16 ? 12 : limbs[i] <= 36 ? 4 : 2);
            for (int c = 0; c < cases; c++) {
                mpz_urandomb(m, state, bits - (unsigned)(rng_next() % 3) * (c % 2));
                mpz_setbit(m, 0);
                if (mpz_cmp_ui(m, 3) < 0)
                    mpz_set_ui(m, 3);
                switch (c % 4) {
                case 0: mpz_urandomb(e, state, 1 + (unsigned)(rng_next() % 70)); break;
                case 1: mpz_urandomb(e, state, bits); break;
                case 2: mpz_urandomb(e, state, bits + 64); break; /* wider than m */
                default: /* all ones over the modulus' width */
                    mpz_set_ui(e, 0);
                    mpz_setbit(e, bits);
                    mpz_sub_ui(e, e, 1);
                }
                if (mpz_sgn(e) == 0)
                    mpz_set_ui(e, 1);
                mpz_powm(want, two, e, m);
                CHECK(jbigi_modpow(r, two, e, m) == JBIGI_OK && mpz_cmp(r, want) == 0,
                      "engine %s: 2^e mod m, %u bits, case %d", engines[k], bits, c);
                CHECK(jbigi_modpow_ct(r, two, e, m) == JBIGI_OK && mpz_cmp(r, want) == 0,
                      "engine %s: constant-time 2^e mod m, %u bits, case %d", engines[k], bits, c);
            }
        }
    }
    jbigi_engine_force("auto");
    CHECK(engines_run >= 2, "only %d engines ran the base 2", engines_run);
    mpz_clears(two, e, m, r, want, NULL);
    gmp_randclear(state);
}

static void check_version_parsing(void)
{
    static const struct {
        const char *s;
        int parts[3];
    } cases[] = {
        {"6.2.1", {6, 2, 1}}, {"6.3", {6, 3, 0}}, {"6.3.0", {6, 3, 0}},
        {"10.12.100", {10, 12, 100}}, {"7", {7, 0, 0}}, {"", {0, 0, 0}},
        {"6.2.1-rc2", {6, 2, 1}}, {"99999999999.1.2", {-1, 1, 2}}, {"6..2", {6, 0, 2}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int p = 0; p < 3; p++)
            CHECK(jbigi_gmp_version_part(cases[i].s, p) == cases[i].parts[p],
                  "version \"%s\" part %d: %d", cases[i].s, p, jbigi_gmp_version_part(cases[i].s, p));
    CHECK(jbigi_gmp_version_part(gmp_version, 0) >= 4, "running GMP \"%s\" major", gmp_version);
}

int main(void)
{
    test_seed("test_arith");
    check_edge_cases();
    check_version_parsing();
    check_random_cases();
    check_base_two();
    return finish("test_arith");
}
