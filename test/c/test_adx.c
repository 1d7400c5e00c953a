/*
 * test_adx.c - the MULX/ADX engine (src/engines/adx/) against GMP:
 * jbigi_adx_powm against mpz_powm and jbigi_adx_powm_sec against
 * mpz_powm_sec, bit for bit, on edge cases and random cases at every modulus
 * size it handles (1 to 128 limbs), its Montgomery layer (reduction,
 * products, conversions), its table select and its known-answer
 * self-test.  Where the CPU lacks BMI2 or ADX the
 * engine checks are counted as skipped and the entry points must refuse to
 * run.
 *
 * JBIGI_TEST_SEED replays a run; JBIGI_TEST_SCALE (percent) scales the
 * random case counts, and below 100 (valgrind) keeps the sizes up to 8
 * limbs and a few larger ones, with edge cases up to 8 limbs only.
 */
#include <gmp.h>
#include <string.h>

#include "engines/adx/adx.h"
#include "check.h"
#include "powm_cases.h"

static unsigned long engine_cases;

/* Both exponentiations on (b, e, m) against GMP (powm_cases.h). */
static void check_case(const char *what, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                       const mp_limb_t *m, mp_size_t n, int with_ct)
{
    engine_cases += check_engine_case(jbigi_adx_powm, jbigi_adx_powm_sec, what, b, e, en, m, n, with_ct);
}

/* Bases 0, 1, m-1, 2 and a random one; exponents 1, 2, 2^5-1, 2^64-1, all
 * ones over the full width, random full width, and 0; on each edge modulus. */
static void check_edge_cases(mp_size_t n)
{
    mp_limb_t moduli[4][MAXN];
    int count;
    edge_moduli(n, moduli, &count);
    for (int mi = 0; mi < count; mi++) {
        const mp_limb_t *m = moduli[mi];
        mp_limb_t bases[5][MAXN];
        memset(bases, 0, sizeof bases);
        bases[1][0] = 1;
        mpn_sub_1(bases[2], m, n, 1);
        bases[3][0] = 2;
        random_below(bases[4], m, n);
        mp_limb_t exps[7][MAXN];
        mp_size_t elen[7] = {1, 1, 1, 1, n, n, 1};
        memset(exps, 0, sizeof exps);
        exps[0][0] = 1;
        exps[1][0] = 2;
        exps[2][0] = 31;
        exps[3][0] = ~(mp_limb_t)0;
        for (mp_size_t i = 0; i < n; i++)
            exps[4][i] = ~(mp_limb_t)0;
        random_limbs(exps[5], n);
        for (int bi = 0; bi < 5; bi++)
            for (int ei = 0; ei < 7; ei++) {
                /* Above 2112 bits the costly cases (full-width exponents,
                 * whose GMP references dominate the time) are the all-ones
                 * exponent on the last two bases. */
                const int full = elen[ei] == n && n > 1;
                if (n > 33 && full && (bi < 3 || ei == 5))
                    continue;
                check_case("edge", bases[bi], exps[ei], elen[ei], m, n, n <= 33 || (full && n <= 64) || ei == 4);
            }
    }
}

/* Random moduli and bases of n limbs (one base in four is 2, the drivers'
 * base-2 path): the first ct_cases with full-width exponents on both paths,
 * the next long_cases with 1 to n limbs, the rest with one or two limbs
 * (cheap references, many cases). */
static void check_random(mp_size_t n, long cases, long long_cases, long ct_cases)
{
    mp_limb_t m[MAXN], b[MAXN], e[MAXN];
    for (long c = 0; c < cases; c++) {
        random_modulus(m, n);
        random_below(b, m, n);
        if (c % 4 == 1 && (n > 1 || m[0] > 2)) {
            mpn_zero(b, n);
            b[0] = 2;
        }
        mp_size_t en = c < ct_cases ? n
                       : c < ct_cases + long_cases ? 1 + (mp_size_t)(rng_next() % (uint64_t)n)
                                                   : 1 + (mp_size_t)(rng_next() % 2);
        random_limbs(e, en);
        if (rng_next() % 2)
            e[en - 1] >>= rng_next() % 64;
        if (c % 8 == 3) /* a run of ones on top (powm_cases.h) */
            ones_run_exponent(e, en);
        check_case(c % 8 == 3 ? "ones run" : "random", b, e, en, m, n, c < ct_cases);
    }
}

/* The layer: the reduction of any u < m R, products in place and not, and
 * the conversions, on the public context, the secret one, and the secret
 * one with a public modulus (the fixed-base tables' contexts). */
