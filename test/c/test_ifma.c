/*
 * test_ifma.c - the AVX-512 IFMA engine (src/engines/ifma/) against GMP:
 * jbigi_ifma_powm against mpz_powm and jbigi_ifma_powm_sec against
 * mpz_powm_sec, bit for bit, on edge cases and random cases at every modulus
 * size the engine handles (1 to 128 limbs, 64 to 8192 bits), and the
 * Montgomery layer's own functions (conversions, mul, sqr, to/from_mont).
 *
 * Built against the real instructions where the CPU has them, and against
 * the portable model of them (-DJBIGI_IFMA_MODEL, test/model/) on any CPU:
 * test/check-engines.sh runs whichever this machine allows, so the engine's
 * code is checked everywhere.  Where the engine cannot run at all (a real
 * build on a CPU without IFMA) the engine checks are counted as skipped;
 * the checks that apply everywhere still run: the entry points refuse to
 * run.
 *
 * JBIGI_TEST_SEED replays a run; JBIGI_TEST_SCALE (percent) scales the
 * random case counts, and below 100 (valgrind) also thins the fixed edge
 * cases: every case up to THIN_LIMBS limbs; above, only at the first limb
 * count of each kernel shape (register count, digit parity), with short
 * exponents and no constant-time path, so every kernel still runs.
 */
#include <gmp.h>
#include <string.h>

#include "check.h"
#include "cpu/cpu_facts.h"
#include "engines/engine.h"
#include "engines/ifma/ifma.h"
#include "powm_cases.h"


/* Whether the registry gives an n-limb modulus to the IFMA engine now. */
static int ifma_takes(mp_size_t n)
{
    return strcmp(jbigi_engine_for(n, 0)->name, "avx512-ifma") == 0;
}

static unsigned long engine_cases;

/* Below 100% (valgrind), the costly cases only up to this many limbs. */
#define THIN_LIMBS 8
static int thin(void)
{
    return test_scale(100) < 100;
}

/* Both exponentiations on (b, e, m) against GMP (powm_cases.h). */
static void check_case(const char *what, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                       const mp_limb_t *m, mp_size_t n, int with_ct)
{
    engine_cases += check_engine_case(jbigi_ifma_powm, jbigi_ifma_powm_sec, what, b, e, en, m, n, with_ct);
}

static void check_edge_cases(mp_size_t n)
{
    mp_limb_t moduli[4][MAXN];
    int count;
    edge_moduli(n, moduli, &count);
    for (int mi = 0; mi < count; mi++) {
        const mp_limb_t *m = moduli[mi];
        mp_limb_t bases[5][MAXN];
        memset(bases, 0, sizeof bases);
        bases[1][0] = 1; /* 0, 1 */
        mpn_sub_1(bases[2], m, n, 1); /* m - 1 */
        bases[3][0] = 2;
        random_below(bases[4], m, n);
        mp_limb_t exps[7][MAXN];
        mp_size_t elen[7];
        memset(exps, 0, sizeof exps);
        exps[0][0] = 1; elen[0] = 1;                      /* 1 */
        exps[1][0] = 2; elen[1] = 1;                      /* 2 */
        exps[2][0] = 31; elen[2] = 1;                     /* 2^5 - 1 */
        exps[3][0] = ~(mp_limb_t)0; elen[3] = 1;          /* 2^64 - 1 */
        for (mp_size_t i = 0; i < n; i++)                 /* all ones, full length */
            exps[4][i] = ~(mp_limb_t)0;
        elen[4] = n;
        random_limbs(exps[5], n); elen[5] = n;            /* random, full length */
        elen[6] = 1;                                      /* 0 */
        /* Above 2112 bits the full-length exponent is all ones only, for
         * the last two bases only (random full-length ones are among the
         * random cases), and above 4096 bits the constant-time path (always
         * full length) runs for it only. */
        for (int bi = 0; bi < 5; bi++)
            for (int ei = 0; ei < 7; ei++) {
                int full = elen[ei] == n && n > 1;
                if (n > 33 && full && (bi < 3 || ei == 5))
                    continue;
                if (thin() && n > THIN_LIMBS && (full || bi < 4 || ei == 1))
                    continue;
                int ct = n <= 33 || (bi >= 3 && full && (n <= 64 || ei == 4));
                if (thin() && n > THIN_LIMBS)
                    ct = 0;
                check_case("edge", bases[bi], exps[ei], elen[ei], m, n, ct);
            }
    }
}

