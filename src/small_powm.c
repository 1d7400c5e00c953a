/*
 * small_powm.c - modPow for one- and two-limb odd moduli, variable time, in
 * plain C.
 *
 * For the smallest moduli mpz_powm spends most of its time around the
 * arithmetic: a squaring and a separate REDC per step, each a call into code
 * made for longer operands.  Here one function per limb count, with the
 * count a compile-time constant, multiplies and reduces in one pass
 * (coarsely integrated operand scanning) in registers, and the exponent is
 * scanned with a sliding window as mpz_powm does.  Measured against
 * mpz_powm in the same process: 0.6 to 0.7 of its time at 64 bits, even at
 * 128 bits, and slower from 192 bits on (GMP's assembly wins there), so the
 * caller uses it for one limb only (jbigi_small_takes).  Results are
 * mpz_powm's, bit for bit: everything is reduced into [0, m) at the end.
 *
 * Edge cases, handled by the caller: m even or m = 1 (no Montgomery form),
 * exponent 0, base not yet reduced into [0, m).
 */
#include "small_powm.h"

#include <stdint.h>
#include <string.h>

/* A product of two limbs and what carries into it: twice a limb's width. */
#if GMP_LIMB_BITS == 64 && GMP_NAIL_BITS == 0
typedef unsigned __int128 wide;
#elif GMP_LIMB_BITS == 32 && GMP_NAIL_BITS == 0
typedef uint64_t wide;
#else
#error "small_powm.c needs 32- or 64-bit GMP limbs without nails"
#endif
#define LIMB_BITS GMP_LIMB_BITS

/* -m0^-1 mod 2^LIMB_BITS by Newton's iteration: each step doubles the
 * correct bits (3, 6, ... 192: enough for 64-bit limbs, more than enough for 32). */
static mp_limb_t negated_inverse(mp_limb_t m0)
{
    mp_limb_t x = m0; /* right to 3 bits for odd m0 */
    for (int i = 0; i < 6; i++)
        x *= 2 - m0 * x;
    return -x;
}

/*
 * r = a b / 2^(LIMB_BITS n) mod m for a, b in [0, m), r in [0, m).  r may alias a
 * or b.  The product is accumulated and reduced one limb of b at a time;
 * the running value stays below 2 m, so one conditional subtraction ends it.
 */
static inline __attribute__((always_inline)) void mont_mul(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b,
                                                          const mp_limb_t *m, mp_limb_t minv, const int n)
{
    mp_limb_t t[JBIGI_SMALL_MAX_LIMBS + 2];
    for (int j = 0; j < n + 2; j++)
        t[j] = 0;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        wide c = 0;
#pragma GCC unroll 8
        for (int j = 0; j < n; j++) {
            c = (wide)a[j] * b[i] + t[j] + (mp_limb_t)(c >> LIMB_BITS);
            t[j] = (mp_limb_t)c;
        }
        c = (wide)t[n] + (mp_limb_t)(c >> LIMB_BITS);
        t[n] = (mp_limb_t)c;
        t[n + 1] = (mp_limb_t)(c >> LIMB_BITS);

        const mp_limb_t q = t[0] * minv;
        c = (wide)q * m[0] + t[0];
#pragma GCC unroll 8
        for (int j = 1; j < n; j++) {
            c = (wide)q * m[j] + t[j] + (mp_limb_t)(c >> LIMB_BITS);
            t[j - 1] = (mp_limb_t)c;
        }
        c = (wide)t[n] + (mp_limb_t)(c >> LIMB_BITS);
        t[n - 1] = (mp_limb_t)c;
        t[n] = t[n + 1] + (mp_limb_t)(c >> LIMB_BITS);
    }
    /* t < 2 m: subtract m once if t >= m. */
    int subtract = t[n] != 0;
    if (!subtract) {
        subtract = 1;
        for (int j = n; j-- > 0;) {
            if (t[j] != m[j]) {
                subtract = t[j] > m[j];
                break;
            }
        }
    }
    if (subtract) {
        mp_limb_t borrow = 0;
        for (int j = 0; j < n; j++) {
            wide d = (wide)t[j] - m[j] - borrow;
            r[j] = (mp_limb_t)d;
            borrow = (mp_limb_t)(d >> LIMB_BITS) & 1;
        }
    } else {
        for (int j = 0; j < n; j++)
            r[j] = t[j];
    }
}

