/*
 * test_jacobi.c - the Jacobi symbol (core/jacobi.c) against GMP's
 * mpz_jacobi: random odd moduli of 1 to 9 limbs and larger, random values
 * and values made to meet the algorithm's corners (sharing the modulus'
 * top bits, so that batches stop early; long runs of equal bits; common
 * factors), and the edge values a = 0, 1, n-1, n, n+1, multiples of n,
 * negative a, a above n, n = 1 and 2^255 - 19.
 */
#include <stdio.h>
#include <gmp.h>

#include "check.h"
#include "core/jacobi.h"

static gmp_randstate_t rs;

/* Both entry points against mpz_jacobi for a and odd n > 0. */
static void check_pair(const mpz_t a, const mpz_t n, const char *what)
{
    const int want = mpz_jacobi(a, n);
    const int got = jbigi_jacobi(a, n);
    CHECK(got == want, "%s: jacobi %d, mpz_jacobi %d (a %zu limbs, n %zu limbs)", what, got, want, mpz_size(a),
          mpz_size(n));
    if (got != want && checks_failed <= 3) {
        fputs("  a = 0x", stderr);
        mpz_out_str(stderr, 16, a);
        fputs("\n  n = 0x", stderr);
        mpz_out_str(stderr, 16, n);
        fputc('\n', stderr);
    }
    if (mpz_sgn(a) >= 0) {
        const int limbs = jbigi_jacobi_limbs(mpz_limbs_read(a), (mp_size_t)mpz_size(a), mpz_limbs_read(n),
                                             (mp_size_t)mpz_size(n));
        CHECK(limbs == want, "%s: jacobi_limbs %d, mpz_jacobi %d", what, limbs, want);
    }
}

/* A random odd n of about bits bits (at least 1). */
static void random_odd(mpz_t n, unsigned long bits, int sparse)
{
    if (sparse)
        mpz_rrandomb(n, rs, bits);
    else
        mpz_urandomb(n, rs, bits);
    mpz_setbit(n, 0);
}

/* a = n + d, n - d, k n + d for small d: the values share n's top bits. */
static void near_multiples(const mpz_t n, const char *what)
{
    mpz_t a;
    mpz_init(a);
    for (long d = -3; d <= 3; d++) {
        for (unsigned long k = 1; k <= 3; k++) {
            mpz_mul_ui(a, n, k);
            if (d < 0)
                mpz_sub_ui(a, a, (unsigned long)-d);
            else
                mpz_add_ui(a, a, (unsigned long)d);
            check_pair(a, n, what);
            mpz_neg(a, a);
            check_pair(a, n, what);
        }
    }
    /* n - d 2^j for j across the width: shared top bits of every length */
    for (unsigned long j = 0; j + 2 < mpz_sizeinbase(n, 2); j += 7) {
        mpz_set_ui(a, 1);
        mpz_mul_2exp(a, a, j);
        mpz_add_ui(a, a, rng_next() % 8);
        mpz_sub(a, n, a);
        if (mpz_sgn(a) >= 0)
            check_pair(a, n, what);
    }
    mpz_clear(a);
}

/* The edge values for modulus n. */
static void edges(const mpz_t n, const char *what)
{
    mpz_t a;
    mpz_init(a);
    const long small[] = {0, 1, 2, 3, 4, -1, -2, -3};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        mpz_set_si(a, small[i]);
        check_pair(a, n, what);
    }
    mpz_sub_ui(a, n, 1); /* n - 1 */
    check_pair(a, n, what);
    mpz_set(a, n); /* n, 2n, -n, n^2, n^2 + 1 */
    check_pair(a, n, what);
    mpz_mul_2exp(a, n, 1);
    check_pair(a, n, what);
    mpz_neg(a, n);
    check_pair(a, n, what);
    mpz_mul(a, n, n);
    check_pair(a, n, what);
    mpz_add_ui(a, a, 1);
    check_pair(a, n, what);
    mpz_neg(a, a);
    check_pair(a, n, what);
    mpz_set_ui(a, 1); /* 2^k for k around n's width and far above */
    mpz_mul_2exp(a, a, mpz_sizeinbase(n, 2) + 64);
    check_pair(a, n, what);
    mpz_set_ui(a, 1);
    mpz_mul_2exp(a, a, 40 * 64 + 3);
    check_pair(a, n, what);
    mpz_sub_ui(a, a, 1);
    check_pair(a, n, what);
    mpz_clear(a);
}