/* Random cases of n limbs: random moduli and bases (one base in four is 2,
 * the drivers' base-2 path).  The first ct_cases run both paths with
 * full-length exponents (the constant-time path runs all 64 n bits
 * whatever the exponent); the next long_cases exponents of 1 to n limbs;
 * the rest exponents of one or two limbs with a random bit length, where
 * GMP's reference is cheap enough for many cases. */
static void check_random(mp_size_t n, long cases, long long_cases, long ct_cases)
{
    mp_limb_t m[MAXN], b[MAXN], e[MAXN];
    for (long c = 0; c < cases; c++) {
        random_modulus(m, n);
        random_below(b, m, n);
        if (c % 4 == 1 && (n > 1 || m[0] > 2)) { /* the base-2 path */
            mpn_zero(b, n);
            b[0] = 2;
        }
        mp_size_t en;
        if (c < ct_cases)
            en = n;
        else if (c < ct_cases + long_cases)
            en = 1 + (mp_size_t)(rng_next() % (uint64_t)n);
        else
            en = 1 + (mp_size_t)(rng_next() % 2);
        random_limbs(e, en);
        if (rng_next() % 2)
            e[en - 1] >>= rng_next() % 64;
        if (c % 8 == 3) /* a run of ones on top (powm_cases.h) */
            ones_run_exponent(e, en);
        check_case(c % 8 == 3 ? "ones run" : "random", b, e, en, m, n, c < ct_cases);
    }
}

/* Every digit of d below 2^52, the digits above N zero. */
static int normalised(const jbigi_ifma_ctx *ctx, const uint64_t *d)
{
    int ok = 1;
    for (int i = 0; i < ctx->words; i++)
        ok &= (d[i] >> 52) == 0 && (i < ctx->digits || d[i] == 0);
    return ok;
}

/* Whether d, in the Montgomery domain, stands for want (< m). */
static int stands_for(const jbigi_ifma_ctx *ctx, const uint64_t *d, const mpz_t want)
{
    mp_limb_t x[MAXN];
    jbigi_ifma_from_mont(ctx, x, d);
    return limbs_equal_mpz(x, ctx->n, want);
}

/* r = a b mod m (r may be a or b). */
static void product_mod(mpz_t r, const mpz_t a, const mpz_t b, const mpz_t m)
{
    mpz_mul(r, a, b);
    mpz_mod(r, r, m);
}

/* The Montgomery layer on its own: conversions round-trip, and mul/sqr
 * followed by from_mont give a b mod m and a^2 mod m. */
static void check_layer(mp_size_t n, long cases)
{
    jbigi_ifma_ctx ctx;
    mp_limb_t m[MAXN], a[MAXN], b[MAXN], x[MAXN];
    for (long c = 0; c < cases; c++) {
        random_modulus(m, n);
        random_below(a, m, n);
        random_below(b, m, n);
        int ct = (int)(c & 1);
        int rc = jbigi_ifma_ctx_init(&ctx, m, n, ct ? JBIGI_IFMA_CONSTANT_TIME : 0);
        CHECK(rc == 0, "ctx_init n=%ld: %d", (long)n, rc);
        if (rc != 0)
            return;
        uint64_t *d = jbigi_ifma_alloc(&ctx, 3);
        CHECK(d != NULL, "alloc");
        if (d == NULL) {
            jbigi_ifma_ctx_clear(&ctx);
            return;
        }
        uint64_t *da = d, *db = d + ctx.words, *dr = db + ctx.words;
        jbigi_ifma_to_digits(da, ctx.words, a, n);
        jbigi_ifma_from_digits(x, n, da);
        CHECK(memcmp(x, a, (size_t)n * sizeof(mp_limb_t)) == 0, "digits round trip n=%ld", (long)n);

        mpz_t za, zb, zm, want;
        mpz_roinit_n(za, a, normalized_size(a, n));
        mpz_roinit_n(zb, b, normalized_size(b, n));
        mpz_roinit_n(zm, m, n);
        mpz_init(want);
        jbigi_ifma_to_mont(&ctx, da, a);
        jbigi_ifma_to_mont(&ctx, db, b);
        CHECK(stands_for(&ctx, da, za), "to_mont/from_mont round trip n=%ld", (long)n);
        jbigi_ifma_mul(&ctx, dr, da, db);
        product_mod(want, za, zb, zm);
        CHECK(stands_for(&ctx, dr, want), "mul n=%ld", (long)n);
        jbigi_ifma_sqr(&ctx, dr, da);
        product_mod(want, za, za, zm);
        CHECK(stands_for(&ctx, dr, want), "sqr n=%ld", (long)n);
        CHECK(normalised(&ctx, dr), "sqr result not normalised n=%ld", (long)n);
        /* In-place: r aliases a. */
        jbigi_ifma_mul(&ctx, da, da, db);
        product_mod(want, za, zb, zm);
        CHECK(stands_for(&ctx, da, want), "mul in place n=%ld", (long)n);
        /* double_if: nothing for bit 0; for bit 1 a value below 4 m (dr:
         * b^2, a product's result in [0, 2 m)), which from_mont and sqr
         * take. */
        jbigi_ifma_sqr(&ctx, dr, db);
        memcpy(da, dr, (size_t)ctx.words * sizeof(uint64_t));
        jbigi_ifma_double_if(&ctx, dr, 0);
        CHECK(memcmp(da, dr, (size_t)ctx.words * sizeof(uint64_t)) == 0, "double_if bit 0 n=%ld", (long)n);
        jbigi_ifma_double_if(&ctx, dr, 1);
        CHECK(normalised(&ctx, dr), "double_if result not normalised n=%ld", (long)n);
        product_mod(want, zb, zb, zm);
        mpz_mul_2exp(want, want, 1);
        mpz_mod(want, want, zm);
        CHECK(stands_for(&ctx, dr, want), "double_if then from_mont n=%ld", (long)n);
        jbigi_ifma_sqr(&ctx, dr, dr);
        product_mod(want, want, want, zm);
        CHECK(stands_for(&ctx, dr, want), "double_if then sqr n=%ld", (long)n);
        mpz_clear(want);
        jbigi_ifma_free(d, &ctx, 3);
        jbigi_ifma_ctx_clear(&ctx);
    }
}

