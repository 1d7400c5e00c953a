/*
 * powm_cases.h - the inputs the engines' tests share: random limbs with the
 * carry-stressing patterns, random odd moduli and bases below them, the
 * moduli of one size that sit on edges, and the comparison of an engine's
 * exponentiations with GMP's.  Include after check.h (rng_next).
 */
#ifndef JBIGI_TEST_POWM_CASES_H
#define JBIGI_TEST_POWM_CASES_H

#include <gmp.h>
#include <string.h>

/* The largest modulus of the engines, in limbs (8192 bits). */
#define MAXN 128

/* Random limbs: uniform, or (one time in three) long runs of ones and zeros,
 * the patterns that stress carry chains, as mpz_rrandomb does. */
static inline void random_limbs(mp_limb_t *x, mp_size_t n)
{
    if (rng_next() % 3 != 0) {
        for (mp_size_t i = 0; i < n; i++)
            x[i] = rng_next();
        return;
    }
    memset(x, 0, (size_t)n * sizeof(mp_limb_t));
    size_t bits = (size_t)n * GMP_NUMB_BITS, pos = 0;
    int ones = (int)(rng_next() & 1);
    while (pos < bits) {
        size_t run = 1 + rng_next() % 80;
        if (ones)
            for (size_t i = pos; i < pos + run && i < bits; i++)
                x[i / GMP_NUMB_BITS] |= (mp_limb_t)1 << (i % GMP_NUMB_BITS);
        pos += run;
        ones = !ones;
    }
}

static inline mp_size_t normalized_size(const mp_limb_t *x, mp_size_t n)
{
    while (n > 0 && x[n - 1] == 0)
        n--;
    return n;
}

static inline int limbs_equal_mpz(const mp_limb_t *x, mp_size_t n, const mpz_t want)
{
    mpz_t got;
    mpz_roinit_n(got, x, normalized_size(x, n));
    return mpz_cmp(got, want) == 0;
}

/* b = a random value below m (n limbs). */
static inline void random_below(mp_limb_t *b, const mp_limb_t *m, mp_size_t n)
{
    random_limbs(b, n);
    mp_size_t top = normalized_size(m, n);
    /* Below m: fewer bits than m, or m's top limb halved. */
    b[top - 1] = m[top - 1] > 1 ? b[top - 1] % m[top - 1] : 0;
    for (mp_size_t i = top; i < n; i++)
        b[i] = 0;
}

static inline void random_modulus(mp_limb_t *m, mp_size_t n)
{
    random_limbs(m, n);
    if (m[n - 1] == 0)
        m[n - 1] = rng_next() | 1;
    m[0] |= 1;
}

/* The moduli of one size that sit on edges. */
static inline void edge_moduli(mp_size_t n, mp_limb_t (*out)[MAXN], int *count)
{
    int c = 0;
    /* 2^k - 1, the largest of the size */
    for (mp_size_t i = 0; i < n; i++)
        out[c][i] = ~(mp_limb_t)0;
    c++;
    /* 2^(k-1) + 1 */
    memset(out[c], 0, sizeof out[c]);
    out[c][0] = 1;
    out[c][n - 1] |= (mp_limb_t)1 << (GMP_NUMB_BITS - 1);
    c++;
    /* the smallest odd modulus of n limbs: 2^(64(n-1)) + 1 */
    if (n > 1) {
        memset(out[c], 0, sizeof out[c]);
        out[c][0] = 1;
        out[c][n - 1] = 1;
        c++;
    }
    /* a random one with top limb 1 (N digits just covering it) */
    random_modulus(out[c], n);
    out[c][n - 1] = 1;
    c++;
    *count = c;
}

/* e (en limbs) = (2^k - 1) 2^s + c, c random below 2^s: a run of k ones
 * on top, the drivers' chain for such exponents (powm_driver.h), k from 1
 * to the whole width, s mostly a few bits (the form of a prime's own
 * powers), sometimes up to half the width (where the chain stops paying). */
static inline void ones_run_exponent(mp_limb_t *e, mp_size_t en)
{
    const size_t bits = (size_t)en * GMP_NUMB_BITS - (size_t)(rng_next() % GMP_NUMB_BITS);
    const size_t s = rng_next() % 4 != 0 ? (size_t)(rng_next() % 24) % bits : (size_t)(rng_next() % (bits / 2 + 1));
    random_limbs(e, en);
    for (size_t i = s; i < (size_t)en * GMP_NUMB_BITS; i++) {
        const mp_limb_t bit = (mp_limb_t)1 << (i % GMP_NUMB_BITS);
        if (i < bits)
            e[i / GMP_NUMB_BITS] |= bit;
        else
            e[i / GMP_NUMB_BITS] &= ~bit;
    }
}

/* An engine's two exponentiations, as the comparison below calls them. */
typedef int (*engine_powm_fn)(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                              const mp_limb_t *m, mp_size_t n);
typedef int (*engine_powm_sec_fn)(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                                  const mp_limb_t *m, mp_size_t n);

/*
 * Runs an engine's exponentiations on (b, e, m) and checks them against
 * GMP: powm against mpz_powm and, with with_ct, powm_sec against
 * mpz_powm_sec (1 mod m for e = 0, which GMP's refuses), twice: e at its
 * own en limbs (the short exponent's path), and zero-padded to n limbs.
 * b has n limbs and is < m; e has en <= n limbs.  Returns how many
 * exponentiations were compared.
 */
static inline unsigned long check_engine_case(engine_powm_fn powm, engine_powm_sec_fn powm_sec, const char *what,
                                              const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                                              const mp_limb_t *m, mp_size_t n, int with_ct)
{
    mp_limb_t r[MAXN], epad[MAXN];
    mpz_t zb, ze, zm, want;
    mpz_init(want);
    mpz_roinit_n(zb, b, normalized_size(b, n));
    mpz_roinit_n(ze, e, normalized_size(e, en));
    mpz_roinit_n(zm, m, n);

    mpz_powm(want, zb, ze, zm);
    memset(r, 0xa5, sizeof r);
    int rc = powm(r, b, e, en, m, n);
    CHECK(rc == 0, "%s: powm n=%ld returned %d", what, (long)n, rc);
    CHECK(rc == 0 && limbs_equal_mpz(r, n, want), "%s: powm differs from mpz_powm (n=%ld, en=%ld)", what,
          (long)n, (long)en);
    unsigned long compared = 1;
    if (with_ct) {
        memset(epad, 0, sizeof epad);
        memcpy(epad, e, (size_t)en * sizeof(mp_limb_t));
        if (mpz_sgn(ze) > 0)
            mpz_powm_sec(want, zb, ze, zm);
        else
            mpz_set_ui(want, mpz_cmp_ui(zm, 1) == 0 ? 0 : 1);
        const mp_size_t widths[2] = {en, n};
        for (int k = 0; k < 2; k++) {
            if (widths[k] < 1 || (k == 1 && en == n))
                continue;
            memset(r, 0x5a, sizeof r);
            rc = powm_sec(r, b, epad, widths[k], m, n);
            CHECK(rc == 0, "%s: powm_sec n=%ld en=%ld returned %d", what, (long)n, (long)widths[k], rc);
            CHECK(rc == 0 && limbs_equal_mpz(r, n, want), "%s: powm_sec differs from mpz_powm_sec (n=%ld, en=%ld)",
                  what, (long)n, (long)widths[k]);
            compared++;
        }
    }
    mpz_clear(want);
    return compared;
}

#endif