/* count random cases with n of 1 to max_limbs limbs. */
static void random_cases(long count, int max_limbs, const char *what)
{
    mpz_t a, n, g;
    mpz_inits(a, n, g, NULL);
    for (long i = 0; i < count; i++) {
        const unsigned long nbits = 1 + rng_next() % (64ul * (unsigned long)max_limbs);
        random_odd(n, nbits, (int)(rng_next() % 4 == 0));
        switch (rng_next() % 6) {
        case 0: /* below n */
            mpz_urandomm(a, rs, n);
            break;
        case 1: /* any length around n's, sparse bits */
            mpz_rrandomb(a, rs, nbits + rng_next() % 130);
            break;
        case 2: /* a common factor with n, most times */
            random_odd(g, 1 + rng_next() % 96, 0);
            mpz_mul(n, n, g);
            mpz_urandomb(a, rs, nbits);
            mpz_mul(a, a, g);
            break;
        case 3: /* negative */
            mpz_urandomb(a, rs, nbits + rng_next() % 70);
            mpz_neg(a, a);
            break;
        case 4: /* short */
            mpz_urandomb(a, rs, 1 + rng_next() % 80);
            break;
        default: /* far above n */
            mpz_urandomb(a, rs, nbits + 64 + rng_next() % 400);
            break;
        }
        check_pair(a, n, what);
    }
    mpz_clears(a, n, g, NULL);
}

int main(void)
{
    const uint64_t seed = test_seed("test_jacobi");
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    mpz_t n;
    mpz_init(n);

    /* n = 1, small n, 2^255 - 19, moduli of every limb count */
    mpz_set_ui(n, 1);
    edges(n, "n = 1");
    for (unsigned long k = 3; k < 200; k += 2) {
        mpz_set_ui(n, k);
        edges(n, "small n");
    }
    mpz_ui_pow_ui(n, 2, 255);
    mpz_sub_ui(n, n, 19);
    edges(n, "2^255 - 19");
    near_multiples(n, "2^255 - 19, near multiples");
    for (int limbs = 1; limbs <= 40; limbs++) {
        for (int i = 0; i < 4; i++) {
            random_odd(n, 64ul * (unsigned long)limbs - (i == 0 ? 0 : rng_next() % 64), i == 3);
            edges(n, "edges");
            near_multiples(n, "near multiples");
        }
        /* n all ones, and 2^k + 1 */
        mpz_set_ui(n, 1);
        mpz_mul_2exp(n, n, 64ul * (unsigned long)limbs);
        mpz_sub_ui(n, n, 1);
        edges(n, "all ones");
        mpz_add_ui(n, n, 2);
        edges(n, "2^k + 1");
    }

    /* random: most at 4 limbs and below 10, some up to 40 */
    random_cases(test_scale(200000), 4, "random, up to 4 limbs");
    random_cases(test_scale(200000), 9, "random, up to 9 limbs");
    random_cases(test_scale(20000), 40, "random, up to 40 limbs");

    /* random bases under 2^255 - 19, as the Euler shortcut sees them */
    mpz_t a;
    mpz_init(a);
    mpz_ui_pow_ui(n, 2, 255);
    mpz_sub_ui(n, n, 19);
    for (long i = 0; i < test_scale(100000); i++) {
        mpz_urandomb(a, rs, 200 + rng_next() % 120);
        check_pair(a, n, "2^255 - 19, random");
    }
    mpz_clear(a);

    mpz_clear(n);
    gmp_randclear(rs);
    return finish("test_jacobi");
}