/*
 * The last step of mul and sqr on unnormalised digits made to carry: lanes
 * whose low 52 bits are all ones, or close, under a carry from the lane
 * below, and runs of all-ones lanes for the carry to ripple through.  Such
 * a lane is all but impossible to reach through products, and without
 * JBIGI_IFMA_SECRET_VALUES it is the only way to the branch-free store.
 */
static void check_normalize(int words, long cases)
{
    _Alignas(64) uint64_t x[8 * 20], r[8 * 20];
    const uint64_t m52 = ((uint64_t)1 << 52) - 1;
    long overflowing = 0;
    mpz_t want, part;
    mpz_init(want);
    mpz_init(part);
    for (long c = 0; c < cases; c++) {
        for (int j = 0; j < words; j++) {
            uint64_t low, high = rng_next() % ((uint64_t)1 << 10);
            switch (rng_next() % 4) {
            case 0: low = m52; break;                             /* passes a carry on */
            case 1: low = m52 - rng_next() % 1024; break;         /* overflows under one */
            case 2: low = rng_next() & m52; high = 0; break;
            default: low = rng_next() & m52; break;
            }
            x[j] = (high << 52) | low;
        }
        /* The value stays below 2^(52 words). */
        x[words - 1] = rng_next() % ((uint64_t)1 << 50);
        x[words - 2] &= m52;
        mpz_set_ui(want, 0);
        int over = 0;
        for (int j = words - 1; j >= 0; j--) {
            mpz_mul_2exp(want, want, 52);
            /* A limb, not mpz_add_ui's unsigned long (32 bits on Windows). */
            const mp_limb_t digit = x[j];
            mpz_t view;
            mpz_add(want, want, mpz_roinit_n(view, &digit, 1));
            over |= j > 0 && (x[j] & m52) + (x[j - 1] >> 52) > m52;
        }
        overflowing += over;
        for (int secret = 0; secret <= 1; secret++) {
            jbigi_ifma_normalize(r, x, words, secret);
            int ok = 1;
            for (int j = 0; j < words; j++) {
                mpz_tdiv_q_2exp(part, want, (mp_bitcnt_t)(52 * j));
                ok &= r[j] == (mpz_getlimbn(part, 0) & m52);
            }
            CHECK(ok, "normalize words=%d secret=%d case %ld", words, secret, c);
        }
    }
    CHECK(overflowing > cases / 4, "normalize words=%d: only %ld of %ld cases carried past a lane", words,
          overflowing, cases);
    mpz_clear(want);
    mpz_clear(part);
}