static void check_layer(mp_size_t n, long cases)
{
    mp_limb_t m[MAXN], a[MAXN], b[MAXN], x[MAXN], ma[MAXN], mb[MAXN], mr[MAXN], u[2 * MAXN];
    for (long c = 0; c < cases; c++) {
        random_modulus(m, n);
        random_below(a, m, n);
        random_below(b, m, n);
        jbigi_adx_ctx ctx;
        CHECK(jbigi_adx_ctx_init(&ctx, m, n, (int)(c & 3)) == 0, "ctx_init n=%ld", (long)n);
        const mp_size_t N = ctx.N;
        CHECK(N % 4 == 0 && N >= n && N < n + 4, "N=%ld for n=%ld", (long)N, (long)n);
        mpz_t za, zb, zm, want, zu;
        mpz_roinit_n(za, a, normalized_size(a, n));
        mpz_roinit_n(zb, b, normalized_size(b, n));
        mpz_roinit_n(zm, m, n);
        mpz_inits(want, zu, NULL);

        /* redc(u) = u / R mod m, for u = a b (below m R), fully reduced. */
        mpn_zero(u, 2 * N);
        mpn_mul_n(u, a, b, n);
        jbigi_adx_redc(&ctx, mr, u);
        mpz_mul(want, za, zb);
        mpz_set_ui(zu, 1);
        mpz_mul_2exp(zu, zu, (mp_bitcnt_t)(64 * N));
        mpz_invert(zu, zu, zm);
        mpz_mul(want, want, zu);
        mpz_mod(want, want, zm);
        CHECK(limbs_equal_mpz(mr, N, want), "redc n=%ld", (long)n);

        jbigi_adx_to_mont(&ctx, ma, a);
        jbigi_adx_to_mont(&ctx, mb, b);
        jbigi_adx_from_mont(&ctx, x, ma);
        CHECK(limbs_equal_mpz(x, n, za), "to_mont/from_mont round trip n=%ld", (long)n);
        jbigi_adx_mul(&ctx, mr, ma, mb);
        jbigi_adx_from_mont(&ctx, x, mr);
        mpz_mul(want, za, zb);
        mpz_mod(want, want, zm);
        CHECK(limbs_equal_mpz(x, n, want), "mul n=%ld", (long)n);
        jbigi_adx_sqr(&ctx, ma, ma); /* in place */
        jbigi_adx_from_mont(&ctx, x, ma);
        mpz_mul(want, za, za);
        mpz_mod(want, want, zm);
        CHECK(limbs_equal_mpz(x, n, want), "sqr in place n=%ld", (long)n);

        /* double_if: nothing for bit 0, 2 a mod m for bit 1 (a below m). */
        mpn_copyi(x, a, n);
        mpn_zero(x + n, N - n);
        jbigi_adx_double_if(&ctx, x, 0);
        CHECK(limbs_equal_mpz(x, N, za), "double_if bit 0 n=%ld", (long)n);
        jbigi_adx_double_if(&ctx, x, 1);
        mpz_mul_2exp(want, za, 1);
        mpz_mod(want, want, zm);
        CHECK(limbs_equal_mpz(x, N, want), "double_if bit 1 n=%ld", (long)n);
        /* m - 1 doubles to m - 2, the largest value that needs m off. */
        if (n > 1 || m[0] > 2) {
            mpn_sub_1(x, m, n, 1);
            mpn_zero(x + n, N - n);
            jbigi_adx_double_if(&ctx, x, 1);
            mpz_sub_ui(want, zm, 2);
            CHECK(limbs_equal_mpz(x, N, want), "double_if m-1 n=%ld", (long)n);
        }
        mpz_clears(want, zu, NULL);
        jbigi_adx_ctx_clear(&ctx);
    }
}

/* Squarings in one call at four limbs (jbigi_adx_sqr4_times, the result
 * carried in registers from one squaring to the next) against as many
 * single squarings, for runs of 1 to 12, into another array and in place,
 * on random values and on 0, 1 and m - 1; and the same followed by a
 * product (jbigi_adx_sqr4_times_mul) against jbigi_adx_mul4. */
