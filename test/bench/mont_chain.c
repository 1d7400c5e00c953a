/*
 * mont_chain.c - Montgomery products and squarings of 4 to 9 limbs, timed
 * in a dependent chain (each result the next operand, as an exponentiation
 * runs them), on the kernels the library and GMP run at these sizes:
 *
 *   adx       jbigi_adx_mul / jbigi_adx_sqr (the MULX/ADX engine): at 4
 *             limbs its register-only kernels (adx_mont4.c); above, on
 *             N = n rounded up to 4 limbs, mpn_mul_n or mpn_sqr and the
 *             engine's ADCX/ADOX reduction
 *   gmp-powm  mpn_mul_basecase or mpn_sqr_basecase, then mpn_redc_1 and a
 *             subtraction of m on its carry: what mpz_powm (the GMP
 *             engine's modPow) runs below MUL_TOOM22_THRESHOLD when GMP has
 *             no native mpn_redc_2 or mpn_addmul_2 (GMP's internal
 *             functions, declared here: not in gmp.h)
 *   mpn-mont  jbigi_mpn_mont_ops (mpn_mont.c): mpn_mul_n or mpn_sqr and a
 *             reduction of one mpn_addmul_1 row per limb: the GMP engine's
 *             fixed-base and base-2 path
 *   ifma      jbigi_ifma_mul / jbigi_ifma_sqr (the AVX-512 IFMA engine, on
 *             52-bit digits), where the CPU has it: no MULX count
 *
 *   mont_chain [ROUNDS]
 *
 * Method: each result is first checked against GMP's mpz functions (r R =
 * a b mod m, R the kernel's).  Then ROUNDS rounds (default 21); in each,
 * every size, kernel and operation runs a chain of CHAIN operations, so
 * the kernels take turns within a round.  Printed per line: the median
 * over the rounds of nanoseconds per operation (CLOCK_MONOTONIC), of
 * time-stamp-counter ticks per operation (the TSC's rate, measured over the
 * run, is printed: a fixed reference clock, not the core's), and of core
 * cycles per operation where perf_event_open gives a cycle counter (many
 * VMs do not: the line then says why); and the MULX count the issue sets
 * them against, n^2 for the product and n^2 for the reduction (the adx
 * kernel's padded N where N > n).  A measurement: nothing asserts on time.
 */
#define _GNU_SOURCE
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "engines/adx/adx.h"
#include "engines/gmp/mpn_mont.h"
#include "engines/ifma/ifma.h"

/* GMP's internal functions mpz_powm runs (gmp-impl.h's names). */
void __gmpn_mul_basecase(mp_ptr, mp_srcptr, mp_size_t, mp_srcptr, mp_size_t);
void __gmpn_sqr_basecase(mp_ptr, mp_srcptr, mp_size_t);
mp_limb_t __gmpn_redc_1(mp_ptr, mp_ptr, mp_srcptr, mp_size_t, mp_limb_t);

#define CHAIN 2000
#define MAX_ROUNDS 201
#define MAXN 12 /* 9 limbs padded to the adx kernel's 12 */

static const int limbs[] = {4, 5, 6, 8, 9};
#define NSIZES (sizeof limbs / sizeof limbs[0])
enum { ADX, GMP_POWM, MPN_MONT, IFMA, NKERNELS };
static const char *kernel_names[NKERNELS] = {"adx", "gmp-powm", "mpn-mont", "ifma"};
static int have_ifma;
enum { MUL, SQR };

struct size {
    mp_size_t n, N;
    mp_limb_t m[MAXN], a[MAXN], b[MAXN], x[MAXN], t[2 * MAXN];
    mp_limb_t inv; /* -1/m mod 2^64, as mpz_powm gives mpn_redc_1 */
    jbigi_adx_ctx adx;
    jbigi_mpn_ctx mpn;
    jbigi_ifma_ctx ifma;
    uint64_t *digits; /* the IFMA kernel's a, b and x, in the domain */
};

static volatile mp_limb_t sink;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static uint64_t ticks(void)
{
#if defined(__x86_64__)
    return __rdtsc();
#else
    return 0;
#endif
}

static int cycles_fd = -1;
static const char *cycles_why = "not Linux";

static void cycles_open(void)
{
#if defined(__linux__)
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    cycles_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (cycles_fd < 0)
        cycles_why = "perf_event_open gives no cycle counter here";
#endif
}

static uint64_t cycles(void)
{
    uint64_t v = 0;
#if defined(__linux__)
    if (cycles_fd >= 0 && read(cycles_fd, &v, sizeof v) != (ssize_t)sizeof v)
        v = 0;
#endif
    return v;
}

static void random_limbs(gmp_randstate_t rs, mp_limb_t *p, mp_size_t n)
{
    mpz_t z;
    mpz_init(z);
    mpz_urandomb(z, rs, (mp_bitcnt_t)(64 * n));
    memset(p, 0, (size_t)n * sizeof *p);
    mpz_export(p, NULL, -1, sizeof *p, 0, 0, z);
    mpz_clear(z);
}

