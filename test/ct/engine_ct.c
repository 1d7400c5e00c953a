/*
 * engine_ct.c - does an engine's constant-time exponentiation
 * (jbigi_ifma_powm_sec, jbigi_adx_powm_sec, jbigi_p25519_powm_sec) take a time that depends on the
 * exponent?  A dudect-style measurement (Reparaz, Balasch, Verbauwhede,
 * "Dude, is my code constant time?", 2017), as test/ct/CtCheck.java does for
 * the JNI entry points: time many calls with exponents of two classes, in
 * random order, and compare the two timing distributions with Welch's t.
 *
 *   fixed vs random   class A: one fixed exponent of low Hamming weight,
 *                     class B: a fresh random exponent per call; both with
 *                     the top bit of the modulus' length set.
 *   long vs short     class A: random exponents of BITS bits, class B: of
 *                     BITS * 7 / 8 bits (1792 of 2048), zero-padded to the
 *                     modulus' limb count as the constant-time path takes
 *                     them.
 *
 * One odd random modulus and one base for all calls (random, or 2 for the
 * drivers' base-2 path, squarings and masked doublings).  Each class pair is
 * timed on the engine's powm_sec and, as the control, on its powm,
 * whose sliding window does fewer multiplications for sparse or shorter
 * exponents: the control must show |t| > 10, which shows that the
 * measurement can see a leak at all; the constant-time path must stay below
 * 10.  The largest |t| over several crops of the slow tail is reported
 * (interrupts and a busy machine drown small differences otherwise).
 *
 * A measurement, not a test: run it on a quiet machine.
 *   test/ct/run-engine-ct.sh [ENGINE [MEASUREMENTS [BITS [BASE]]]]
 *   (ENGINE ifma or adx, default ifma; 20000 measurements; 2048 bits;
 *   BASE random or 2, default random; ENGINE gmp: GMP's functions on the
 *   base-2 path, BASE 2 only; ENGINE p25519: the special-form engine under
 *   2^255 - 19, BITS 256 only)
 * Ends with "N passed, N failed" (two constant-time checks, two controls).
 */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/adx/adx.h"
#include "engines/ifma/ifma.h"
#include "engines/gmp/mpn_mont.h"
#include "engines/p25519/p25519.h"

/* The largest modulus of both engines, in limbs. */
#define MAX_LIMBS JBIGI_IFMA_MAX_LIMBS
_Static_assert(JBIGI_ADX_MAX_LIMBS == MAX_LIMBS, "the engines take the same sizes");

/* The engine measured (main sets it). */
static int (*powm)(mp_limb_t *, const mp_limb_t *, const mp_limb_t *, mp_size_t, const mp_limb_t *, mp_size_t);
static int (*powm_sec)(mp_limb_t *, const mp_limb_t *, const mp_limb_t *, mp_size_t, const mp_limb_t *, mp_size_t);

#define THRESHOLD 10.0
static const double crops[] = {100, 99.9, 99, 95, 90, 75, 50};
#define NCROPS (int)(sizeof crops / sizeof crops[0])

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dULL;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Welch's t between the timings of class 0 and class 1 below limit. */
static double welch(const double *t, const unsigned char *cls, long count, double limit)
{
    double n[2] = {0, 0}, mean[2] = {0, 0}, m2[2] = {0, 0};
    for (long i = 0; i < count; i++) {
        if (t[i] > limit)
            continue;
        int c = cls[i];
        n[c] += 1;
        double d = t[i] - mean[c];
        mean[c] += d / n[c];
        m2[c] += d * (t[i] - mean[c]);
    }
    if (n[0] < 10 || n[1] < 10)
        return 0;
    double v0 = m2[0] / (n[0] - 1), v1 = m2[1] / (n[1] - 1);
    double se = sqrt(v0 / n[0] + v1 / n[1]);
    return se > 0 ? (mean[0] - mean[1]) / se : 0;
}