static void check_sqr_times(long cases)
{
    for (long c = 0; c < cases; c++) {
        mp_limb_t m[4], a[4], want[4], got[4];
        random_modulus(m, 4);
        jbigi_adx_ctx ctx;
        CHECK(jbigi_adx_ctx_init(&ctx, m, 4, 0) == 0, "ctx_init n=4");
        const int edge = (int)(c % 8);
        if (edge == 0)
            mpn_zero(a, 4);
        else if (edge == 1)
            mpn_copyi(a, (const mp_limb_t[]){1, 0, 0, 0}, 4);
        else if (edge == 2)
            mpn_sub_1(a, m, 4, 1);
        else
            random_below(a, m, 4);
        const size_t count = 1 + (size_t)(c % 12);
        mpn_copyi(want, a, 4);
        for (size_t i = 0; i < count; i++)
            jbigi_adx_sqr4(want, want, ctx.mk4);
        jbigi_adx_sqr4_times(got, a, ctx.mk4, count);
        CHECK(mpn_cmp(got, want, 4) == 0, "sqr4_times count=%zu case %ld", count, c);
        /* Then times b: another value, a itself (b = a), or the result's
         * own array (b = r, read before r is written). */
        mp_limb_t b[4], times_b[4], r[4];
        random_below(b, m, 4);
        jbigi_adx_mul4(times_b, want, b, ctx.mk4);
        jbigi_adx_sqr4_times_mul(got, a, ctx.mk4, count, b);
        CHECK(mpn_cmp(got, times_b, 4) == 0, "sqr4_times_mul count=%zu case %ld", count, c);
        jbigi_adx_mul4(times_b, want, a, ctx.mk4);
        mpn_copyi(r, a, 4);
        jbigi_adx_sqr4_times_mul(r, r, ctx.mk4, count, r);
        CHECK(mpn_cmp(r, times_b, 4) == 0, "sqr4_times_mul b = a = r count=%zu case %ld", count, c);
        jbigi_adx_mul4(times_b, want, b, ctx.mk4);
        mpn_copyi(r, b, 4);
        jbigi_adx_sqr4_times_mul(r, a, ctx.mk4, count, r);
        CHECK(mpn_cmp(r, times_b, 4) == 0, "sqr4_times_mul b = r count=%zu case %ld", count, c);
        jbigi_adx_sqr4_times(a, a, ctx.mk4, count);
        CHECK(mpn_cmp(a, want, 4) == 0, "sqr4_times in place count=%zu case %ld", count, c);
        jbigi_adx_ctx_clear(&ctx);
    }
}

/* Products and reductions do not depend on what the context's work area
 * held before: it is filled with ones (and with random limbs) ahead of each
 * product, at sizes where the eight-row reduction runs (N a multiple of 8)
 * and one where it does not, with and without the secret forms.  The work
 * area starts zeroed (calloc), so only a dirtied one shows a limb the
 * reduction reads without writing it first. */
static void check_dirty_work(void)
{
    const mp_size_t sizes[] = {8, 12, 16, 24, 32, 64, MAXN};
    mp_limb_t m[MAXN], a[MAXN], b[MAXN], x[MAXN], ma[MAXN], mb[MAXN], mr[MAXN];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const mp_size_t n = sizes[s];
        for (int flags = 0; flags <= JBIGI_ADX_SECRET; flags += JBIGI_ADX_SECRET) {
            random_modulus(m, n);
            random_below(a, m, n);
            random_below(b, m, n);
            jbigi_adx_ctx ctx;
            CHECK(jbigi_adx_ctx_init(&ctx, m, n, flags) == 0, "ctx_init n=%ld", (long)n);
            const size_t work = JBIGI_ADX_WORK_LIMBS(ctx.N);
            mpz_t za, zb, zm, want;
            mpz_roinit_n(za, a, normalized_size(a, n));
            mpz_roinit_n(zb, b, normalized_size(b, n));
            mpz_roinit_n(zm, m, n);
            mpz_init(want);
            mpz_mul(want, za, zb);
            mpz_mod(want, want, zm);
            for (int fill = 0; fill < 2; fill++) {
                jbigi_adx_to_mont(&ctx, ma, a);
                jbigi_adx_to_mont(&ctx, mb, b);
                if (fill == 0)
                    memset(ctx.work, 0xff, work * sizeof(mp_limb_t));
                else
                    random_limbs(ctx.work, (mp_size_t)work);
                jbigi_adx_mul(&ctx, mr, ma, mb);
                jbigi_adx_from_mont(&ctx, x, mr);
                CHECK(limbs_equal_mpz(x, n, want), "mul after a dirtied work area (%s) n=%ld flags=%d",
                      fill == 0 ? "ones" : "random", (long)n, flags);
            }
            /* The one limb the eight-row reduction once left to calloc. */
            if (ctx.N == 16) {
                jbigi_adx_to_mont(&ctx, ma, a);
                jbigi_adx_to_mont(&ctx, mb, b);
                ctx.work[2 * ctx.N + 9] = 1;
                jbigi_adx_mul(&ctx, mr, ma, mb);
                jbigi_adx_from_mont(&ctx, x, mr);
                CHECK(limbs_equal_mpz(x, n, want), "mul with work[2N + 9] = 1, N=16 flags=%d", flags);
            }
            mpz_clear(want);
            jbigi_adx_ctx_clear(&ctx);
        }
    }
}

