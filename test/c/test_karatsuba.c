/*
 * test_karatsuba.c - src/engines/karatsuba.c against GMP: the square and the
 * product, in both forms (secret and not), bit for bit against mpn_sqr and
 * mpn_mul_n at every length from 1 to 128 limbs, on random limbs with the
 * carry-stressing patterns and on the values that steer its branch-free
 * choices: halves equal, each half the larger, all ones, zero, one.  Each
 * call runs between guard limbs: it must write exactly 2 n limbs of r and
 * stay inside jbigi_karatsuba_scratch(n) limbs of scratch.
 *
 * GMP's own scratch: GMP 6's mpn_sec_mul_itch, mpn_sec_sqr_itch and
 * mpn_sec_add_1_itch are 0, another GMP's (a shared libgmp) may not be.
 * The itch functions are intercepted (--wrap) to ask for more, and the
 * mpn_sec_* functions to fill all the scratch they were told of, before
 * and after they run, as such a GMP may: the sizing must include it, each
 * call's scratch must lie inside the caller's and overlap nothing live,
 * and the results must not change.
 *
 * JBIGI_TEST_SEED replays a run; JBIGI_TEST_SCALE (percent) scales the
 * random case count.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engines/karatsuba.h"
#include "powm_cases.h"

#define GUARD 4
#define GUARD_LIMB ((mp_limb_t)0x5a5a5a5a5a5a5a5aULL)

static int guards_hold(const mp_limb_t *p, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (p[i] != GUARD_LIMB)
            return 0;
    return 1;
}

static void set_guards(mp_limb_t *p, size_t count)
{
    for (size_t i = 0; i < count; i++)
        p[i] = GUARD_LIMB;
}

/* ---- GMP's scratch, as a GMP that uses it would ---- */

static int hungry;                                /* 1: the itch functions ask for more */
static const mp_limb_t *scratch_low, *scratch_end; /* the caller's scratch */
static long outside;                              /* GMP calls given scratch outside it */

mp_size_t __real___gmpn_sec_mul_itch(mp_size_t an, mp_size_t bn);
mp_size_t __real___gmpn_sec_sqr_itch(mp_size_t an);
mp_size_t __real___gmpn_sec_add_1_itch(mp_size_t n);
void __real___gmpn_sec_mul(mp_ptr rp, mp_srcptr ap, mp_size_t an, mp_srcptr bp, mp_size_t bn, mp_ptr tp);
void __real___gmpn_sec_sqr(mp_ptr rp, mp_srcptr ap, mp_size_t an, mp_ptr tp);
mp_limb_t __real___gmpn_sec_add_1(mp_ptr rp, mp_srcptr ap, mp_size_t n, mp_limb_t b, mp_ptr tp);
mp_size_t __wrap___gmpn_sec_mul_itch(mp_size_t an, mp_size_t bn);
mp_size_t __wrap___gmpn_sec_sqr_itch(mp_size_t an);
mp_size_t __wrap___gmpn_sec_add_1_itch(mp_size_t n);
void __wrap___gmpn_sec_mul(mp_ptr rp, mp_srcptr ap, mp_size_t an, mp_srcptr bp, mp_size_t bn, mp_ptr tp);
void __wrap___gmpn_sec_sqr(mp_ptr rp, mp_srcptr ap, mp_size_t an, mp_ptr tp);
mp_limb_t __wrap___gmpn_sec_add_1(mp_ptr rp, mp_srcptr ap, mp_size_t n, mp_limb_t b, mp_ptr tp);

/* More than the 4 n limbs the code once assumed were enough for it all. */
mp_size_t __wrap___gmpn_sec_mul_itch(mp_size_t an, mp_size_t bn)
{
    return __real___gmpn_sec_mul_itch(an, bn) + (hungry ? 4 * an + 3 : 0);
}

mp_size_t __wrap___gmpn_sec_sqr_itch(mp_size_t an)
{
    return __real___gmpn_sec_sqr_itch(an) + (hungry ? 4 * an + 5 : 0);
}

mp_size_t __wrap___gmpn_sec_add_1_itch(mp_size_t n)
{
    return __real___gmpn_sec_add_1_itch(n) + (hungry ? 3 * n + 7 : 0);
}

/* Fills the limbs tp .. tp + count, when they lie in the caller's scratch. */
static void scribble(mp_limb_t *tp, mp_size_t count)
{
    if (!hungry)
        return;
    if (tp < scratch_low || tp + count > scratch_end) {
        outside++;
        return;
    }
    for (mp_size_t i = 0; i < count; i++)
        tp[i] = (mp_limb_t)0xa5a5a5a5a5a5a5a5ULL ^ (mp_limb_t)i;
}

void __wrap___gmpn_sec_mul(mp_ptr rp, mp_srcptr ap, mp_size_t an, mp_srcptr bp, mp_size_t bn, mp_ptr tp)
{
    scribble(tp, mpn_sec_mul_itch(an, bn));
    __real___gmpn_sec_mul(rp, ap, an, bp, bn, tp);
    scribble(tp, mpn_sec_mul_itch(an, bn));
}

void __wrap___gmpn_sec_sqr(mp_ptr rp, mp_srcptr ap, mp_size_t an, mp_ptr tp)
{
    scribble(tp, mpn_sec_sqr_itch(an));
    __real___gmpn_sec_sqr(rp, ap, an, tp);
    scribble(tp, mpn_sec_sqr_itch(an));
}