/* Times fn on the inputs in order; returns the largest |t| over the crops. */
static double measure(const char *name, int ct, mp_limb_t (*exps)[2][MAX_LIMBS],
                      const unsigned char *cls, long count, const mp_limb_t *b, const mp_limb_t *m, mp_size_t n)
{
    double *t = malloc((size_t)count * sizeof(double)), *sorted = malloc((size_t)count * sizeof(double));
    mp_limb_t r[MAX_LIMBS];
    if (t == NULL || sorted == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (long i = -count / 20; i < count; i++) { /* a warm-up of 5% first */
        long k = i < 0 ? -i : i;
        const mp_limb_t *e = exps[k][cls[k]];
        double t0 = now_ns();
        int rc = ct ? powm_sec(r, b, e, n, m, n) : powm(r, b, e, n, m, n);
        double t1 = now_ns();
        if (rc != 0) {
            fprintf(stderr, "%s failed: %d\n", name, rc);
            exit(1);
        }
        if (i >= 0)
            t[i] = t1 - t0;
    }
    memcpy(sorted, t, (size_t)count * sizeof(double));
    qsort(sorted, (size_t)count, sizeof(double), cmp_double);
    double worst = 0;
    printf("%-28s |t| by crop:", name);
    for (int c = 0; c < NCROPS; c++) {
        long idx = (long)ceil(crops[c] / 100 * (double)count) - 1;
        double limit = sorted[idx < 0 ? 0 : idx >= count ? count - 1 : idx];
        double v = fabs(welch(t, cls, count, limit));
        printf(" %g%%: %.2f", crops[c], v);
        if (v > worst)
            worst = v;
    }
    printf("  -> max %.2f (median %.0f us)\n", worst, sorted[count / 2] / 1000);
    free(t);
    free(sorted);
    return worst;
}

static void random_exponent(mp_limb_t *e, mp_size_t n, unsigned bits)
{
    memset(e, 0, (size_t)n * sizeof(mp_limb_t));
    for (unsigned i = 0; i < (bits + 63) / 64; i++)
        e[i] = next();
    if (bits % 64)
        e[bits / 64] &= ((mp_limb_t)1 << (bits % 64)) - 1;
    e[(bits - 1) / 64] |= (mp_limb_t)1 << ((bits - 1) % 64);
}

/* GMP's engine raising 2 (mpn_mont.h's base-2 path), as an engine's pair:
 * the base is not read. */
static int gmp_base2_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                          mp_size_t n)
{
    (void)b;
    while (en > 1 && e[en - 1] == 0)
        en--;
    return jbigi_mpn_powm_base2(r, e, en, m, n, 0);
}

/* The special-form engine's constant-time power at an exponent's limbs. */
static int p25519_powm_sec_limbs(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                                 const mp_limb_t *m, mp_size_t n)
{
    return jbigi_p25519_powm_sec(r, b, e, (size_t)en * GMP_NUMB_BITS, m, n);
}

static int gmp_base2_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                              mp_size_t n)
{
    (void)b;
    return jbigi_mpn_powm_base2(r, e, en, m, n, (size_t)en * GMP_NUMB_BITS);
}

