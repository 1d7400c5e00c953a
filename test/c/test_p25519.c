/*
 * test_p25519.c - the special-form engine for p = 2^255 - 19
 * (src/engines/p25519/) against GMP: the field's words (products and
 * squares at the top of the words' range, long chains, the canonical
 * reduction), both powers on the edge bases and the Elligator2 exponents
 * ((p-1)/2, (p+3)/8, (p-5)/8, (p-1)/4, p-2) and random ones, the
 * constant-time power against the variable-time one at several public
 * widths, the refusal of every other modulus, the self-test, and the
 * registry's choice: the engine takes p forced and on auto (where it is
 * built), never another modulus, and the whole path (jbigi_modpow,
 * jbigi_modpow_ct) reduces bases above p, multiples of p and negative ones
 * first.  Where the field is not built (32-bit limbs) the engine checks
 * are skipped and the engine must never be chosen.
 *
 * JBIGI_TEST_SEED replays a run; JBIGI_TEST_SCALE (percent) scales the
 * random case counts.
 */
#include <gmp.h>
#include <string.h>

#include "check.h"
#include "core/arith.h"
#include "engines/engine.h"
#include "engines/p25519/p25519.h"

#define N JBIGI_P25519_LIMBS
#define W JBIGI_P25519_WORDS

static mpz_t p;

/* The value of a field element's words (not reduced). */
static void words_value(mpz_t v, const mp_limb_t *h)
{
    mpz_set_ui(v, 0);
    for (int i = W - 1; i >= 0; i--) {
        mpz_t word; /* a limb read in place: long is 32 bits on Windows */
        mpz_mul_2exp(v, v, 51);
        mpz_add(v, v, mpz_roinit_n(word, &h[i], h[i] != 0));
    }
}

/* Random words below 2^bits each (bits <= 52). */
static void random_words(mp_limb_t *h, unsigned bits)
{
    for (int i = 0; i < W; i++) {
        mp_limb_t x = (mp_limb_t)rng_next();
        switch (rng_next() % 4) {
        case 0: x = ~(mp_limb_t)0; break; /* the top of the range */
        case 1: x &= (mp_limb_t)((UINT64_C(1) << 51) - 1); break;
        default: break;
        }
        h[i] = x >> (64 - bits);
    }
}

static int words_below(const mp_limb_t *h, unsigned bits)
{
    for (int i = 0; i < W; i++)
        if (h[i] >> bits)
            return 0;
    return 1;
}

/* x (n limbs) equals v. */
static int equals(const mp_limb_t *x, const mpz_t v)
{
    mpz_t t;
    mpz_roinit_n(t, x, N);
    return mpz_cmp(t, v) == 0;
}

static void check_field(void)
{
    mpz_t va, vb, want, got;
    mpz_inits(va, vb, want, got, NULL);
    const unsigned long cases = (unsigned long)test_scale(20000);
    for (unsigned long c = 0; c < cases; c++) {
        mp_limb_t a[W], b[W], h[W], x[N];
        random_words(a, 52);
        random_words(b, 52);
        words_value(va, a);
        words_value(vb, b);
        /* The canonical reduction of any words in range. */
        jbigi_p25519_to_limbs(x, a);
        mpz_mod(want, va, p);
        CHECK(equals(x, want), "to_limbs differs from GMP (case %lu)", c);
        jbigi_p25519_mul(h, a, b);
        words_value(got, h);
        mpz_mul(want, va, vb);
        mpz_sub(want, want, got);
        CHECK(mpz_divisible_p(want, p) && words_below(h, 52), "mul differs from GMP or leaves the range (case %lu)", c);
        jbigi_p25519_sqr(h, a);
        words_value(got, h);
        mpz_mul(want, va, va);
        mpz_sub(want, want, got);
        CHECK(mpz_divisible_p(want, p) && words_below(h, 52), "sqr differs from GMP or leaves the range (case %lu)", c);
    }
    /* A long chain of products and squares in place, as a power runs. */
    mp_limb_t acc[W], y[W], x[N];
    random_words(acc, 51);
    random_words(y, 52);
    words_value(va, acc);
    words_value(vb, y);
    for (int i = 0; i < 3000; i++) {
        if (i % 3 == 2) {
            jbigi_p25519_mul(acc, acc, y);
            mpz_mul(va, va, vb);
        } else {
            jbigi_p25519_sqr(acc, acc);
            mpz_mul(va, va, va);
        }
        mpz_mod(va, va, p);
    }
    jbigi_p25519_to_limbs(x, acc);
    CHECK(equals(x, va), "a chain of 3000 products differs from GMP");
    /* Values in and out: p - 1, 0 and random values below p. */
    mp_limb_t in[N], out[N], h[W];
    mpz_sub_ui(want, p, 1);
    mpz_export(in, NULL, -1, sizeof(mp_limb_t), 0, 0, want);
    jbigi_p25519_from_limbs(h, in);
    jbigi_p25519_to_limbs(out, h);
    CHECK(equals(out, want), "p - 1 does not come back out");
    mpz_clears(va, vb, want, got, NULL);
}

