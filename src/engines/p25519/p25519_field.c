/*
 * p25519_field.c - the field mod p = 2^255 - 19 in radix 2^51 (p25519.h
 * states the data and its bounds).  Plain C: 64-bit words, 128-bit
 * products, no branch and no index on a value.
 */
#include "engines/p25519/p25519.h"

#if JBIGI_P25519_FIELD

#include <stdint.h>

typedef unsigned __int128 u128;

#define MASK51 ((UINT64_C(1) << 51) - 1)

_Static_assert(sizeof(mp_limb_t) == 8, "64-bit limbs");

void jbigi_p25519_from_limbs(mp_limb_t *h, const mp_limb_t *a)
{
    const mp_limb_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    h[0] = a0 & MASK51;
    h[1] = (a0 >> 51 | a1 << 13) & MASK51;
    h[2] = (a1 >> 38 | a2 << 26) & MASK51;
    h[3] = (a2 >> 25 | a3 << 39) & MASK51;
    h[4] = (a3 >> 12) & MASK51;
}

void jbigi_p25519_to_limbs(mp_limb_t *x, const mp_limb_t *h)
{
    mp_limb_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], c;
    /* Every word below 2^51 but h0, which takes the top carry (at most 3)
     * times 19: the value is below 2^255 + 76 < 2 p. */
    h1 += h0 >> 51;
    h0 &= MASK51;
    h2 += h1 >> 51;
    h1 &= MASK51;
    h3 += h2 >> 51;
    h2 &= MASK51;
    h4 += h3 >> 51;
    h3 &= MASK51;
    h0 += 19 * (h4 >> 51);
    h4 &= MASK51;
    /* q = 1 when the value is p or more: when value + 19 reaches 2^255. */
    c = (h0 + 19) >> 51;
    c = (h1 + c) >> 51;
    c = (h2 + c) >> 51;
    c = (h3 + c) >> 51;
    c = (h4 + c) >> 51;
    /* value - q p = value + 19 q - q 2^255: the last carry is dropped. */
    h0 += 19 * c;
    h1 += h0 >> 51;
    h0 &= MASK51;
    h2 += h1 >> 51;
    h1 &= MASK51;
    h3 += h2 >> 51;
    h2 &= MASK51;
    h4 += h3 >> 51;
    h3 &= MASK51;
    h4 &= MASK51;
    x[0] = h0 | h1 << 51;
    x[1] = h1 >> 13 | h2 << 38;
    x[2] = h2 >> 26 | h3 << 25;
    x[3] = h3 >> 39 | h4 << 12;
}

/* The five sums of a product (each below 2^111) carried down to words
 * below 2^51 (the second and the fifth below 2^51 + 2^10), the carry out
 * of the top coming back times 19.  Two chains run side by side (from
 * r0 and from r3), so a product waits on four carries, not six. */
static inline void carry(mp_limb_t *h, u128 r0, u128 r1, u128 r2, u128 r3, u128 r4)
{
    r1 += (uint64_t)(r0 >> 51);
    r4 += (uint64_t)(r3 >> 51);
    /* r4 holds no folded products: its carry is below 2^56, times 19
     * below 2^61. */
    mp_limb_t h0 = ((uint64_t)r0 & MASK51) + 19 * (uint64_t)(r4 >> 51);
    r2 += (uint64_t)(r1 >> 51);
    const mp_limb_t h1 = ((uint64_t)r1 & MASK51) + (h0 >> 51);
    const mp_limb_t h3 = ((uint64_t)r3 & MASK51) + (uint64_t)(r2 >> 51); /* below 2^61 */
    const mp_limb_t h4 = ((uint64_t)r4 & MASK51) + (h3 >> 51);
    h[0] = h0 & MASK51;
    h[1] = h1;
    h[2] = (uint64_t)r2 & MASK51;
    h[3] = h3 & MASK51;
    h[4] = h4;
}

void jbigi_p25519_mul(mp_limb_t *h, const mp_limb_t *a, const mp_limb_t *b)
{
    const uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4];
    const uint64_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4];
    /* b's words that meet a's at 2^255 and above, times 19 (below 2^57). */
    const uint64_t s1 = 19 * b1, s2 = 19 * b2, s3 = 19 * b3, s4 = 19 * b4;
    const u128 r0 = (u128)a0 * b0 + (u128)a1 * s4 + (u128)a2 * s3 + (u128)a3 * s2 + (u128)a4 * s1;
    const u128 r1 = (u128)a0 * b1 + (u128)a1 * b0 + (u128)a2 * s4 + (u128)a3 * s3 + (u128)a4 * s2;
    const u128 r2 = (u128)a0 * b2 + (u128)a1 * b1 + (u128)a2 * b0 + (u128)a3 * s4 + (u128)a4 * s3;
    const u128 r3 = (u128)a0 * b3 + (u128)a1 * b2 + (u128)a2 * b1 + (u128)a3 * b0 + (u128)a4 * s4;
    const u128 r4 = (u128)a0 * b4 + (u128)a1 * b3 + (u128)a2 * b2 + (u128)a3 * b1 + (u128)a4 * b0;
    carry(h, r0, r1, r2, r3, r4);
}

void jbigi_p25519_sqr(mp_limb_t *h, const mp_limb_t *a)
{
    const uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4];
    const uint64_t d0 = 2 * a0, d1 = 2 * a1, d2 = 2 * a2, d3 = 2 * a3;
    const uint64_t s3 = 19 * a3, s4 = 19 * a4;
    const u128 r0 = (u128)a0 * a0 + (u128)d1 * s4 + (u128)d2 * s3;
    const u128 r1 = (u128)d0 * a1 + (u128)d2 * s4 + (u128)a3 * s3;
    const u128 r2 = (u128)d0 * a2 + (u128)a1 * a1 + (u128)d3 * s4;
    const u128 r3 = (u128)d0 * a3 + (u128)d1 * a2 + (u128)a4 * s4;
    const u128 r4 = (u128)d0 * a4 + (u128)d1 * a3 + (u128)a2 * a2;
    carry(h, r0, r1, r2, r3, r4);
}

#else /* no 128-bit product or 32-bit limbs: the engine is never available */

void jbigi_p25519_from_limbs(mp_limb_t *h, const mp_limb_t *a)
{
    (void)h;
    (void)a;
}

void jbigi_p25519_to_limbs(mp_limb_t *x, const mp_limb_t *h)
{
    (void)x;
    (void)h;
}

void jbigi_p25519_mul(mp_limb_t *h, const mp_limb_t *a, const mp_limb_t *b)
{
    (void)h;
    (void)a;
    (void)b;
}

void jbigi_p25519_sqr(mp_limb_t *h, const mp_limb_t *a)
{
    (void)h;
    (void)a;
}

#endif
