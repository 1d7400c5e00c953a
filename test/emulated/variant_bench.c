/*
 * variant_bench.c - a measurement, not a test: mpz_powm with every GMP
 * variant built under build/, in ONE process, interleaved call by call, so
 * that a shared machine's changing load hits every variant alike.
 *
 * Built twice (see time-variants.sh): with -DBENCH_PLUGIN, once per variant,
 * as a shared object linked against that variant's libgmp.a with GMP's
 * symbols kept inside; without it, as the driver that dlopens them all
 * (RTLD_LOCAL, so each keeps its own GMP) and prints, per variant and size,
 * the median over rounds of the thread CPU time of one mpz_powm (random odd
 * modulus with the top bit set, full-length exponent).
 *
 *   variant_bench ROUNDS BITS,BITS,... name=plugin.so ...
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef BENCH_PLUGIN
#include <gmp.h>

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* CPU seconds per mpz_powm at this size over calls calls (same operands for every variant). */
__attribute__((visibility("default"))) double bench_powm(int bits, int calls)
{
    gmp_randstate_t rng;
    mpz_t b, e, m, r;
    gmp_randinit_mt(rng);
    gmp_randseed_ui(rng, (unsigned long)bits);
    mpz_inits(b, e, m, r, NULL);
    mpz_urandomb(m, rng, (mp_bitcnt_t)bits);
    mpz_setbit(m, (mp_bitcnt_t)bits - 1);
    mpz_setbit(m, 0);
    mpz_urandomb(e, rng, (mp_bitcnt_t)bits);
    mpz_setbit(e, (mp_bitcnt_t)bits - 1);
    mpz_urandomb(b, rng, (mp_bitcnt_t)bits - 1);
    mpz_powm(r, b, e, m); /* warm */
    double start = cpu_seconds();
    for (int i = 0; i < calls; i++) {
        mpz_powm(r, b, e, m);
        mpz_add_ui(b, r, 1);
    }
    double t = (cpu_seconds() - start) / calls;
    mpz_clears(b, e, m, r, NULL);
    gmp_randclear(rng);
    return t;
}

#else
#include <dlfcn.h>

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s ROUNDS BITS,... name=plugin.so ...\n", argv[0]);
        return 2;
    }
    int rounds = atoi(argv[1]);
    int sizes[16], nsizes = 0;
    for (char *s = strtok(argv[2], ","); s != NULL && nsizes < 16; s = strtok(NULL, ","))
        sizes[nsizes++] = atoi(s);
    int n = argc - 3;
    double (**fn)(int, int) = calloc((size_t)n, sizeof *fn);
    char **name = calloc((size_t)n, sizeof *name);
    double *samples = calloc((size_t)n * (size_t)nsizes * (size_t)rounds, sizeof *samples);
    for (int v = 0; v < n; v++) {
        char *arg = argv[v + 3], *eq = strchr(arg, '=');
        if (eq == NULL)
            return 2;
        *eq = '\0';
        name[v] = arg;
        void *h = dlopen(eq + 1, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            fprintf(stderr, "%s\n", dlerror());
            return 1;
        }
        *(void **)&fn[v] = dlsym(h, "bench_powm");
    }
    for (int s = 0; s < nsizes; s++) {
        /* About 20 ms per call of bench_powm, from a first estimate. */
        int calls = (int)(0.02 / fn[0](sizes[s], 3)) + 1;
        for (int r = 0; r < rounds; r++)
            for (int v = 0; v < n; v++)
                samples[((size_t)v * (size_t)nsizes + (size_t)s) * (size_t)rounds + (size_t)r] = fn[v](sizes[s], calls);
    }
    for (int v = 0; v < n; v++)
        for (int s = 0; s < nsizes; s++) {
            double *x = &samples[((size_t)v * (size_t)nsizes + (size_t)s) * (size_t)rounds];
            qsort(x, (size_t)rounds, sizeof *x, compare);
            printf("%-10s %5d bits %11.3f us\n", name[v], sizes[s], x[rounds / 2] * 1e6);
        }
    return 0;
}
#endif