/* The powers on limbs, as the engine's wrappers call them. */
static int powm_ct_at(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits)
{
    return jbigi_p25519_powm_sec(r, b, e, ebits, mpz_limbs_read(p), N);
}

/* b^e mod p (b < p; e of at most 8 limbs, e >= 0) both ways against
 * mpz_powm, the constant-time one at e's own width, at 255 and 256 bits
 * and at whole limbs, and against the variable-time result. */
static void check_power(const char *what, const mpz_t b, const mpz_t e)
{
    mp_limb_t bl[N] = {0}, el[8] = {0}, r[N], rct[N];
    size_t bn = 0, en = 0;
    mpz_export(bl, &bn, -1, sizeof(mp_limb_t), 0, 0, b);
    mpz_export(el, &en, -1, sizeof(mp_limb_t), 0, 0, e);
    mpz_t want;
    mpz_init(want);
    mpz_powm(want, b, e, p);
    /* At the exponent's own limbs and zero-padded to 8 (e = 0: one zero
     * limb, and eight). */
    const mp_size_t lengths[2] = {en > 0 ? (mp_size_t)en : 1, 8};
    for (int k = 0; k < 2; k++) {
        memset(r, 0xa5, sizeof r);
        int rc = jbigi_p25519_powm(r, bl, el, lengths[k], mpz_limbs_read(p), N);
        CHECK(rc == JBIGI_ENGINE_DONE && equals(r, want), "%s: powm over %ld limbs differs from mpz_powm (rc %d)",
              what, (long)lengths[k], rc);
    }
    const size_t ebits = mpz_sizeinbase(e, 2);
    const size_t widths[] = {mpz_sgn(e) > 0 ? ebits : 1, 255, 256, 64 * (en > 0 ? en : 1), 512};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        if (widths[k] < ebits)
            continue;
        memset(rct, 0x5a, sizeof rct);
        int rc = powm_ct_at(rct, bl, el, widths[k]);
        CHECK(rc == JBIGI_ENGINE_DONE && equals(rct, want) && memcmp(rct, r, sizeof r) == 0,
              "%s: powm_sec at %zu bits differs (rc %d)", what, widths[k], rc);
    }
    mpz_clear(want);
}