/* The engine's select (AVX2 where the CPU has it) against the entry it
 * names, for tables at an address one limb off a vector's alignment (as a
 * fixed-base table in a Java buffer may be), entry counts of one to 33,
 * every index. */
static void check_select(void)
{
    static mp_limb_t table[1 + 33 * MAXN];
    mp_limb_t m[MAXN], r[MAXN];
    const mp_size_t sizes[] = {1, 4, 5, 16, 20, 32, 33, 64, MAXN};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const mp_size_t n = sizes[s];
        random_modulus(m, n);
        jbigi_adx_ctx ctx;
        CHECK(jbigi_adx_ctx_init(&ctx, m, n, JBIGI_ADX_SECRET) == 0, "ctx_init n=%ld", (long)n);
        const size_t N = (size_t)ctx.N;
        mp_limb_t *entries = table + 1;
        for (size_t count = 1; count <= 33; count += count < 4 ? 1 : 7) {
            random_limbs(entries, (mp_size_t)(count * N));
            for (size_t index = 0; index < count; index++) {
                memset(r, 0xa5, sizeof r);
                jbigi_adx_select(&ctx, r, entries, count, index);
                CHECK(memcmp(r, entries + index * N, N * sizeof(mp_limb_t)) == 0,
                      "select %zu of %zu entries of %zu limbs", index, count, N);
            }
        }
        jbigi_adx_ctx_clear(&ctx);
    }
}

static void check_switch(void)
{
    if (!jbigi_adx_cpu()) {
        mp_limb_t m[32], b[32] = {0}, e[32] = {3}, r[32];
        memset(m, 0xff, sizeof m);
        CHECK(jbigi_adx_powm(r, b, e, 1, m, 32) == JBIGI_ADX_UNSUPPORTED, "powm ran without the CPU");
        CHECK(jbigi_adx_powm_sec(r, b, e, 32, m, 32) == JBIGI_ADX_UNSUPPORTED, "powm_sec ran without the CPU");
    } else {
        mp_limb_t m[MAXN + 1], b[MAXN + 1] = {0}, e[MAXN + 1] = {3}, r[MAXN + 1];
        memset(m, 0xff, sizeof m);
        CHECK(jbigi_adx_powm(r, b, e, 1, m, MAXN + 1) == JBIGI_ADX_UNSUPPORTED, "powm beyond 8192 bits ran");
    }
}

int main(void)
{
    test_seed("test_adx");
    check_switch();
    if (!jbigi_adx_cpu()) {
        SKIP(1, "the engine checks: this CPU has no BMI2 and ADX");
        return finish("test_adx");
    }
    CHECK(jbigi_adx_available(), "the engine's self-test failed (%d)", jbigi_adx_selftest_result());
    CHECK(jbigi_adx_selftest(0) == 0, "the self-test fails");
    CHECK(jbigi_adx_selftest(1) != 0, "the self-test does not catch a wrong result");
    check_select();
    check_dirty_work();
    check_sqr_times(test_scale(20000));
    /* Below 100% (valgrind): every size up to 8 limbs, then the sizes
     * where a limb more changes the engine's padded length N. */
    const int thin = test_scale(100) < 100;
    for (mp_size_t n = 1; n <= MAXN; n++) {
        if (thin && n > 8 && n % 32 != 0 && n % 32 != 1)
            continue;
        if ((n <= 33 || n == 48 || n == 64 || n == 65 || n == MAXN) && (!thin || n <= 8))
            check_edge_cases(n);
        check_layer(n, test_scale(n <= 32 ? 40 : 8));
        /* About 200,000 exponentiations in all, most with short exponents. */
        long cases = n <= 16 ? 8000 : n <= 32 ? 2500 : n <= 64 ? 800 : 60;
        long longer = n <= 16 ? 500 : n <= 32 ? 50 : n <= 64 ? 8 : 2;
        long ct = n <= 16 ? 200 : n <= 32 ? 20 : n <= 64 ? 3 : n % 4 == 0 ? 1 : 0;
        check_random(n, test_scale(cases), test_scale(longer), ct ? test_scale(ct) : 0);
    }
    printf("# test_adx: %lu engine exponentiations compared with GMP\n", engine_cases);
    return finish("test_adx");
}
