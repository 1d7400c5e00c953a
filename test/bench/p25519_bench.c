/*
 * p25519_bench.c - powers mod p = 2^255 - 19 on each engine that takes p
 * here, through the library's own path (jbigi_modpow, jbigi_modpow_ct: the
 * base reduced, the engine chosen, the result written), with GMP's
 * mpz_powm and mpz_powm_sec alone beside them.  A measurement: nothing
 * here asserts on time.
 *
 * Run (from the repository root):
 *   test/bench/run-p25519-bench.sh [ROUNDS]
 *
 * Method: every result is first checked against mpz_powm.  Then ROUNDS
 * rounds (default 15); in each round every row runs in turn, each repeated
 * enough to last about 4 ms, a fresh base from a ring of 64 random bases
 * below p on every call, and the time per call is kept.  The table gives
 * the median time per call over the rounds, and the median over the rounds
 * of each round's ratio to the row "adx" (or to "gmp" where this CPU has
 * no MULX/ADX engine): neighbours in time see the same load.  Times are
 * the thread's CPU time, so that a machine loaded by other work (two
 * cores shared) counts what this thread ran, not what it waited; "min" is
 * the fastest round's time.  Exponents:
 * a random 254-bit one, and (p-1)/2 and (p+3)/8, Elligator2's.
 */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/arith.h"
#include "engines/engine.h"

#define MAX_ROUNDS 101
#define BASES 64

/* The rows: an engine forced through the library's path, or GMP alone. */
enum kind { FORCED, RAW_GMP };
static const struct {
    const char *label;
    enum kind kind;
    const char *engine;
    int ct;
} rows[] = {
    {"p25519", FORCED, "p25519", 0}, {"adx", FORCED, "adx", 0},       {"gmp", FORCED, "gmp", 0},
    {"mpz_powm", RAW_GMP, NULL, 0},  {"p25519_ct", FORCED, "p25519", 1}, {"adx_ct", FORCED, "adx", 1},
    {"gmp_ct", FORCED, "gmp", 1},    {"mpz_powm_sec", RAW_GMP, NULL, 1},
};
#define NROWS (sizeof rows / sizeof rows[0])

static mpz_t p, bases[BASES], r;
static unsigned next_base;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void call(size_t row, const mpz_t e)
{
    const mpz_srcptr b = bases[next_base++ % BASES];
    if (rows[row].kind == RAW_GMP) {
        if (rows[row].ct)
            mpz_powm_sec(r, b, e, p);
        else
            mpz_powm(r, b, e, p);
    } else if ((rows[row].ct ? jbigi_modpow_ct(r, b, e, p) : jbigi_modpow(r, b, e, p)) != JBIGI_OK) {
        abort();
    }
}

/* Whether a forced row runs its own engine here. */
static int row_runs(size_t row)
{
    if (rows[row].kind == RAW_GMP)
        return 1;
    if (jbigi_engine_force(rows[row].engine) != 0)
        return 0;
    const int ok = strcmp(jbigi_engine_for_modulus(mpz_limbs_read(p), 4, rows[row].ct)->name, rows[row].engine) == 0;
    jbigi_engine_force("auto");
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof(double), cmp_double);
    return v[count / 2];
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 15;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 15;
    mpz_inits(p, r, NULL);
    mpz_setbit(p, 255);
    mpz_sub_ui(p, p, 19);
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, 25519);
    for (int i = 0; i < BASES; i++) {
        mpz_init(bases[i]);
        mpz_urandomm(bases[i], state, p);
    }
    const char *exp_names[3] = {"random 254-bit", "(p-1)/2", "(p+3)/8"};
    mpz_t exps[3], want;
    mpz_init(want);
    for (int i = 0; i < 3; i++)
        mpz_init(exps[i]);
    mpz_urandomb(exps[0], state, 254);
    mpz_setbit(exps[0], 253);
    mpz_sub_ui(exps[1], p, 1);
    mpz_tdiv_q_2exp(exps[1], exps[1], 1);
    mpz_add_ui(exps[2], p, 3);
    mpz_tdiv_q_2exp(exps[2], exps[2], 3);

    int runs[NROWS], anchor = -1;
    for (size_t k = 0; k < NROWS; k++) {
        runs[k] = row_runs(k);
        if (!runs[k])
            printf("# %s: not on this CPU\n", rows[k].label);
    }
    anchor = runs[1] ? 1 : 2;
    printf("# p = 2^255 - 19, a fresh base each call; median of %d interleaved rounds, microseconds per call;\n"
           "# ratio: the median of the rounds' ratios to %s (its constant-time row for the _ct rows)\n",
           rounds, rows[anchor].label);
    for (int x = 0; x < 3; x++) {
        /* Every row's result first, against mpz_powm. */
        for (size_t k = 0; k < NROWS; k++) {
            if (!runs[k])
                continue;
            if (rows[k].kind == FORCED)
                jbigi_engine_force(rows[k].engine);
            const unsigned at = next_base;
            call(k, exps[x]);
            mpz_powm(want, bases[at % BASES], exps[x], p);
            if (mpz_cmp(r, want) != 0) {
                fprintf(stderr, "%s differs from mpz_powm\n", rows[k].label);
                return 1;
            }
        }
        static double t[NROWS][MAX_ROUNDS], ratio[NROWS][MAX_ROUNDS];
        long reps[NROWS];
        for (size_t k = 0; k < NROWS; k++) {
            if (!runs[k])
                continue;
            if (rows[k].kind == FORCED)
                jbigi_engine_force(rows[k].engine);
            long n = 1;
            for (;;) {
                const double t0 = now();
                for (long i = 0; i < n; i++)
                    call(k, exps[x]);
                if (now() - t0 > 0.004)
                    break;
                n *= 2;
            }
            reps[k] = n;
        }
        for (int round = 0; round < rounds; round++)
            for (size_t k = 0; k < NROWS; k++) {
                if (!runs[k])
                    continue;
                if (rows[k].kind == FORCED)
                    jbigi_engine_force(rows[k].engine);
                const double t0 = now();
                for (long i = 0; i < reps[k]; i++)
                    call(k, exps[x]);
                t[k][round] = (now() - t0) / (double)reps[k] * 1e6;
            }
        for (size_t k = 0; k < NROWS; k++) {
            const size_t a = (size_t)anchor + (rows[k].ct ? 4 : 0);
            for (int round = 0; runs[k] && round < rounds; round++)
                ratio[k][round] = t[k][round] / t[a][round];
        }
        printf("# exponent %s\n%-14s %10s %10s %8s\n", exp_names[x], "row", "us", "min", "ratio");
        for (size_t k = 0; k < NROWS; k++) {
            if (!runs[k])
                continue;
            const double med = median(t[k], rounds); /* sorts t[k]: t[k][0] is the fastest */
            printf("%-14s %10.3f %10.3f %8.3f\n", rows[k].label, med, t[k][0], median(ratio[k], rounds));
        }
    }
    jbigi_engine_force("auto");
    return 0;
}