static void check_powers(void)
{
    mpz_t b, e, t;
    mpz_inits(b, e, t, NULL);
    /* The bases: 0, 1, 2, p - 1, p - 2, (p-1)/2, random. */
    mpz_t bases[7];
    for (int i = 0; i < 7; i++)
        mpz_init(bases[i]);
    mpz_set_ui(bases[1], 1);
    mpz_set_ui(bases[2], 2);
    mpz_sub_ui(bases[3], p, 1);
    mpz_sub_ui(bases[4], p, 2);
    mpz_tdiv_q_2exp(bases[5], bases[3], 1);
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, (unsigned long)rng_next());
    /* The exponents: 0, 1, 2, 3, (p-1)/2, (p+3)/8, (p-5)/8, (p-1)/4, p-2,
     * p-1, 2^256-1, 2^64-1, and random ones drawn per base. */
    mpz_t exps[12];
    for (int i = 0; i < 12; i++)
        mpz_init(exps[i]);
    mpz_set_ui(exps[1], 1);
    mpz_set_ui(exps[2], 2);
    mpz_set_ui(exps[3], 3);
    mpz_sub_ui(t, p, 1);
    mpz_tdiv_q_2exp(exps[4], t, 1);
    mpz_add_ui(t, p, 3);
    mpz_tdiv_q_2exp(exps[5], t, 3);
    mpz_sub_ui(t, p, 5);
    mpz_tdiv_q_2exp(exps[6], t, 3);
    mpz_sub_ui(t, p, 1);
    mpz_tdiv_q_2exp(exps[7], t, 2);
    mpz_sub_ui(exps[8], p, 2);
    mpz_sub_ui(exps[9], p, 1);
    mpz_setbit(exps[10], 256);
    mpz_sub_ui(exps[10], exps[10], 1);
    mpz_setbit(exps[11], 64);
    mpz_sub_ui(exps[11], exps[11], 1);
    const unsigned long rounds = (unsigned long)test_scale(40);
    for (unsigned long round = 0; round < rounds; round++) {
        mpz_urandomm(bases[6], state, p);
        for (int bi = 0; bi < 7; bi++) {
            if (round > 0 && bi < 6)
                continue; /* the fixed bases once */
            for (int ei = 0; ei < 12; ei++)
                check_power("edge", bases[bi], exps[ei]);
            /* Random: full 255-bit, 254-bit, short, and longer than p. */
            const unsigned bits[] = {255, 254, 1 + (unsigned)(rng_next() % 64), 130, 300, 500};
            for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++) {
                mpz_urandomb(e, state, bits[k]);
                check_power("random", bases[bi], e);
            }
        }
    }
    /* The inverse by Fermat and the square root exponent, end to end. */
    mpz_urandomm(b, state, p);
    mpz_add_ui(b, b, 1);
    mp_limb_t bl[N] = {0}, el[N] = {0}, r[N];
    mpz_export(bl, NULL, -1, sizeof(mp_limb_t), 0, 0, b);
    mpz_export(el, NULL, -1, sizeof(mp_limb_t), 0, 0, exps[8]);
    CHECK(jbigi_p25519_powm(r, bl, el, N, mpz_limbs_read(p), N) == 0, "b^(p-2)");
    mpz_t inv;
    mpz_roinit_n(inv, r, N);
    mpz_mul(t, inv, b);
    mpz_mod(t, t, p);
    CHECK(mpz_cmp_ui(t, 1) == 0, "b^(p-2) is not b's inverse");
    for (int i = 0; i < 7; i++)
        mpz_clear(bases[i]);
    for (int i = 0; i < 12; i++)
        mpz_clear(exps[i]);
    gmp_randclear(state);
    mpz_clears(b, e, t, NULL);
}

/* Every other modulus is refused, and nothing is written. */
static void check_other_moduli(void)
{
    mpz_t m;
    mpz_init(m);
    const long deltas[] = {2, -2, 4, 1LL << 20};
    for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
        if (deltas[i] > 0)
            mpz_add_ui(m, p, (unsigned long)deltas[i]);
        else
            mpz_sub_ui(m, p, (unsigned long)-deltas[i]);
        mp_limb_t b[N] = {3}, e[N] = {5}, r[N] = {7, 7, 7, 7}, ml[N] = {0};
        mpz_export(ml, NULL, -1, sizeof(mp_limb_t), 0, 0, m);
        CHECK(!jbigi_p25519_is_modulus(ml, N), "p %+ld taken for p", deltas[i]);
        CHECK(jbigi_p25519_powm(r, b, e, 1, ml, N) == JBIGI_ENGINE_UNSUPPORTED && r[0] == 7,
              "powm ran for p %+ld", deltas[i]);
        CHECK(jbigi_p25519_powm_sec(r, b, e, 3, ml, N) == JBIGI_ENGINE_UNSUPPORTED && r[0] == 7,
              "powm_sec ran for p %+ld", deltas[i]);
        CHECK(jbigi_engine_for_modulus(ml, N, 0) != jbigi_engine_for_modulus(mpz_limbs_read(p), N, 0) ||
                  strcmp(jbigi_engine_for_modulus(ml, N, 0)->name, "p25519") != 0,
              "the registry gives p %+ld to the special-form engine", deltas[i]);
    }
    /* p's limbs followed by a zero limb: five limbs, another size. */
    mp_limb_t m5[N + 1] = {0};
    memcpy(m5, mpz_limbs_read(p), N * sizeof(mp_limb_t));
    CHECK(!jbigi_p25519_is_modulus(m5, N + 1), "five limbs taken for p");
    mpz_clear(m);
}

/* The whole path on the engine chosen (forced or auto): bases above p,
 * multiples of p, negative ones; against mpz_powm. */
