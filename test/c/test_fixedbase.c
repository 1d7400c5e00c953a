/*
 * test_fixedbase.c - fixed-base tables and evaluation against mpz_powm, both
 * variants, many comb shapes, and malformed tables that must be refused.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/adx/adx.h"
#include "check.h"
#include "engines/engine.h"
#include "core/fixedbase.h"

static gmp_randstate_t state;

/* Builds a table for base mod m; NULL (and a failed check) if it cannot. */
static mp_limb_t *make_table(const mpz_t base, const mpz_t m, unsigned rows, unsigned blocks, size_t bits,
                             size_t *limbs)
{
    *limbs = jbigi_fb_table_limbs(mpz_size(m), rows, blocks);
    mp_limb_t *table = malloc(*limbs * sizeof(mp_limb_t));
    enum jbigi_status st = jbigi_fb_build(table, *limbs, base, m, rows, blocks, bits);
    CHECK(st == JBIGI_OK, "build rows=%u blocks=%u bits=%zu: status %d", rows, blocks, bits, st);
    if (st != JBIGI_OK) {
        free(table);
        return NULL;
    }
    return table;
}

static void check_shape(unsigned mod_bits, unsigned rows, unsigned blocks, int cases)
{
    mpz_t m, base, e, r, want;
    mpz_inits(m, base, e, r, want, NULL);
    mpz_urandomb(m, state, mod_bits);
    mpz_setbit(m, mod_bits - 1);
    mpz_setbit(m, 0);
    if (mod_bits == 2)
        mpz_set_ui(m, 3);
    mpz_urandomb(base, state, mod_bits + 10); /* unreduced on purpose */
    if (rng_next() & 1)
        mpz_neg(base, base);
    size_t limbs;
    mp_limb_t *table = make_table(base, m, rows, blocks, mod_bits, &limbs);
    if (table == NULL)
        goto out;
    size_t reach = jbigi_fb_max_exponent_bits(table, limbs);
    CHECK(reach >= mod_bits, "reach %zu < %u", reach, mod_bits);
    for (int i = 0; i < (int)test_scale(cases); i++) {
        /* Exponents from 0 to the table's whole reach, some all ones. */
        unsigned bits = (unsigned)(rng_next() % (reach + 1));
        mpz_urandomb(e, state, bits);
        if (i % 7 == 0) {
            mpz_set_ui(e, 0);
            mpz_setbit(e, bits);
            mpz_sub_ui(e, e, 1);
        }
        if (i == 0)
            mpz_set_ui(e, 0);
        mpz_powm(want, base, e, m);
        for (int ct = 0; ct <= 1; ct++) {
            enum jbigi_status st = jbigi_fb_powm(r, table, limbs, e, ct);
            CHECK(st == JBIGI_OK && mpz_cmp(r, want) == 0,
                  "m=%u bits rows=%u blocks=%u ct=%d exponent bits %u: status %d", mod_bits, rows, blocks, ct,
                  bits, st);
        }
    }
    /* One bit past the reach is refused, not computed wrongly. */
    mpz_set_ui(e, 0);
    mpz_setbit(e, reach);
    CHECK(jbigi_fb_powm(r, table, limbs, e, 0) == JBIGI_EXPONENT_TOO_LONG, "too-long exponent accepted");
    mpz_set_si(e, -5);
    CHECK(jbigi_fb_powm(r, table, limbs, e, 1) == JBIGI_EXPONENT_NEGATIVE, "negative exponent accepted");
    free(table);
out:
    mpz_clears(m, base, e, r, want, NULL);
}