/* Window width for an exponent of bits bits: mpz_powm's choice. */
static int window_bits(size_t bits)
{
    return bits < 7 ? 1 : bits < 25 ? 2 : bits < 81 ? 3 : bits < 241 ? 4 : bits < 673 ? 5 : 6;
}

static inline int bit_at(const mp_limb_t *e, size_t i)
{
    return (int)((e[i / LIMB_BITS] >> (i % LIMB_BITS)) & 1);
}

#define MAX_WINDOW 6

/* The exponentiation for one limb count n (a constant in each caller). */
static inline __attribute__((always_inline)) int powm_n(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e,
                                                       mp_size_t en, const mp_limb_t *m, const int n)
{
    const mp_limb_t minv = negated_inverse(m[0]);
    size_t bits = (size_t)en * LIMB_BITS;
    while (bits > 0 && !bit_at(e, bits - 1))
        bits--;
    const int w = window_bits(bits);

    /* b in Montgomery form: b 2^(LIMB_BITS n) mod m, by one division. */
    mp_limb_t shifted[2 * JBIGI_SMALL_MAX_LIMBS], q[JBIGI_SMALL_MAX_LIMBS + 1];
    mp_limb_t table[1 << (MAX_WINDOW - 1)][JBIGI_SMALL_MAX_LIMBS];
    for (int j = 0; j < n; j++) {
        shifted[j] = 0;
        shifted[n + j] = b[j];
    }
    mpn_tdiv_qr(q, table[0], 0, shifted, 2 * n, m, n);

    /* The odd powers b^1, b^3, ..., b^(2^w - 1). */
    mp_limb_t x[JBIGI_SMALL_MAX_LIMBS];
    mont_mul(x, table[0], table[0], m, minv, n);
    for (int k = 1; k < 1 << (w - 1); k++)
        mont_mul(table[k], table[k - 1], x, m, minv, n);

    /* Left to right: a window ends on a set bit, zeros between windows are
     * single squarings. */
    size_t i = bits;
    int started = 0;
    while (i > 0) {
        if (!bit_at(e, i - 1)) {
            mont_mul(x, x, x, m, minv, n);
            i--;
            continue;
        }
        size_t low = i >= (size_t)w ? i - (size_t)w : 0;
        while (!bit_at(e, low))
            low++;
        unsigned value = 0;
        for (size_t k = i; k-- > low;)
            value = value << 1 | (unsigned)bit_at(e, k);
        if (started) {
            for (size_t k = low; k < i; k++)
                mont_mul(x, x, x, m, minv, n);
            mont_mul(x, x, table[value >> 1], m, minv, n);
        } else {
            memcpy(x, table[value >> 1], sizeof(mp_limb_t) * (size_t)n);
            started = 1;
        }
        i = low;
    }

    /* Out of Montgomery form: x / 2^(LIMB_BITS n), already in [0, m). */
    mp_limb_t one[JBIGI_SMALL_MAX_LIMBS];
    one[0] = 1;
    for (int j = 1; j < n; j++)
        one[j] = 0;
    mont_mul(r, x, one, m, minv, n);
    return 0;
}

int jbigi_small_takes(mp_size_t n)
{
    return n == 1;
}

int jbigi_small_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                     mp_size_t n)
{
    switch (n) {
    case 1: return powm_n(r, b, e, en, m, 1);
    case 2: return powm_n(r, b, e, en, m, 2);
    default: return -1;
    }
}