static void check_whole_path(const char *engine)
{
    mpz_t b, e, r, want;
    mpz_inits(b, e, r, want, NULL);
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, (unsigned long)rng_next());
    const int choices = 10;
    for (int c = 0; c < choices; c++) {
        switch (c) {
        case 0: mpz_set(b, p); break;                       /* p itself */
        case 1: mpz_mul_ui(b, p, 5); break;                 /* a multiple */
        case 2: mpz_add_ui(b, p, 1); break;                 /* p + 1 */
        case 3: mpz_neg(b, p); mpz_sub_ui(b, b, 1); break;  /* -(p+1) */
        case 4: mpz_set_si(b, -1); break;
        case 5: mpz_urandomb(b, state, 600); break;         /* far above p */
        case 6: mpz_urandomb(b, state, 400); mpz_neg(b, b); break;
        case 7: mpz_set_ui(b, 0); break;
        case 8: mpz_set_ui(b, 2); break;
        default: mpz_urandomm(b, state, p); break;
        }
        for (int k = 0; k < 4; k++) {
            if (k == 0)
                mpz_urandomb(e, state, 254);
            else if (k == 1)
                mpz_set_ui(e, 1);
            else if (k == 2)
                mpz_set_ui(e, 3);
            else
                mpz_urandomb(e, state, 40);
            if (mpz_sgn(e) == 0)
                mpz_set_ui(e, 7);
            mpz_powm(want, b, e, p);
            CHECK(jbigi_modpow(r, b, e, p) == JBIGI_OK && mpz_cmp(r, want) == 0,
                  "%s: jbigi_modpow differs (case %d.%d)", engine, c, k);
            CHECK(jbigi_modpow_ct(r, b, e, p) == JBIGI_OK && mpz_cmp(r, want) == 0,
                  "%s: jbigi_modpow_ct differs (case %d.%d)", engine, c, k);
        }
    }
    gmp_randclear(state);
    mpz_clears(b, e, r, want, NULL);
}

static void check_choice(void)
{
    const mp_limb_t *pl = mpz_limbs_read(p);
    CHECK(jbigi_engine_parse("p25519") >= 0, "p25519 is not a name the registry knows");
    CHECK(jbigi_engine_for(N, 0)->takes_modulus == NULL && jbigi_engine_for(N, 1)->takes_modulus == NULL,
          "a size alone chose an engine of one modulus");
    if (!JBIGI_P25519_FIELD) {
        CHECK(jbigi_engine_force("p25519") != 0, "an engine not built here could be forced");
        CHECK(strcmp(jbigi_engine_for_modulus(pl, N, 0)->name, "p25519") != 0, "an engine not built here chosen");
        jbigi_engine_force("auto");
        return;
    }
    CHECK(strcmp(jbigi_engine_for_modulus(pl, N, 0)->name, "p25519") == 0 &&
              strcmp(jbigi_engine_for_modulus(pl, N, 1)->name, "p25519") == 0,
          "on auto p does not go to the special-form engine");
    check_whole_path("auto");
    CHECK(jbigi_engine_force("p25519") == 0, "the special-form engine cannot be forced");
    CHECK(strcmp(jbigi_engine_for_modulus(pl, N, 0)->name, "p25519") == 0 &&
              strcmp(jbigi_engine_for_modulus(pl, N, 1)->name, "p25519") == 0,
          "forced, p does not go to the special-form engine");
    check_whole_path("p25519");
    check_other_moduli();
    CHECK(jbigi_engine_force("gmp") == 0, "GMP cannot be forced");
    CHECK(strcmp(jbigi_engine_for_modulus(pl, N, 0)->name, "gmp") == 0, "GMP forced, p still goes elsewhere");
    check_whole_path("gmp");
    jbigi_engine_force("auto");
}

int main(void)
{
    test_seed("test_p25519");
    mpz_init(p);
    mpz_setbit(p, 255);
    mpz_sub_ui(p, p, 19);
    if (JBIGI_P25519_FIELD) {
        CHECK(jbigi_p25519_available(), "the self-test failed (%d)", jbigi_p25519_selftest_result());
        CHECK(jbigi_p25519_selftest(0) == 0, "the self-test fails");
        CHECK(jbigi_p25519_selftest(1) != 0, "the self-test does not catch a wrong result");
        check_field();
        check_powers();
    } else {
        SKIP(1, "the field: no 128-bit product or 32-bit limbs here");
        CHECK(!jbigi_p25519_available(), "the engine says it runs where it is not built");
    }
    check_choice();
    mpz_clear(p);
    return finish("test_p25519");
}
