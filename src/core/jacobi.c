/*
 * jacobi.c - the Jacobi symbol (a/n), n odd and positive, in variable time.
 *
 * The binary algorithm: with b odd, a >= 0 and s the sign so far,
 *   a even:        (a/b) = (2/b) (a/2 / b),  (2/b) = -1 iff b = 3 or 5 mod 8;
 *   a odd, a < b:  swap them, by reciprocity (a/b) = -(b/a) iff a = b = 3 mod 4;
 *   a odd, a >= b: (a/b) = (a-b / b);
 * until a = 0, where (0/b) is 1 for b = 1 and 0 otherwise.  Every rule
 * needs only the three low bits of a and b, and the order of a and b.
 *
 * Working on whole numbers step by step costs a multi-limb subtraction,
 * comparison and shift per step.  So the steps are decided in batches on
 * one 64-bit word per value (an approximation, as in Pornin's optimised
 * binary GCD): the top 32 bits of both values' common window over the low
 * 32 bits.  A batch records its steps as a 2x2 matrix with a power of two,
 * applied to the whole numbers at its end: (a, b) <- (f0 a + g0 b, f1 a +
 * g1 b) / 2^h.  Why its steps are the true ones:
 *
 *   - the low 32 bits are exact, and stay exact through subtractions; each
 *     halving costs one, so a batch stops at MAX_HALVINGS halvings, with
 *     the three low bits the rules read still exact;
 *   - in units of 2^(len - 64), each approximation is within 2^32 of its
 *     value, and stays so: a difference of two is within 2^33 and is
 *     halved at once.  So an order found on approximations that differ by
 *     GUARD = 2^33 or more is the true order.  Closer than that, the batch
 *     stops; a batch stopped before its first step takes one exact step on
 *     the whole numbers instead (the values then share their top 31 bits,
 *     so the difference is short).
 *
 * Both values stay non-negative throughout, so the rules above hold as
 * written.  Once both fit one limb the rest runs on words.  Its speed
 * against mpz_jacobi, and the variants tried:
 * doc/measurements.md: "Euler's criterion in nativeModPow and the Jacobi symbol (2026-12-07)"
 */
#include "core/jacobi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if GMP_NUMB_BITS == 64 && GMP_NAIL_BITS == 0

/* The exact low bits of each approximation, below the top 32 bits. */
#define LOW_BITS 32
/* Halvings per batch: the rules read three exact low bits. */
#define MAX_HALVINGS (LOW_BITS - 3)
/* Approximations this far apart are in their values' order. */
#define GUARD ((uint64_t)1 << (LOW_BITS + 1))

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

/*
 * The sign so far is bit 1 of a word s, where the rules find it at no
 * shifting cost: bit 1 of a & b is set iff a = b = 3 mod 4 (both odd);
 * bit 1 of b ^ (b >> 1) iff b = 3 or 5 mod 8.
 */
static int signed_one(unsigned s)
{
    return (s & 2) ? -1 : 1;
}

/* s's bit 1 flipped by (2/b)^c. */
static unsigned two_over(unsigned s, unsigned c, uint64_t b)
{
    return s ^ ((c << 1) & (unsigned)(b ^ (b >> 1)));
}

/* (a/b) (-1)^s for single words, b odd; the order of a and b taken by
 * masks, not branches (it is as likely one way as the other). */
static int word_jacobi(uint64_t a, uint64_t b, unsigned s)
{
    if (a == 0)
        return b == 1 ? signed_one(s) : 0;
    unsigned c = (unsigned)__builtin_ctzll(a);
    a >>= c;
    s = two_over(s, c, b);
    for (;;) {
        const uint64_t less = (uint64_t)0 - (uint64_t)(a < b);
        const uint64_t d = ((a - b) ^ less) - less;
        s ^= (unsigned)(a & b & less);
        b ^= (a ^ b) & less;
        if (d == 0)
            break;
        c = (unsigned)__builtin_ctzll(d);
        a = d >> c;
        s = two_over(s, c, b);
    }
    return b == 1 ? signed_one(s) : 0;
}

/* Bits pos .. pos+31 of the n limbs at p (zero above them). */
static uint64_t window32(const mp_limb_t *p, mp_size_t n, uint64_t pos)
{
    const mp_size_t i = (mp_size_t)(pos / 64);
    const unsigned off = (unsigned)(pos % 64);
    if (i >= n)
        return 0;
    uint64_t w = p[i] >> off;
    if (off != 0 && i + 1 < n)
        w |= p[i + 1] << (64 - off);
    return w & 0xffffffffu;
}

/*
 * ra[0..m] = (f0 a + g0 b) / 2^h and rb[0..m] = (f1 a + g1 b) / 2^h over m
 * limbs, 1 <= h <= 63, each known to be >= 0 and below 2^(64 m), the
 * divisions exact; |f|, |g| < 2^31.  One pass over a and b: signed
 * products summed mod 2^128 (the true sums fit), each limb shifted into
 * place as it is found.
 */