static void check_refusals(void)
{
    mpz_t m, base, e, r;
    mpz_inits(m, base, e, r, NULL);
    mpz_set_ui(base, 5);
    mp_limb_t small[64];
    mpz_set_ui(m, 1);
    CHECK(jbigi_fb_build(small, jbigi_fb_table_limbs(1, 2, 1), base, m, 2, 1, 8) == JBIGI_MODULUS_TOO_SMALL, "m = 1");
    mpz_set_ui(m, 10);
    CHECK(jbigi_fb_build(small, jbigi_fb_table_limbs(1, 2, 1), base, m, 2, 1, 8) == JBIGI_MODULUS_TOO_SMALL, "m even");
    mpz_set_si(m, -7);
    CHECK(jbigi_fb_build(small, jbigi_fb_table_limbs(1, 2, 1), base, m, 2, 1, 8) == JBIGI_MODULUS_TOO_SMALL, "m < 0");
    CHECK(jbigi_fb_table_limbs(1, 0, 1) == 0 && jbigi_fb_table_limbs(1, JBIGI_FB_MAX_ROWS + 1, 1) == 0 &&
              jbigi_fb_table_limbs(1, 2, 0) == 0 && jbigi_fb_table_limbs(0, 2, 1) == 0,
          "shapes out of range");
    mpz_set_ui(m, 1000003);
    CHECK(jbigi_fb_build(small, 5, base, m, 2, 1, 8) == JBIGI_BAD_TABLE, "wrong table length");

    /* A good table, then every header limb and the length corrupted in turn. */
    size_t limbs;
    mp_limb_t *table = make_table(base, m, 3, 2, 20, &limbs);
    mpz_set_ui(e, 12345);
    if (table != NULL) {
        for (size_t i = 0; i < 7; i++) {
            mp_limb_t saved = table[i];
            static const mp_limb_t bad[] = {0, 2, 64, (mp_limb_t)1 << 40, ~(mp_limb_t)0};
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                if (bad[b] == saved)
                    continue;
                table[i] = bad[b];
                enum jbigi_status st = jbigi_fb_powm(r, table, limbs, e, (int)(b & 1));
                /* A small change of header limb 4 (block bits) only changes the reach: it
                 * may still evaluate, but must never read outside the table.  A huge one
                 * (which would loop for ages) and every other change must be refused. */
                CHECK(i == 4 && bad[b] < 1000 ? (st == JBIGI_OK || st == JBIGI_EXPONENT_TOO_LONG || st == JBIGI_BAD_TABLE)
                             : st == JBIGI_BAD_TABLE,
                      "corrupted header limb %zu = %lu: status %d", i, (unsigned long)bad[b], st);
            }
            table[i] = saved;
        }
        CHECK(jbigi_fb_powm(r, table, limbs - 1, e, 0) == JBIGI_BAD_TABLE, "short length accepted");
        CHECK(jbigi_fb_powm(r, table, 3, e, 0) == JBIGI_BAD_TABLE, "tiny length accepted");
        CHECK(jbigi_fb_powm(r, table, limbs, e, 0) == JBIGI_OK, "table restored");
        free(table);
    }
    mpz_clears(m, base, e, r, NULL);
}

/*
 * A table built with GMP's products and one built with the MULX/ADX
 * engine's (the same format) hold the same limbs, and each evaluates
 * right under the other's arithmetic, both variants.
 */
static void check_tables_shared_by_gmp_and_adx(unsigned mod_bits, unsigned rows, unsigned blocks)
{
    mpz_t m, base, e, r, want;
    mpz_inits(m, base, e, r, want, NULL);
    mpz_urandomb(m, state, mod_bits);
    mpz_setbit(m, mod_bits - 1);
    mpz_setbit(m, 0);
    mpz_urandomb(base, state, mod_bits);
    size_t limbs_gmp, limbs_adx;
    jbigi_engine_force("gmp");
    mp_limb_t *by_gmp = make_table(base, m, rows, blocks, mod_bits, &limbs_gmp);
    jbigi_engine_force("adx");
    mp_limb_t *by_adx = make_table(base, m, rows, blocks, mod_bits, &limbs_adx);
    if (by_gmp != NULL && by_adx != NULL) {
        CHECK(limbs_gmp == limbs_adx && memcmp(by_gmp, by_adx, limbs_gmp * sizeof(mp_limb_t)) == 0,
              "m=%u bits rows=%u blocks=%u: the engines built different tables", mod_bits, rows, blocks);
        for (int i = 0; i < 4; i++) {
            mpz_urandomb(e, state, mod_bits);
            mpz_powm(want, base, e, m);
            for (int ct = 0; ct <= 1; ct++) {
                jbigi_engine_force("adx");
                enum jbigi_status st = jbigi_fb_powm(r, by_gmp, limbs_gmp, e, ct);
                CHECK(st == JBIGI_OK && mpz_cmp(r, want) == 0, "m=%u bits ct=%d: GMP's table under ADX", mod_bits, ct);
                jbigi_engine_force("gmp");
                st = jbigi_fb_powm(r, by_adx, limbs_adx, e, ct);
                CHECK(st == JBIGI_OK && mpz_cmp(r, want) == 0, "m=%u bits ct=%d: ADX's table under GMP", mod_bits, ct);
            }
        }
    }
    jbigi_engine_force("auto");
    free(by_gmp);
    free(by_adx);
    mpz_clears(m, base, e, r, want, NULL);
}

