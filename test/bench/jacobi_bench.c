/*
 * jacobi_bench.c - the Jacobi symbol (core/jacobi.c) against GMP's
 * mpz_jacobi in one process: for each size, a fresh value per call (a
 * random value below a random odd modulus, or below 2^255 - 19), rounds of
 * both in turn over the same values, in blocks of BLOCK calls each, timed
 * on the thread's CPU clock; per round the ratio of the two, and the
 * median over the rounds of the ratio and of each one's time per call.
 * A measurement, never a test: test/bench/run-jacobi-bench.sh runs it.
 *
 *   jacobi_bench [ROUNDS [BITS...]]     (BITS 255 means 2^255 - 19)
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <gmp.h>

#include "core/jacobi.h"

#define CALLS 2000
#define BLOCK 50

/* The thread's CPU time: time the scheduler gives others is left out. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static volatile int sink;

static void bench(unsigned long bits, int rounds, gmp_randstate_t rs)
{
    mpz_t n, a[CALLS];
    mpz_init(n);
    if (bits == 255) {
        mpz_ui_pow_ui(n, 2, 255);
        mpz_sub_ui(n, n, 19);
    } else {
        mpz_urandomb(n, rs, bits);
        mpz_setbit(n, bits - 1);
        mpz_setbit(n, 0);
    }
    for (int i = 0; i < CALLS; i++) {
        mpz_init(a[i]);
        mpz_urandomm(a[i], rs, n);
    }
    double *ours = malloc((size_t)rounds * sizeof *ours), *gmp = malloc((size_t)rounds * sizeof *gmp),
           *ratio = malloc((size_t)rounds * sizeof *ratio);
    int agree = 1;
    for (int r = 0; r < rounds; r++) {
        int s = 0;
        double t_ours = 0, t_gmp = 0;
        /* blocks of BLOCK calls in turn, so that both meet the same load */
        for (int i0 = 0; i0 < CALLS; i0 += BLOCK) {
            double t0 = now();
            for (int i = i0; i < i0 + BLOCK; i++)
                s += jbigi_jacobi(a[i], n);
            double t1 = now();
            for (int i = i0; i < i0 + BLOCK; i++)
                s -= mpz_jacobi(a[i], n);
            double t2 = now();
            t_ours += t1 - t0;
            t_gmp += t2 - t1;
        }
        agree &= s == 0;
        sink = s;
        ours[r] = t_ours / CALLS;
        gmp[r] = t_gmp / CALLS;
        ratio[r] = ours[r] / gmp[r];
    }
    printf("%5lu%s  jacobi %8.1f ns  mpz_jacobi %8.1f ns  ratio %.3f  (median of %d rounds of %d calls)%s\n", bits,
           bits == 255 ? " (2^255-19)" : "           ", 1e9 * median(ours, rounds), 1e9 * median(gmp, rounds),
           median(ratio, rounds), rounds, CALLS, agree ? "" : "  DISAGREE");
    for (int i = 0; i < CALLS; i++)
        mpz_clear(a[i]);
    mpz_clear(n);
    free(ours);
    free(gmp);
    free(ratio);
}

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 41;
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 1);
    if (argc > 2) {
        for (int i = 2; i < argc; i++)
            bench(strtoul(argv[i], NULL, 10), rounds, rs);
    } else {
        const unsigned long sizes[] = {64, 128, 255, 256, 384, 521, 1024, 2048};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            bench(sizes[i], rounds, rs);
    }
    gmp_randclear(rs);
    return 0;
}