static void combine(mp_limb_t *ra, mp_limb_t *rb, const mp_limb_t *a, const mp_limb_t *b, mp_size_t m,
                    const int64_t k[4], unsigned h)
{
    /* (uint64_t)f is f + 2^64 for f < 0: the term x[i] 2^64 comes back off */
    const uint64_t n0 = (uint64_t)(k[0] >> 63), n1 = (uint64_t)(k[1] >> 63);
    const uint64_t n2 = (uint64_t)(k[2] >> 63), n3 = (uint64_t)(k[3] >> 63);
    u128 acc0 = 0, acc1 = 0;
    uint64_t prev0 = 0, prev1 = 0;
    for (mp_size_t i = 0; i < m; i++) {
        const uint64_t x = a[i], y = b[i];
        acc0 += (u128)(uint64_t)k[0] * x - ((u128)(x & n0) << 64);
        acc0 += (u128)(uint64_t)k[1] * y - ((u128)(y & n1) << 64);
        acc1 += (u128)(uint64_t)k[2] * x - ((u128)(x & n2) << 64);
        acc1 += (u128)(uint64_t)k[3] * y - ((u128)(y & n3) << 64);
        const uint64_t lo0 = (uint64_t)acc0, lo1 = (uint64_t)acc1;
        acc0 = (u128)((s128)acc0 >> 64);
        acc1 = (u128)((s128)acc1 >> 64);
        if (i > 0) {
            ra[i - 1] = prev0 >> h | lo0 << (64 - h);
            rb[i - 1] = prev1 >> h | lo1 << (64 - h);
        }
        prev0 = lo0;
        prev1 = lo1;
    }
    const uint64_t top0 = (uint64_t)acc0, top1 = (uint64_t)acc1;
    ra[m - 1] = prev0 >> h | top0 << (64 - h);
    ra[m] = top0 >> h;
    rb[m - 1] = prev1 >> h | top1 << (64 - h);
    rb[m] = top1 >> h;
}

/* A row (f, g) of a batch's matrix packed as f + 2^32 g (|f| < 2^31),
 * so that one word operation moves both; unpacked here. */
static int64_t row_f(uint64_t row)
{
    return (int64_t)(int32_t)(uint32_t)row;
}

static int64_t row_g(uint64_t row)
{
    return ((int64_t)row - row_f(row)) / ((int64_t)1 << 32);
}

/* a = a / 2^k for the largest k (a > 0 of *an limbs, zero above), with
 * (2/b)^k into s. */
static void shift_out(mp_limb_t *a, mp_size_t *an, mp_limb_t b0, unsigned *s)
{
    mp_size_t z = 0;
    while (a[z] == 0)
        z++;
    const unsigned c = (unsigned)__builtin_ctzll(a[z]);
    *s = two_over(*s, (unsigned)(64 * z) + c, b0);
    const mp_size_t n = *an - z;
    if (z != 0) {
        memmove(a, a + z, (size_t)n * sizeof *a);
        memset(a + n, 0, (size_t)z * sizeof *a);
    }
    if (c != 0)
        mpn_rshift(a, a, n, c);
    *an = n;
}

/*
 * (a/b) (-1)^s (s's bit 1).  a >= 0 and b odd, each in a buffer of room
 * limbs, room > max(an, bn), zero above its value; t0 and t1 two more
 * such buffers.
 */