/* The comb on the MULX/ADX engine's arithmetic: at limb counts that are a
 * multiple of 4 it multiplies there (elsewhere GMP does). */
static void check_adx_tables(void)
{
    static const unsigned sizes[] = {256, 512, 1000, 1024, 1536, 2048, 2112, 3072, 4096};
    const char *env = getenv("JBIGI_ENGINE");
    if (env != NULL && strcmp(env, "gmp") == 0) {
        printf("# JBIGI_ENGINE=gmp: the comb on the MULX/ADX engine is left to the other run\n");
        return;
    }
    if (!jbigi_adx_cpu()) {
        SKIP(1, "this CPU has no BMI2 and ADX: the comb on the MULX/ADX engine is not run");
        return;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        jbigi_engine_force("adx");
        check_shape(sizes[i], 3, 1, 4);
        check_shape(sizes[i], 8, 2, 4);
        if (sizes[i] <= 2048)
            check_shape(sizes[i], 5, 3, 4);
        jbigi_engine_force("auto");
        check_tables_shared_by_gmp_and_adx(sizes[i], 5, 2);
    }
}

static const char *const engines[] = {"gmp", "adx", "ifma"};
#define ENGINES (sizeof engines / sizeof engines[0])

/* Back to the choice the process started with. */
static void engine_restore(void)
{
    const char *env = getenv("JBIGI_ENGINE");
    jbigi_engine_force(env != NULL ? env : "auto");
}

/* base^e from the table on both paths, at e's own limbs (mpz) and through
 * jbigi_fb_powm_ct_limbs at its own limbs and one more, against want. */
static void check_table_power(const mp_limb_t *table, size_t limbs, const mpz_t e, const mpz_t want,
                              const char *what, unsigned ebits)
{
    mpz_t r;
    mpz_init(r);
    for (int ct = 0; ct <= 1; ct++) {
        enum jbigi_status st = jbigi_fb_powm(r, table, limbs, e, ct);
        CHECK(st == JBIGI_OK && mpz_cmp(r, want) == 0, "%s: exponent bits %u ct=%d: status %d", what, ebits, ct, st);
    }
    jbigi_fb_header h;
    const int read = jbigi_fb_read(&h, table, limbs) == JBIGI_OK;
    CHECK(read, "%s: header", what);
    if (!read) {
        mpz_clear(r);
        return;
    }
    const size_t n = h.modulus_limbs, reach_limbs = jbigi_fb_reach_limbs(&h);
    const size_t own = mpz_size(e) > 0 ? mpz_size(e) : 1;
    for (size_t en = own; en <= own + 1 && en <= reach_limbs; en++) {
        mp_limb_t *ep = calloc(en, sizeof(mp_limb_t)), *out = calloc(n, sizeof(mp_limb_t));
        mpn_copyi(ep, mpz_limbs_read(e), (mp_size_t)mpz_size(e));
        enum jbigi_status st = jbigi_fb_powm_ct_limbs(out, &h, ep, en);
        mpz_t got;
        CHECK(st == JBIGI_OK && mpz_cmp(mpz_roinit_n(got, out, (mp_size_t)n), want) == 0,
              "%s: ct_limbs exponent bits %u at %zu limbs: status %d", what, ebits, en, st);
        free(ep);
        free(out);
    }
    /* More limbs than the reach has: refused, whatever they hold. */
    mp_limb_t *ep = calloc(reach_limbs + 1, sizeof(mp_limb_t)), *out = calloc(n, sizeof(mp_limb_t));
    ep[0] = 1;
    CHECK(jbigi_fb_powm_ct_limbs(out, &h, ep, reach_limbs + 1) == JBIGI_EXPONENT_TOO_LONG,
          "%s: an exponent wider than the reach accepted", what);
    free(ep);
    free(out);
    jbigi_fb_release(&h);
    mpz_clear(r);
}

/*
 * Exponents shorter than the modulus, on tables made under every engine
 * this CPU runs and evaluated under every one (a table's format decides
 * its engine), several comb shapes; and tables sized under one engine and
 * built under another: the build takes either format's size.
 */