/* Checks that hold on every CPU. */
static void check_switch(void)
{
    CHECK(jbigi_ifma_available() == jbigi_ifma_available(), "availability changed between calls");
    if (!jbigi_ifma_cpu()) {
        mp_limb_t m[32], b[32], e[32], r[32];
        memset(m, 0xff, sizeof m);
        memset(b, 0, sizeof b);
        memset(e, 0, sizeof e);
        e[0] = 3;
        CHECK(!ifma_takes(32), "unavailable engine takes a size");
        CHECK(jbigi_ifma_powm(r, b, e, 1, m, 32) == JBIGI_IFMA_UNSUPPORTED, "unavailable powm ran");
        CHECK(jbigi_ifma_powm_sec(r, b, e, 32, m, 32) == JBIGI_IFMA_UNSUPPORTED, "unavailable powm_sec ran");
        jbigi_ifma_ctx ctx;
        CHECK(jbigi_ifma_ctx_init(&ctx, m, 32, 0) == JBIGI_IFMA_UNSUPPORTED, "unavailable ctx_init ran");
    } else {
        CHECK(!ifma_takes(JBIGI_IFMA_MAX_LIMBS + 1), "takes a size beyond the engine");
        CHECK(ifma_takes(32), "does not take 2048 bits");
        CHECK(ifma_takes(9), "does not take 576 bits");
        for (mp_size_t n = 6; n <= 8; n++)
            CHECK(ifma_takes(n) == jbigi_cpu().amd_zen4, "takes %ld limbs other than on Zen 4 only", (long)n);
        CHECK(!ifma_takes(5), "takes 320 bits");
    }
}

/* The digit count leaves 16 m < R at every size (jbigi_ifma_double_if's
 * bound: 52 N >= 64 n + 4), and the check that ctx_init makes refuses one
 * digit fewer and the bound's edge: pure arithmetic, any CPU. */
static void check_headroom(void)
{
    for (mp_size_t n = 1; n <= MAXN; n++) {
        const int digits = jbigi_ifma_digits(n);
        CHECK(52 * (long)digits >= 64 * (long)n + 4, "n=%ld: %d digits leave no 16 m < R", (long)n, digits);
        CHECK(jbigi_ifma_headroom_ok(n, digits), "n=%ld: the check refuses the engine's own %d digits", (long)n,
              digits);
        CHECK(!jbigi_ifma_headroom_ok(n, (int)((64 * n + 3) / 52)), "n=%ld: the check accepts 52 N < 64 n + 4",
              (long)n);
    }
    CHECK(jbigi_ifma_headroom_ok(4, 5) && !jbigi_ifma_headroom_ok(4, 4), "the bound's edge: 5 digits for 4 limbs");
}

int main(void)
{
    test_seed("test_ifma");
    check_headroom();
    check_switch();
    if (!jbigi_ifma_cpu()) {
        SKIP(1, "the engine checks: this CPU or OS has no AVX-512 IFMA (test/check-engines.sh runs them on the model)");
        return finish("test_ifma");
    }
    CHECK(jbigi_ifma_available(), "the engine's self-test failed (%d)", jbigi_ifma_selftest_result());
    CHECK(jbigi_ifma_selftest(0) == 0, "the self-test fails");
    CHECK(jbigi_ifma_selftest(1) != 0, "the self-test does not catch a wrong result");
    for (int words = 8; words <= 8 * 20; words += 8)
        check_normalize(words, test_scale(300));
    unsigned char shape_seen[64] = {0};
    for (mp_size_t n = 1; n <= MAXN; n++) {
        const int digits = jbigi_ifma_digits(n), k = (digits + 7) / 8;
        const int shape = k < 8 ? k : 2 * k + (digits & 1);
        const int new_shape = !shape_seen[shape];
        shape_seen[shape] = 1;
        if (thin() && n > THIN_LIMBS && !new_shape) {
            check_layer(n, 1);
            continue;
        }
        /* Edge cases at every size up to 2112 bits and on limb-count
         * boundaries above (where the digit count N or the register count
         * changes). */
        if (n <= 33 || n == 48 || n == 49 || n == 64 || n == 65 || n == MAXN || thin())
            check_edge_cases(n);
        check_layer(n, test_scale(n <= 32 ? 40 : 8));
        /* Counts fall with the size: GMP's reference dominates the time.
         * About 200,000 cases in all, most of them cheap (short exponents,
         * small moduli); full-length and constant-time ones at every size up
         * to 4096 bits and every fourth above. */
        long cases = n <= 16 ? 8000 : n <= 32 ? 2500 : n <= 64 ? 800 : 60;
        long longer = n <= 16 ? 500 : n <= 32 ? 50 : n <= 64 ? 8 : 2;
        long ct = n <= 16 ? 200 : n <= 32 ? 20 : n <= 64 ? 3 : n % 4 == 0 ? 1 : 0;
        if (thin() && n > 2 * THIN_LIMBS)
            ct = longer = 0;
        check_random(n, test_scale(cases), longer ? test_scale(longer) : 0, ct ? test_scale(ct) : 0);
    }
    printf("# test_ifma: %lu engine exponentiations compared with GMP\n", engine_cases);
    return finish("test_ifma");
}
