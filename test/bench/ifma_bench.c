/*
 * ifma_bench.c - the IFMA engine against GMP, one modular exponentiation at
 * a time, at 512 to 8192 bits: engine VT vs mpz_powm, engine CT vs
 * mpz_powm_sec, with full-length random exponents and odd random moduli.
 *
 * Run (from the repository root; GMP_PREFIX is the GMP to compare with,
 * e.g. build/gmp-static for the one the library ships):
 *   test/bench/run-ifma-bench.sh [ROUNDS [BITS...]]
 *
 * Method: every result is first checked against GMP's.  Then ROUNDS rounds
 * (default 9); in each round, each size runs the four operations one after
 * another, each repeated enough to last about 5 ms, and the time per
 * operation is kept.  The table gives the median time per operation over
 * the rounds, and the median over the rounds of each round's ratio (engine
 * time / GMP time, measured a few milliseconds apart): on a shared, noisy
 * machine the load changes from round to round, and a ratio of neighbours
 * sees the same load on both sides.  "min" is the ratio of the fastest
 * rounds, the least disturbed by other processes.
 */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"
#include "engines/ifma/ifma.h"

#define MAXN JBIGI_IFMA_MAX_LIMBS
#define MAX_ROUNDS 101

static int sizes_bits[16] = {512, 1024, 1536, 2048, 3072, 4096, 6144, 8192};
static int NSIZES = 8;
enum { ENGINE_VT, GMP_VT, ENGINE_CT, GMP_CT, NOPS };
static const char *op_names[NOPS] = {"ifma", "mpz_powm", "ifma_sec", "mpz_powm_sec"};