static int jacobi_core(mp_limb_t *a, mp_size_t an, mp_limb_t *b, mp_size_t bn, mp_limb_t *t0, mp_limb_t *t1,
                       unsigned s)
{
    for (;;) {
        while (an > 0 && a[an - 1] == 0)
            an--;
        while (bn > 0 && b[bn - 1] == 0)
            bn--;
        if (an == 0)
            return bn == 1 && b[0] == 1 ? signed_one(s) : 0;
        if (an == 1 && bn == 1)
            return word_jacobi(a[0], b[0], s);
        const mp_size_t m = an > bn ? an : bn;
        const mp_limb_t top = (an == m ? a[m - 1] : 0) | (bn == m ? b[m - 1] : 0);
        const uint64_t pos = 64 * (uint64_t)m - (uint64_t)__builtin_clzll(top) - 32;
        uint64_t u = window32(a, an, pos) << 32 | (a[0] & 0xffffffffu);
        uint64_t v = window32(b, bn, pos) << 32 | (b[0] & 0xffffffffu);
        /* the rows for a and b: a = (f0 a + g0 b) / 2^h, b likewise */
        uint64_t r0 = 1, r1 = (uint64_t)1 << 32;
        unsigned h = 0;
        if ((u & 1) == 0) {
            /* a even: halve it first (at least once: h is 0) */
            unsigned c = u == 0 ? 64 : (unsigned)__builtin_ctzll(u);
            if (c > MAX_HALVINGS) {
                c = MAX_HALVINGS;
                u = v; /* stop at once: the difference below is 0 */
            } else {
                u >>= c;
            }
            r1 <<= c;
            h = c;
            s = two_over(s, c, v);
        }
        /* u and v odd: the smaller from the larger, the order by
         * conditional moves, then halve */
        for (;;) {
            const int lt = u < v;
            const uint64_t d = lt ? v - u : u - v;
            if (d < GUARD)
                break;
            s ^= (unsigned)(u & v) & (0u - (unsigned)lt);
            v = lt ? u : v;
            const uint64_t swap = (r0 ^ r1) & ((uint64_t)0 - (uint64_t)lt);
            r0 ^= swap;
            r1 ^= swap;
            r0 -= r1;
            unsigned c = (unsigned)__builtin_ctzll(d);
            const unsigned room = MAX_HALVINGS - h;
            if (c >= room) {
                r1 <<= room;
                h += room;
                s = two_over(s, room, v);
                u = d >> room;
                break;
            }
            u = d >> c;
            r1 <<= c;
            h += c;
            s = two_over(s, c, v);
        }
        if (h == 0) {
            /* No step taken: the values share their top bits.  One exact
             * step, a odd. */
            const int less = an != bn ? an < bn : mpn_cmp(a, b, an) < 0;
            if (less) {
                mp_limb_t *tp = a;
                a = b;
                b = tp;
                const mp_size_t tn = an;
                an = bn;
                bn = tn;
                s ^= (unsigned)(a[0] & b[0]);
            }
            mpn_sub(a, a, an, b, bn);
            while (an > 0 && a[an - 1] == 0)
                an--;
            if (an != 0)
                shift_out(a, &an, b[0], &s);
            continue;
        }
        const int64_t k[4] = {row_f(r0), row_g(r0), row_f(r1), row_g(r1)};
        combine(t0, t1, a, b, m, k, h);
        mp_limb_t *old_a = a, *old_b = b;
        a = t0;
        b = t1;
        t0 = old_a;
        t1 = old_b;
        an = bn = m;
    }
}

int jbigi_jacobi_limbs(const mp_limb_t *ap, mp_size_t an, const mp_limb_t *np, mp_size_t nn)
{
    while (an > 0 && ap[an - 1] == 0)
        an--;
    const mp_size_t room = nn + 1;
    mp_limb_t stack[4 * (JBIGI_JACOBI_MAX_LIMBS + 1)];
    mp_limb_t qstack[JBIGI_JACOBI_MAX_LIMBS + 1];
    mp_limb_t *work = stack, *q = qstack;
    if (nn > JBIGI_JACOBI_MAX_LIMBS) {
        work = malloc(4 * (size_t)room * sizeof *work);
        if (work == NULL)
            return 2;
    }
    if (an > nn && an - nn + 1 > JBIGI_JACOBI_MAX_LIMBS + 1) {
        q = malloc((size_t)(an - nn + 1) * sizeof *q);
        if (q == NULL) {
            if (work != stack)
                free(work);
            return 2;
        }
    }
    mp_limb_t *a = work, *b = work + room;
    memset(work, 0, 4 * (size_t)room * sizeof *work);
    if (an > nn) {
        /* Far above n: reduce first (the steps would only shift it down). */
        mpn_tdiv_qr(q, a, 0, ap, an, np, nn);
        an = nn;
    } else if (an > 0) {
        mpn_copyi(a, ap, an);
    }
    mpn_copyi(b, np, nn);
    const int r = jacobi_core(a, an, b, nn, work + 2 * room, work + 3 * room, 0);
    if (q != qstack)
        free(q);
    if (work != stack)
        free(work);
    return r;
}

int jbigi_jacobi(const mpz_t a, const mpz_t n)
{
    if (mpz_sgn(n) <= 0 || mpz_even_p(n))
        return 0;
    const mp_size_t nn = (mp_size_t)mpz_size(n);
    if (nn > JBIGI_JACOBI_MAX_LIMBS)
        return mpz_jacobi(a, n);
    int r = jbigi_jacobi_limbs(mpz_limbs_read(a), (mp_size_t)mpz_size(a), mpz_limbs_read(n), nn);
    if (r == 2)
        return mpz_jacobi(a, n);
    /* (-1/n) = -1 iff n = 3 mod 4. */
    if (mpz_sgn(a) < 0 && (mpz_getlimbn(n, 0) & 2) != 0)
        r = -r;
    return r;
}

#else /* limbs other than 64 bits (armhf): GMP's own algorithm */

int jbigi_jacobi_limbs(const mp_limb_t *ap, mp_size_t an, const mp_limb_t *np, mp_size_t nn)
{
    mpz_t a, n;
    return mpz_jacobi(mpz_roinit_n(a, ap, an), mpz_roinit_n(n, np, nn));
}

int jbigi_jacobi(const mpz_t a, const mpz_t n)
{
    if (mpz_sgn(n) <= 0 || mpz_even_p(n))
        return 0;
    return mpz_jacobi(a, n);
}

#endif