mp_limb_t __wrap___gmpn_sec_add_1(mp_ptr rp, mp_srcptr ap, mp_size_t n, mp_limb_t b, mp_ptr tp)
{
    scribble(tp, mpn_sec_add_1_itch(n));
    const mp_limb_t carry = __real___gmpn_sec_add_1(rp, ap, n, b, tp);
    scribble(tp, mpn_sec_add_1_itch(n));
    return carry;
}

/* a, and b when it is not NULL, through both forms against GMP. */
static void check_pair(const char *what, const mp_limb_t *a, const mp_limb_t *b, mp_size_t n)
{
    static mp_limb_t expect[2 * MAXN], out[GUARD + 2 * MAXN + GUARD];
    static mp_limb_t *scratch;
    static size_t scratch_room;
    const size_t scratch_limbs = jbigi_karatsuba_scratch(n);
    if (scratch_limbs + GUARD > scratch_room) {
        free(scratch);
        scratch_room = scratch_limbs + GUARD;
        scratch = malloc(scratch_room * sizeof *scratch);
        if (scratch == NULL) {
            CHECK(0, "no memory for %zu limbs of scratch", scratch_room);
            return;
        }
    }
    scratch_low = scratch;
    scratch_end = scratch + scratch_limbs;
    const long outside_before = outside;
    if (b == NULL)
        mpn_sqr(expect, a, n);
    else
        mpn_mul_n(expect, a, b, n);
    for (int secret = 0; secret <= 1; secret++) {
        mp_limb_t *r = out + GUARD;
        set_guards(out, GUARD);
        set_guards(r, 2 * (size_t)n + GUARD);
        set_guards(scratch + scratch_limbs, GUARD);
        if (b == NULL)
            jbigi_karatsuba_sqr(r, a, n, secret, scratch);
        else
            jbigi_karatsuba_mul(r, a, b, n, secret, scratch);
        CHECK(mpn_cmp(r, expect, 2 * n) == 0, "%s %s, n=%ld, secret=%d: differs from GMP", b ? "mul" : "sqr", what,
              (long)n, secret);
        CHECK(guards_hold(out, GUARD) && guards_hold(r + 2 * n, GUARD), "%s %s, n=%ld: wrote outside r",
              b ? "mul" : "sqr", what, (long)n);
        CHECK(guards_hold(scratch + scratch_limbs, GUARD), "%s %s, n=%ld: used more scratch than %zu limbs",
              b ? "mul" : "sqr", what, (long)n, scratch_limbs);
    }
    CHECK(outside == outside_before, "%s %s, n=%ld: GMP was given scratch beyond the %zu limbs sized for it%s",
          b ? "mul" : "sqr", what, (long)n, scratch_limbs, hungry ? " (itch above 0)" : "");
}

/* x = the value of one of the shapes below, n limbs. */
static void shaped(mp_limb_t *x, mp_size_t n, int shape)
{
    const mp_size_t h = n / 2;
    memset(x, 0, (size_t)n * sizeof(mp_limb_t));
    if (h == 0 && shape >= 3) { /* one limb has no halves */
        random_limbs(x, n);
        return;
    }
    switch (shape) {
    case 0: break;                                            /* zero */
    case 1: x[0] = 1; break;                                  /* one */
    case 2: memset(x, 0xff, (size_t)n * sizeof *x); break;    /* all ones */
    case 3: random_limbs(x, h); memcpy(x + h, x, (size_t)h * sizeof *x); break; /* halves equal */
    case 4: random_limbs(x, n); x[n - 1] |= (mp_limb_t)1 << (GMP_NUMB_BITS - 1); x[h - 1] >>= 1; break; /* high half larger */
    case 5: random_limbs(x, n); x[h - 1] |= (mp_limb_t)1 << (GMP_NUMB_BITS - 1); x[n - 1] >>= 1; break; /* low half larger */
    default: x[h - 1] = ~(mp_limb_t)0; break;                 /* low half's top limb only */
    }
}

#define SHAPES 7

int main(void)
{
    test_seed("test_karatsuba");
    mp_limb_t a[MAXN], b[MAXN];
    /* GMP's scratch taken as a GMP that asks for some would: every length,
     * every shape, once each. */
    hungry = 1;
    for (mp_size_t n = 1; n <= MAXN; n++) {
        for (int shape = 0; shape < SHAPES; shape++) {
            shaped(a, n, shape);
            shaped(b, n, (shape + 3) % SHAPES);
            check_pair("GMP's scratch used", a, NULL, n);
            check_pair("GMP's scratch used", a, b, n);
        }
    }
    hungry = 0;
    for (mp_size_t n = 1; n <= MAXN; n++) {
        for (int sa = 0; sa < SHAPES; sa++) {
            shaped(a, n, sa);
            check_pair("shaped", a, NULL, n);
            for (int sb = 0; sb < SHAPES; sb++) {
                shaped(b, n, sb);
                check_pair("shaped", a, b, n);
            }
        }
        const long cases = test_scale(60);
        for (long i = 0; i < cases; i++) {
            random_limbs(a, n);
            random_limbs(b, n);
            check_pair("random", a, NULL, n);
            check_pair("random", a, b, n);
        }
    }
    return finish("test_karatsuba");
}
