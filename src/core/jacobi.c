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
 * written.  Once both fit one limb the rest runs on words.
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

/* The sign bit s (bit 0) as the symbol's sign. */
static int signed_one(unsigned s)
{
    return (s & 1) ? -1 : 1;
}

/* (a/b) (-1)^s for single words, b odd. */
static int word_jacobi(uint64_t a, uint64_t b, unsigned s)
{
    while (a != 0) {
        const unsigned c = (unsigned)__builtin_ctzll(a);
        a >>= c;
        s ^= c & (unsigned)((b >> 1) ^ (b >> 2));
        if (a < b) {
            const uint64_t t = a;
            a = b;
            b = t;
            s ^= (unsigned)(a & b) >> 1;
        }
        a -= b;
    }
    return b == 1 ? signed_one(s) : 0;
}

/* Bits pos .. pos+31 of the n limbs at p (zero above them). */
static uint64_t window32(const mp_limb_t *p, mp_size_t n, unsigned long pos)
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

/* r[0..m] = (f a + g b) / 2^h over m limbs, known to be >= 0 and below
 * 2^(64 m); f and g below 2^63 in size, not both negative. */
static void combine(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, mp_size_t m, int64_t f, int64_t g,
                    unsigned h)
{
    if (f >= 0) {
        r[m] = mpn_mul_1(r, a, m, (mp_limb_t)f);
        if (g >= 0)
            r[m] += mpn_addmul_1(r, b, m, (mp_limb_t)g);
        else
            r[m] -= mpn_submul_1(r, b, m, (mp_limb_t)-g);
    } else {
        r[m] = mpn_mul_1(r, b, m, (mp_limb_t)g);
        r[m] -= mpn_submul_1(r, a, m, (mp_limb_t)-f);
    }
    if (h != 0)
        mpn_rshift(r, r, m + 1, h);
}

/* a = a / 2^k for the largest k (a > 0 of *an limbs, zero above), with
 * (2/b)^k into s. */
static void shift_out(mp_limb_t *a, mp_size_t *an, mp_limb_t b0, unsigned *s)
{
    mp_size_t z = 0;
    while (a[z] == 0)
        z++;
    const unsigned c = (unsigned)__builtin_ctzll(a[z]);
    *s ^= (unsigned)(64 * z + c) & (unsigned)((b0 >> 1) ^ (b0 >> 2));
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
 * (a/b) (-1)^s.  a >= 0 and b odd, each in a buffer of room limbs, room >
 * max(an, bn), zero above its value; t0 and t1 two more such buffers.
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
        const unsigned long pos = 64ul * (unsigned long)m - (unsigned long)__builtin_clzll(top) - 32;
        uint64_t u = window32(a, an, pos) << 32 | (a[0] & 0xffffffffu);
        uint64_t v = window32(b, bn, pos) << 32 | (b[0] & 0xffffffffu);
        int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
        unsigned h = 0;
        int steps = 0;
        for (;;) {
            if ((u & 1) == 0) {
                const unsigned room = MAX_HALVINGS - h;
                unsigned c = u == 0 ? 64 : (unsigned)__builtin_ctzll(u);
                const int capped = c > room;
                if (capped)
                    c = room;
                if (c == 0)
                    break;
                u >>= c;
                f1 *= (int64_t)1 << c;
                g1 *= (int64_t)1 << c;
                h += c;
                s ^= c & (unsigned)((v >> 1) ^ (v >> 2));
                steps++;
                if (capped)
                    break;
            }
            if (u < v) {
                if (v - u < GUARD)
                    break;
                const uint64_t t = u;
                u = v;
                v = t;
                int64_t x = f0;
                f0 = f1;
                f1 = x;
                x = g0;
                g0 = g1;
                g1 = x;
                s ^= (unsigned)(u & v) >> 1;
            } else if (u - v < GUARD) {
                break;
            }
            u -= v;
            f0 -= f1;
            g0 -= g1;
            steps++;
        }
        if (steps == 0) {
            /* The values share their top bits: one exact step, a odd. */
            const int less = an != bn ? an < bn : mpn_cmp(a, b, an) < 0;
            if (less) {
                mp_limb_t *tp = a;
                a = b;
                b = tp;
                const mp_size_t tn = an;
                an = bn;
                bn = tn;
                s ^= (unsigned)(a[0] & b[0]) >> 1;
            }
            mpn_sub(a, a, an, b, bn);
            while (an > 0 && a[an - 1] == 0)
                an--;
            if (an != 0)
                shift_out(a, &an, b[0], &s);
            continue;
        }
        combine(t0, a, b, m, f0, g0, h);
        combine(t1, a, b, m, f1, g1, h);
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