/* x = a b / R or a a / R (R the kernel's) by kernel k, x in s->x. */
static void op(struct size *s, int k, int which, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    switch (k) {
    case ADX:
        if (which == MUL)
            jbigi_adx_mul(&s->adx, r, a, b);
        else
            jbigi_adx_sqr(&s->adx, r, a);
        break;
    case GMP_POWM:
        if (which == MUL)
            __gmpn_mul_basecase(s->t, a, s->n, b, s->n);
        else
            __gmpn_sqr_basecase(s->t, a, s->n);
        if (__gmpn_redc_1(r, s->t, s->m, s->n, s->inv) != 0)
            mpn_sub_n(r, r, s->m, s->n);
        break;
    case MPN_MONT:
        if (which == MUL)
            jbigi_mpn_mont_ops.mul(&s->mpn, r, a, b);
        else
            jbigi_mpn_mont_ops.sqr(&s->mpn, r, a);
        break;
    default:
        /* Its own operands: x = x b or x x on s->digits. */
        (void)r, (void)a, (void)b;
        {
            uint64_t *x = s->digits + 2 * s->ifma.words, *y = s->digits + s->ifma.words;
            if (which == MUL)
                jbigi_ifma_mul(&s->ifma, x, x, y);
            else
                jbigi_ifma_sqr(&s->ifma, x, x);
        }
        break;
    }
}

/* 1 if from_mont(to_mont(a) to_mont(b) / R) = a b mod m by the IFMA kernel,
 * and the same for a a; leaves a in the domain in s->digits' x. */
static int check_ifma(struct size *s)
{
    const int w = s->ifma.words;
    uint64_t *da = s->digits, *db = s->digits + w, *dx = s->digits + 2 * w;
    int ok = 1;
    mpz_t m, got, want;
    mpz_inits(m, got, want, NULL);
    mpz_import(m, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, s->m);
    for (int which = MUL; which <= SQR; which++) {
        mp_limb_t r[MAXN] = {0};
        jbigi_ifma_to_mont(&s->ifma, da, s->a);
        jbigi_ifma_to_mont(&s->ifma, db, which == MUL ? s->b : s->a);
        jbigi_ifma_mul(&s->ifma, dx, da, db);
        jbigi_ifma_from_mont(&s->ifma, r, dx);
        mpz_import(got, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, r);
        mpz_import(want, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, s->a);
        mpz_import(m, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, which == MUL ? s->b : s->a);
        mpz_mul(want, want, m);
        mpz_import(m, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, s->m);
        mpz_mod(want, want, m);
        ok &= mpz_cmp(got, want) == 0;
    }
    jbigi_ifma_to_mont(&s->ifma, db, s->b);
    mpz_clears(m, got, want, NULL);
    return ok;
}