struct input {
    mp_size_t n;
    mp_limb_t m[MAXN], b[MAXN], e[MAXN], r[MAXN];
    mpz_t zm, zb, ze, zr;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run(struct input *in, int op)
{
    switch (op) {
    case ENGINE_VT:
        if (jbigi_ifma_powm(in->r, in->b, in->e, in->n, in->m, in->n) != 0)
            abort();
        break;
    case GMP_VT:
        mpz_powm(in->zr, in->zb, in->ze, in->zm);
        break;
    case ENGINE_CT:
        if (jbigi_ifma_powm_sec(in->r, in->b, in->e, in->n, in->m, in->n) != 0)
            abort();
        break;
    default:
        mpz_powm_sec(in->zr, in->zb, in->ze, in->zm);
        break;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 9;
    if (rounds < 1 || rounds > MAX_ROUNDS || argc > 18) {
        fprintf(stderr, "usage: %s [ROUNDS 1..%d [BITS...]]\n", argv[0], MAX_ROUNDS);
        return 2;
    }
    if (argc > 2) { /* other sizes: multiples of 64 up to 8192 */
        NSIZES = argc - 2;
        for (int s = 0; s < NSIZES; s++) {
            sizes_bits[s] = atoi(argv[s + 2]);
            if (sizes_bits[s] < 64 || sizes_bits[s] > 64 * MAXN || sizes_bits[s] % 64 != 0) {
                fprintf(stderr, "%s: sizes are multiples of 64 from 64 to %d\n", argv[0], 64 * MAXN);
                return 2;
            }
        }
    }
    if (!jbigi_ifma_available()) {
        printf("AVX-512 IFMA engine not available here (or JBIGI_ENGINE=gmp): nothing to compare\n");
        return 0;
    }
    static struct input in[16];
    static double t[16][NOPS][MAX_ROUNDS];
    int reps[16][NOPS];
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 20261130);

    for (int s = 0; s < NSIZES; s++) {
        struct input *p = &in[s];
        int bits = sizes_bits[s];
        p->n = bits / 64;
        mpz_inits(p->zm, p->zb, p->ze, p->zr, NULL);
        mpz_urandomb(p->zm, rs, (mp_bitcnt_t)bits);
        mpz_setbit(p->zm, (mp_bitcnt_t)bits - 1);
        mpz_setbit(p->zm, 0);
        mpz_urandomm(p->zb, rs, p->zm);
        mpz_urandomb(p->ze, rs, (mp_bitcnt_t)bits);
        mpz_setbit(p->ze, (mp_bitcnt_t)bits - 1);
        memset(p->m, 0, sizeof p->m);
        memset(p->b, 0, sizeof p->b);
        memset(p->e, 0, sizeof p->e);
        mpz_export(p->m, NULL, -1, sizeof(mp_limb_t), 0, 0, p->zm);
        mpz_export(p->b, NULL, -1, sizeof(mp_limb_t), 0, 0, p->zb);
        mpz_export(p->e, NULL, -1, sizeof(mp_limb_t), 0, 0, p->ze);
        /* Verify first: both engine paths against both GMP paths. */
        mpz_t want, got;
        mpz_inits(want, got, NULL);
        mpz_powm(want, p->zb, p->ze, p->zm);
        for (int op = 0; op < NOPS; op++) {
            run(p, op);
            if (op == ENGINE_VT || op == ENGINE_CT)
                mpz_import(got, (size_t)p->n, -1, sizeof(mp_limb_t), 0, 0, p->r);
            else
                mpz_set(got, p->zr);
            if (mpz_cmp(got, want) != 0) {
                fprintf(stderr, "%d bits: %s gives a wrong result\n", bits, op_names[op]);
                return 1;
            }
        }
        mpz_clears(want, got, NULL);
        /* Repetitions for about 5 ms per measurement. */
        for (int op = 0; op < NOPS; op++) {
            double t0 = now();
            run(p, op);
            double one = now() - t0;
            int r = (int)(0.005 / (one > 1e-7 ? one : 1e-7));
            reps[s][op] = r < 1 ? 1 : r;
        }
    }
    for (int round = 0; round < rounds; round++)
        for (int s = 0; s < NSIZES; s++)
            for (int op = 0; op < NOPS; op++) {
                double t0 = now();
                for (int k = 0; k < reps[s][op]; k++)
                    run(&in[s], op);
                t[s][op][round] = (now() - t0) / reps[s][op];
            }

    printf("# median of %d interleaved rounds: microseconds per exponentiation (full-length exponent),\n"
           "# the median of the rounds' ratios, and the ratio of the fastest rounds (min)\n", rounds);
    printf("%6s %10s %10s %8s %8s %10s %12s %8s %8s  %s\n", "bits", "ifma", "mpz_powm", "ratio", "min", "ifma_sec",
           "mpz_powm_sec", "ratio", "min", "takes");
    for (int s = 0; s < NSIZES; s++) {
        double med[NOPS], rvt[MAX_ROUNDS], rct[MAX_ROUNDS];
        for (int round = 0; round < rounds; round++) {
            rvt[round] = t[s][ENGINE_VT][round] / t[s][GMP_VT][round];
            rct[round] = t[s][ENGINE_CT][round] / t[s][GMP_CT][round];
        }
        qsort(rvt, (size_t)rounds, sizeof(double), cmp_double);
        qsort(rct, (size_t)rounds, sizeof(double), cmp_double);
        for (int op = 0; op < NOPS; op++) {
            qsort(t[s][op], (size_t)rounds, sizeof(double), cmp_double);
            med[op] = t[s][op][rounds / 2] * 1e6;
        }
        printf("%6d %10.1f %10.1f %8.3f %8.3f %10.1f %12.1f %8.3f %8.3f  %s\n", sizes_bits[s], med[ENGINE_VT],
               med[GMP_VT], rvt[rounds / 2], t[s][ENGINE_VT][0] / t[s][GMP_VT][0], med[ENGINE_CT], med[GMP_CT],
               rct[rounds / 2], t[s][ENGINE_CT][0] / t[s][GMP_CT][0], strcmp(jbigi_engine_for(in[s].n, 0)->name, "avx512-ifma") == 0 ? "yes" : "no");
    }
    printf("# GMP %s\n", gmp_version);
    return 0;
}