static void check_short_exponents(void)
{
    static const unsigned moduli[] = {256, 1024, 2048, 3072};
    static const unsigned shapes[][2] = {{5, 6}, {6, 6}, {5, 5}, {7, 4}, {8, 2}, {1, 1}, {3, 7}};
    static const unsigned exps[] = {1, 63, 64, 65, 128, 159, 160, 161, 192, 193, 224, 226, 256, 257, 512, 1023};
    mpz_t m, base, e, want;
    mpz_inits(m, base, e, want, NULL);
    for (size_t sized = 0; sized < ENGINES; sized++) {
        for (size_t built = 0; built < ENGINES; built++) {
            if (jbigi_engine_force(engines[sized]) != 0 || jbigi_engine_force(engines[built]) != 0)
                continue;
            for (size_t s = 0; s < sizeof moduli / sizeof moduli[0]; s++) {
                if (!test_sample())
                    continue;
                const unsigned bits = moduli[s];
                const unsigned *shape = shapes[(s + sized + built) % (sizeof shapes / sizeof shapes[0])];
                mpz_urandomb(m, state, bits);
                mpz_setbit(m, bits - 1);
                mpz_setbit(m, 0);
                mpz_urandomb(base, state, bits);
                jbigi_engine_force(engines[sized]);
                const size_t limbs = jbigi_fb_table_limbs(mpz_size(m), shape[0], shape[1]);
                CHECK(jbigi_fb_table_limbs_fit(mpz_size(m), shape[0], shape[1], limbs), "size fits");
                jbigi_engine_force(engines[built]);
                CHECK(jbigi_fb_table_limbs_fit(mpz_size(m), shape[0], shape[1], limbs),
                      "a size from under %s refused under %s", engines[sized], engines[built]);
                mp_limb_t *table = malloc(limbs * sizeof(mp_limb_t));
                enum jbigi_status st = jbigi_fb_build(table, limbs, base, m, shape[0], shape[1], bits);
                CHECK(st == JBIGI_OK, "%u bits: sized under %s, built under %s: status %d", bits, engines[sized],
                      engines[built], st);
                if (st != JBIGI_OK) {
                    free(table);
                    continue;
                }
                for (size_t used = 0; used < ENGINES; used++) {
                    if (jbigi_engine_force(engines[used]) != 0)
                        continue;
                    char what[160];
                    snprintf(what, sizeof what, "%u bits %ux%u, sized under %s, built under %s, used under %s", bits,
                             shape[0], shape[1], engines[sized], engines[built], engines[used]);
                    for (size_t x = 0; x < sizeof exps / sizeof exps[0]; x++) {
                        if (exps[x] > bits)
                            continue;
                        mpz_urandomb(e, state, exps[x]);
                        mpz_setbit(e, exps[x] - 1);
                        if (x % 2 == 0 && exps[x] > 40) /* the bits below the top one clear */
                            for (unsigned i = exps[x] - 33; i < exps[x] - 1; i++)
                                mpz_clrbit(e, i);
                        mpz_powm(want, base, e, m);
                        check_table_power(table, limbs, e, want, what, exps[x]);
                    }
                }
                free(table);
            }
        }
    }
    engine_restore();
    mpz_clears(m, base, e, want, NULL);
}

int main(void)
{
    uint64_t seed = test_seed("test_fixedbase");
    gmp_randinit_default(state);
    gmp_randseed_ui(state, (unsigned long)seed);

    check_refusals();
    static const unsigned sizes[] = {2, 3, 63, 64, 65, 127, 128, 200, 511, 512, 1024, 2048};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (unsigned rows = 1; rows <= 8; rows++)
            for (unsigned blocks = 1; blocks <= 4; blocks++)
                if (test_sample())
                    check_shape(sizes[i], rows, blocks, sizes[i] > 600 ? 2 : 12);
    check_shape(4096, 8, 2, 6);
    check_shape(4096, 5, 4, 6);
    /* Around and inside the IFMA engine's sizes (tables in its format where it runs). */
    check_shape(1025, 6, 2, 6);
    check_shape(3072, 8, 2, 4);
    check_shape(8192, 8, 2, 2);
    check_adx_tables();
    check_short_exponents();
    gmp_randclear(state);
    return finish("test_fixedbase");
}