/* 1 if r R = a b (mod m) for one product and one squaring by kernel k. */
static int check(struct size *s, int k)
{
    mp_size_t rl = k == ADX ? s->N : s->n;
    int ok = 1;
    mpz_t m, lhs, rhs, y;
    mpz_inits(m, lhs, rhs, y, NULL);
    mpz_import(m, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, s->m);
    for (int which = MUL; which <= SQR; which++) {
        mp_limb_t r[MAXN] = {0};
        const mp_limb_t *b = which == MUL ? s->b : s->a;
        op(s, k, which, r, s->a, b);
        mpz_import(lhs, (size_t)rl, -1, sizeof(mp_limb_t), 0, 0, r);
        mpz_mul_2exp(lhs, lhs, (mp_bitcnt_t)(64 * rl));
        mpz_mod(lhs, lhs, m);
        mpz_import(rhs, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, s->a);
        mpz_import(y, (size_t)s->n, -1, sizeof(mp_limb_t), 0, 0, b);
        mpz_mul(rhs, rhs, y);
        mpz_mod(rhs, rhs, m);
        ok &= mpz_cmp(lhs, rhs) == 0;
    }
    mpz_clears(m, lhs, rhs, y, NULL);
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

static struct size sizes[NSIZES];
static double ns[NSIZES][NKERNELS][2][MAX_ROUNDS], tsc[NSIZES][NKERNELS][2][MAX_ROUNDS],
    cyc[NSIZES][NKERNELS][2][MAX_ROUNDS];

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 21;
    if (argc > 2 || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: mont_chain [ROUNDS (1 to %d)]\n", MAX_ROUNDS);
        return 2;
    }
    if (!jbigi_adx_cpu()) {
        printf("# this CPU has no BMI2 and ADX: the adx kernel cannot run here\n");
        return 0;
    }
    have_ifma = jbigi_ifma_cpu();
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 0x6a62696769UL);
    int bad = 0;
    for (size_t i = 0; i < NSIZES; i++) {
        struct size *s = &sizes[i];
        s->n = limbs[i];
        s->N = (s->n + 3) / 4 * 4;
        do {
            random_limbs(rs, s->m, s->n);
            s->m[0] |= 1;
            s->m[s->n - 1] |= (mp_limb_t)1 << 63;
            random_limbs(rs, s->a, s->n);
            random_limbs(rs, s->b, s->n);
        } while (mpn_cmp(s->a, s->m, s->n) >= 0 || mpn_cmp(s->b, s->m, s->n) >= 0);
        mp_limb_t inv = 1; /* Newton: 1/m mod 2^64 */
        for (int k = 0; k < 6; k++)
            inv *= 2 - s->m[0] * inv;
        s->inv = -inv;
        if (jbigi_adx_ctx_init(&s->adx, s->m, s->n, 0) != 0 || jbigi_mpn_ctx_init(&s->mpn, s->m, s->n, 0) != 0) {
            fprintf(stderr, "mont_chain: out of memory\n");
            return 1;
        }
        if (have_ifma) {
            if (jbigi_ifma_ctx_init(&s->ifma, s->m, s->n, 0) != 0
                || (s->digits = jbigi_ifma_alloc(&s->ifma, 3)) == NULL) {
                fprintf(stderr, "mont_chain: the IFMA context failed\n");
                return 1;
            }
        }
        for (int k = 0; k < NKERNELS; k++) {
            if (k == IFMA ? have_ifma && !check_ifma(s) : !check(s, k)) {
                printf("MISMATCH %s at %d limbs\n", kernel_names[k], (int)s->n);
                bad = 1;
            }
        }
    }
    if (bad)
        return 1;
    cycles_open();
    double all_ns = 0, all_tsc = 0;
    for (int r = 0; r < rounds; r++) {
        for (size_t i = 0; i < NSIZES; i++) {
            struct size *s = &sizes[i];
            for (int k = 0; k < NKERNELS; k++) {
                if (k == IFMA && !have_ifma)
                    continue;
                for (int which = MUL; which <= SQR; which++) {
                    memcpy(s->x, s->a, sizeof s->x);
                    if (k == IFMA)
                        memcpy(s->digits + 2 * s->ifma.words, s->digits, (size_t)s->ifma.words * sizeof(uint64_t));
                    double t0 = now_ns();
                    uint64_t c0 = cycles(), k0 = ticks();
                    for (int j = 0; j < CHAIN; j++)
                        op(s, k, which, s->x, s->x, s->b);
                    uint64_t k1 = ticks(), c1 = cycles();
                    double t1 = now_ns();
                    sink ^= s->x[0] ^ (have_ifma ? s->digits[2 * s->ifma.words] : 0);
                    ns[i][k][which][r] = (t1 - t0) / CHAIN;
                    tsc[i][k][which][r] = (double)(k1 - k0) / CHAIN;
                    cyc[i][k][which][r] = (double)(c1 - c0) / CHAIN;
                    all_ns += t1 - t0;
                    all_tsc += (double)(k1 - k0);
                }
            }
        }
    }
    printf("# %d rounds of chains of %d operations; medians over the rounds\n", rounds, CHAIN);
    printf("# TSC: %.3f GHz (ticks over CLOCK_MONOTONIC in this run; a fixed reference clock)\n", all_tsc / all_ns);
    if (cycles_fd < 0)
        printf("# core cycles: not measured (%s)\n", cycles_why);
    printf("# mulx: n^2 for the product and n^2 for the reduction (n: the limbs the kernel works on)\n");
    printf("%-5s %-5s %-9s %-4s %9s %9s %9s %6s %9s\n", "limbs", "bits", "kernel", "op", "ns/op", "tsc/op",
           "cycles/op", "mulx", "ns/mulx");
    for (size_t i = 0; i < NSIZES; i++) {
        struct size *s = &sizes[i];
        for (int k = 0; k < NKERNELS; k++) {
            if (k == IFMA && !have_ifma)
                continue;
            for (int which = MUL; which <= SQR; which++) {
                mp_size_t w = k == ADX ? s->N : s->n;
                double t = median(ns[i][k][which], rounds);
                char c[16] = "-";
                if (cycles_fd >= 0)
                    snprintf(c, sizeof c, "%.1f", median(cyc[i][k][which], rounds));
                char mulx[16] = "-", per[16] = "-";
                if (k != IFMA) {
                    snprintf(mulx, sizeof mulx, "%d", (int)(2 * w * w));
                    snprintf(per, sizeof per, "%.3f", t / (double)(2 * w * w));
                }
                printf("%-5d %-5d %-9s %-4s %9.2f %9.1f %9s %6s %9s\n", (int)s->n, (int)(64 * s->n), kernel_names[k],
                       which == MUL ? "mul" : "sqr", t, median(tsc[i][k][which], rounds), c, mulx, per);
            }
        }
    }
    for (size_t i = 0; i < NSIZES; i++) {
        jbigi_adx_ctx_clear(&sizes[i].adx);
        jbigi_mpn_ctx_clear(&sizes[i].mpn);
        if (have_ifma) {
            jbigi_ifma_free(sizes[i].digits, &sizes[i].ifma, 3);
            jbigi_ifma_ctx_clear(&sizes[i].ifma);
        }
    }
    gmp_randclear(rs);
    return 0;
}