int main(int argc, char **argv)
{
    const char *engine = argc > 1 ? argv[1] : "ifma";
    long count = argc > 2 ? atol(argv[2]) : 20000;
    unsigned bits = argc > 3 ? (unsigned)atoi(argv[3]) : 2048;
    const char *base = argc > 4 ? argv[4] : "random";
    const int adx = strcmp(engine, "adx") == 0, gmp = strcmp(engine, "gmp") == 0, base2 = strcmp(base, "2") == 0;
    const int field = strcmp(engine, "p25519") == 0;
    if ((!adx && !gmp && !field && strcmp(engine, "ifma") != 0) || count < 100 || bits < 128 ||
        bits > 64 * MAX_LIMBS || bits % 64 || (!base2 && strcmp(base, "random") != 0) || (gmp && !base2) ||
        (field && bits != 256)) {
        fprintf(stderr,
                "usage: %s [ifma|adx [MEASUREMENTS >= 100 [BITS: a multiple of 64, 128..8192 [random|2]]]]\n"
                "       %s gmp MEASUREMENTS BITS 2   (GMP's functions on the base-2 path)\n"
                "       %s p25519 MEASUREMENTS 256 [random|2]   (the modulus 2^255 - 19)\n",
                argv[0], argv[0], argv[0]);
        return 2;
    }
    if (gmp ? 0 : field ? !jbigi_p25519_available() : adx ? !jbigi_adx_cpu() : !jbigi_ifma_available()) {
        printf("# engine_ct: SKIPPED: this CPU cannot run %s (or JBIGI_ENGINE=gmp)\n0 passed, 0 failed\n", engine);
        return 0;
    }
    powm = gmp ? gmp_base2_powm : field ? jbigi_p25519_powm : adx ? jbigi_adx_powm : jbigi_ifma_powm;
    powm_sec = gmp ? gmp_base2_powm_sec
               : field ? p25519_powm_sec_limbs
               : adx   ? jbigi_adx_powm_sec
                       : jbigi_ifma_powm_sec;
    const mp_size_t n = bits / 64;
    mp_limb_t m[MAX_LIMBS], b[MAX_LIMBS];
    for (mp_size_t i = 0; i < n; i++) {
        m[i] = next();
        b[i] = next();
    }
    m[0] |= 1;
    m[n - 1] |= (mp_limb_t)1 << 63;
    b[n - 1] >>= 1; /* below m */
    if (field) { /* m = 2^255 - 19, b below it */
        m[0] = ~(mp_limb_t)18;
        m[1] = m[2] = ~(mp_limb_t)0;
        m[3] = ~(mp_limb_t)0 >> 1;
        b[3] >>= 1;
    }
    if (base2) {
        memset(b, 0, sizeof b);
        b[0] = 2;
    }

    mp_limb_t (*exps)[2][MAX_LIMBS] = malloc((size_t)count * sizeof *exps);
    unsigned char *cls = malloc((size_t)count);
    if (exps == NULL || cls == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    printf("# engine_ct: %s, %ld measurements per function, %u-bit modulus, base %s\n", engine, count, bits, base);
    int passed = 0, failed = 0;

    /* fixed (sparse) vs random */
    mp_limb_t fixed[MAX_LIMBS];
    memset(fixed, 0, sizeof fixed);
    for (int k = 0; k < 24; k++) {
        unsigned bit = (unsigned)(next() % bits);
        fixed[bit / 64] |= (mp_limb_t)1 << (bit % 64);
    }
    fixed[(bits - 1) / 64] |= (mp_limb_t)1 << ((bits - 1) % 64);
    for (long i = 0; i < count; i++) {
        cls[i] = (unsigned char)(next() & 1);
        memcpy(exps[i][0], fixed, sizeof fixed);
        random_exponent(exps[i][1], n, bits);
    }
    double ct1 = measure("powm_sec fixed vs random", 1, exps, cls, count, b, m, n);
    double vt1 = measure("powm (control) fixed vs random", 0, exps, cls, count, b, m, n);

    /* long vs short */
    for (long i = 0; i < count; i++) {
        cls[i] = (unsigned char)(next() & 1);
        random_exponent(exps[i][0], n, bits);
        random_exponent(exps[i][1], n, bits * 7 / 8);
    }
    double ct2 = measure("powm_sec long vs short", 1, exps, cls, count, b, m, n);
    double vt2 = measure("powm (control) long vs short", 0, exps, cls, count, b, m, n);

    struct {
        const char *what;
        int ok;
    } verdicts[] = {
        {"constant-time path, fixed vs random: |t| < 10", ct1 < THRESHOLD},
        {"constant-time path, long vs short: |t| < 10", ct2 < THRESHOLD},
        {"control (variable time) sees fixed vs random: |t| > 10", vt1 > THRESHOLD},
        {"control (variable time) sees long vs short: |t| > 10", vt2 > THRESHOLD},
    };
    for (int i = 0; i < 4; i++) {
        printf("%s %s\n", verdicts[i].ok ? "ok  " : "FAIL", verdicts[i].what);
        verdicts[i].ok ? passed++ : failed++;
    }
    free(exps);
    free(cls);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
