/*
 * powm_driver.h - the exponentiations, written once for every Montgomery
 * engine: the variable-time sliding window and the constant-time fixed
 * window.  No JNI here.
 *
 * An engine supplies a jbigi_mont_ops: a prepared modulus (its own context,
 * made by the engine before the call), the conversions into and out of its
 * Montgomery domain, a product and a square there, and, where it has a
 * faster one, its own constant-time table select.  The drivers are inline
 * functions: an engine calls them with a constant ops table, so the
 * compiler calls (or inlines) the engine's functions directly.
 *
 * Values in the domain are arrays of elem_limbs limbs (an engine may pack
 * other digits into them: the driver only copies, selects and hands them
 * back).  The driver's tables come from its caller's stack when small
 * (jbigi_driver_take), else from the engine's allocator, which gives
 * zeroed, suitably aligned arrays and wipes them when freed.
 */
#ifndef JBIGI_POWM_DRIVER_H
#define JBIGI_POWM_DRIVER_H

#include <stddef.h>
#include <string.h>
#include <gmp.h>

#include "support/opaque.h"
#include "platform/platform.h"

typedef struct {
    /* Limbs of one value in the domain. */
    size_t (*elem_limbs)(const void *ctx);
    /* count zeroed values in one allocation, or NULL; release wipes. */
    mp_limb_t *(*alloc)(const void *ctx, size_t count);
    void (*release)(const void *ctx, mp_limb_t *p, size_t count);
    /* r = a in the domain, for a (the modulus' n limbs) < m. */
    void (*to_mont)(const void *ctx, mp_limb_t *r, const mp_limb_t *a);
    /* x (n limbs, fully reduced) = the value a stands for. */
    void (*from_mont)(const void *ctx, mp_limb_t *x, const mp_limb_t *a);
    /* r = 1 in the domain (R mod m). */
    void (*one)(const void *ctx, mp_limb_t *r);
    /* Products in the domain; r may alias a or b. */
    void (*mul)(const void *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b);
    void (*sqr)(const void *ctx, mp_limb_t *r, const mp_limb_t *a);
    /* count >= 1 squarings in a row, r = a squared count times (r may
     * alias a); NULL for the driver's loop over sqr.  An engine gives one
     * where a call per squaring costs it (a short modulus' kernel). */
    void (*sqr_times)(const void *ctx, mp_limb_t *r, const mp_limb_t *a, size_t count);
    /* The same squarings, then r = that times b (b may alias a or r): a
     * window's step in one call; NULL for sqr_times (or sqr) and mul.  An
     * engine gives one where its squarings keep the value in registers. */
    void (*sqr_times_mul)(const void *ctx, mp_limb_t *r, const mp_limb_t *a, size_t count, const mp_limb_t *b);
    /* r = table[index] of count values from alloc, count being the
     * constant-time window's 16 or 32 entries, reading every entry the same
     * way whatever index is; NULL for the driver's own. */
    void (*select)(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, unsigned index);
    /* The same over count values at any address (a fixed-base table in a
     * caller's buffer: comb_driver.h); NULL for the driver's own. */
    void (*select_any)(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, size_t index);
    /* a = 2 a in the domain when bit is 1, a unchanged when it is 0, the
     * same work either way; NULL when the engine has none.  a comes from a
     * product; the result goes to sqr or from_mont only (an engine whose
     * values are not fully reduced may leave it above its usual bound).  With it jbigi_drive_base2 raises the base
     * 2 (the generator of the Diffie-Hellman and ElGamal groups I2P uses)
     * without a table and without products by the base. */
    void (*double_if)(const void *ctx, mp_limb_t *a, mp_limb_t bit);
} jbigi_mont_ops;

/* The driver's status codes. */
#define JBIGI_DRIVER_OK 0
#define JBIGI_DRIVER_NO_MEMORY 1

/* The constant-time window from 512 bits: 5 bits, 32 entries (below,
 * jbigi_ct_window_width says why 4). */
#define JBIGI_CT_WINDOW 5
#define JBIGI_CT_ENTRIES (1u << JBIGI_CT_WINDOW)

/* The constant-time window's width for an exponent of bits bits (its
 * public width): 4 below 512 bits, where a 16-entry table costs fewer
 * products in all and half the masked reads per window (192 to 448 bits:
 * the short secrets of DSA and ElGamal); from 512 bits 5, JBIGI_CT_ENTRIES
 * entries.  Measured:
 * doc/measurements.md: "The 4-bit window below 512 bits (AMD EPYC Zen 5, 2026-12-02)" */
static inline unsigned jbigi_ct_window_width(size_t bits)
{
    return bits < 512 ? JBIGI_CT_WINDOW - 1 : JBIGI_CT_WINDOW;
}

#define JBIGI_DRIVER_INLINE static inline __attribute__((always_inline))

/* r = a squared count times in the domain, count >= 0 (r = a for 0). */
JBIGI_DRIVER_INLINE void jbigi_drive_squarings(const jbigi_mont_ops *ops, const void *ctx, mp_limb_t *r,
                                               const mp_limb_t *a, size_t count)
{
    if (count == 0) {
        if (r != a)
            memcpy(r, a, ops->elem_limbs(ctx) * sizeof(mp_limb_t));
        return;
    }
    if (ops->sqr_times != NULL) {
        ops->sqr_times(ctx, r, a, count);
        return;
    }
    ops->sqr(ctx, r, a);
    while (--count > 0)
        ops->sqr(ctx, r, r);
}

/* r = a squared count times, then times b, in the domain, count >= 0; b
 * must not be r (the loop below squares into r first). */
JBIGI_DRIVER_INLINE void jbigi_drive_squarings_mul(const jbigi_mont_ops *ops, const void *ctx, mp_limb_t *r,
                                                   const mp_limb_t *a, size_t count, const mp_limb_t *b)
{
    if (count > 0 && ops->sqr_times_mul != NULL) {
        ops->sqr_times_mul(ctx, r, a, count, b);
        return;
    }
    jbigi_drive_squarings(ops, ctx, r, a, count);
    ops->mul(ctx, r, r, b);
}

/*
 * A driver's working values (its table, accumulator and temporaries) come
 * from the caller's stack when they fit in JBIGI_DRIVER_STACK_BYTES, else
 * from the engine's allocator.  For the short moduli of a single call (four
 * to eight limbs) an allocation, its zeroing and its free cost as much as
 * the rest of the setup.  On the stack they are zeroed first and wiped
 * after, as the engines' allocators do, and aligned to 64 bytes, with the
 * size rounded up to 64 bytes (the AVX-512 engine's vectors).
 * doc/measurements.md: "A call's setup at four limbs without the heap (AMD EPYC Zen 4, 2026-12-07)"
 */
#define JBIGI_DRIVER_STACK_BYTES 4096

typedef struct {
    _Alignas(64) mp_limb_t limbs[JBIGI_DRIVER_STACK_BYTES / sizeof(mp_limb_t)];
} jbigi_driver_stack;

static inline size_t jbigi_driver_bytes(const jbigi_mont_ops *ops, const void *ctx, size_t count)
{
    return (count * ops->elem_limbs(ctx) * sizeof(mp_limb_t) + 63) & ~(size_t)63;
}

/* count zeroed values, on the stack when they fit, else from ops->alloc (NULL
 * when memory ran out).  Which one depends on sizes alone. */
static inline mp_limb_t *jbigi_driver_take(const jbigi_mont_ops *ops, const void *ctx, jbigi_driver_stack *stack,
                                           size_t count)
{
    const size_t bytes = jbigi_driver_bytes(ops, ctx, count);
    if (bytes > sizeof stack->limbs)
        return ops->alloc(ctx, count);
    memset(stack->limbs, 0, bytes);
    return stack->limbs;
}

/* Gives back what jbigi_driver_take gave, wiped. */
static inline void jbigi_driver_give(const jbigi_mont_ops *ops, const void *ctx, jbigi_driver_stack *stack,
                                     mp_limb_t *mem, size_t count)
{
    if (mem == stack->limbs)
        jbigi_secure_zero(mem, jbigi_driver_bytes(ops, ctx, count));
    else
        ops->release(ctx, mem, count);
}

/* Leading zero bits of a non-zero limb.  Not __builtin_clzl: long is 32
 * bits on Windows (LLP64) while a limb is 64. */
static inline unsigned jbigi_limb_clz(mp_limb_t x)
{
#if GMP_LIMB_BITS == 64
    return (unsigned)__builtin_clzll((unsigned long long)x);
#else
    return (unsigned)__builtin_clz((unsigned)x);
#endif
}

static inline int jbigi_exponent_bit(const mp_limb_t *e, size_t i)
{
    return (int)((e[i / GMP_NUMB_BITS] >> (i % GMP_NUMB_BITS)) & 1);
}

/* The sliding window's width for an exponent of ebits bits: the fewest
 * multiplications, ebits / (w + 1) plus 2^(w-1) for the table, at most 8. */
static inline int jbigi_window_width(size_t ebits)
{
    int best = 1;
    size_t best_cost = ebits / 2 + 1;
    for (int w = 2; w <= 8; w++) {
        size_t cost = ebits / (size_t)(w + 1) + ((size_t)1 << (w - 1));
        if (cost < best_cost) {
            best_cost = cost;
            best = w;
        }
    }
    return best;
}

/* Whether b (n limbs) is 2, for an engine to choose jbigi_drive_base2 (the
 * base is public on every path). */
static inline int jbigi_is_two(const mp_limb_t *b, size_t n)
{
    if (b[0] != 2)
        return 0;
    for (size_t i = 1; i < n; i++)
        if (b[i] != 0)
            return 0;
    return 1;
}

/*
 * x = 2^e mod m, left to right, a squaring per bit and a doubling (the
 * engine's double_if) per bit: from the top set bit of e's en limbs, the
 * doublings only where a bit is set, when fixed_bits is 0; over the low
 * fixed_bits bits of e (e below 2^fixed_bits, en at least
 * ceil(fixed_bits / GMP_NUMB_BITS)), each bit handed to double_if, when it
 * is not (the constant-time path: which products run and which addresses
 * are read depend on fixed_bits alone).  e = 0 gives 1 mod m on the second
 * form; the first needs e's top limb non-zero.  Returns a JBIGI_DRIVER_*
 * code.
 */
JBIGI_DRIVER_INLINE int jbigi_drive_base2(const jbigi_mont_ops *ops, const void *ctx, mp_limb_t *x,
                                          const mp_limb_t *e, mp_size_t en, size_t fixed_bits)
{
    jbigi_driver_stack stack;
    mp_limb_t *acc = jbigi_driver_take(ops, ctx, &stack, 1);
    if (acc == NULL)
        return JBIGI_DRIVER_NO_MEMORY;
    ops->one(ctx, acc);
    if (fixed_bits > 0) {
        for (size_t i = fixed_bits; i-- > 0;) {
            ops->sqr(ctx, acc, acc);
            ops->double_if(ctx, acc, (mp_limb_t)jbigi_exponent_bit(e, i));
        }
    } else {
        size_t i = (size_t)en * GMP_NUMB_BITS - (size_t)jbigi_limb_clz(e[en - 1]) - 1;
        ops->double_if(ctx, acc, 1); /* 2: the top bit */
        while (i-- > 0) {
            ops->sqr(ctx, acc, acc);
            if (jbigi_exponent_bit(e, i))
                ops->double_if(ctx, acc, 1);
        }
    }
    ops->from_mont(ctx, x, acc);
    jbigi_driver_give(ops, ctx, &stack, acc, 1);
    return JBIGI_DRIVER_OK;
}

/*
 * Exponents that open with a long run of ones: e = (2^k - 1) 2^s + c, c
 * below 2^s.  Such are the powers of a prime's own form, which a public
 * exponent often has: Fermat's inverse p - 2, the square roots (p + 3) / 8
 * and (p - 1) / 4 and the Legendre exponent (p - 1) / 2 under 2^255 - 19,
 * each a run of 250 or more ones and a few low bits.  b^(2^k - 1) then
 * takes k - 1 squarings and about 2 log2(k) products by the chain
 * x_2a = x_a^(2^a) x_a, x_(a+1) = x_a^2 b (x_a = b^(2^a - 1)), against the
 * sliding window's table and a product per window; the s low bits follow
 * bit by bit.
 */

/* The length k of the run of ones from e's top bit (e has ebits bits, its
 * top one set), read a limb at a time. */
static inline size_t jbigi_top_ones(const mp_limb_t *e, size_t ebits)
{
    size_t limb = (ebits - 1) / GMP_NUMB_BITS, width = ebits - limb * GMP_NUMB_BITS, k = 0;
    mp_limb_t v = e[limb] << (GMP_NUMB_BITS - width); /* the top limb's bits, aligned at the top */
    for (;;) {
        const mp_limb_t zeros = ~v;
        const size_t ones = zeros == 0 ? GMP_NUMB_BITS : jbigi_limb_clz(zeros);
        if (ones < width)
            return k + ones;
        k += width;
        if (limb == 0)
            return k;
        v = e[--limb];
        width = GMP_NUMB_BITS;
    }
}

/* Products of the chain for 2^k - 1 and the low bits' set ones, when that
 * is fewer than the sliding window's (about ebits / (w + 1) and its table's
 * 2^(w-1)); 0 when the window is cheaper.  Squarings are about ebits
 * either way. */
static inline size_t jbigi_ones_run_products(const mp_limb_t *e, size_t ebits, size_t k)
{
    if (k < 32)
        return 0;
    size_t products = 0;
    for (size_t a = k; a > 1; a >>= 1)
        products += 1 + (a & 1);
    const size_t s = ebits - k;
    for (size_t i = 0; i < s; i += GMP_NUMB_BITS) {
        mp_limb_t v = e[i / GMP_NUMB_BITS];
        if (s - i < GMP_NUMB_BITS)
            v &= ((mp_limb_t)1 << (s - i)) - 1;
        products += (size_t)__builtin_popcountll((unsigned long long)v);
    }
    const int w = jbigi_window_width(ebits);
    return products < ebits / (size_t)(w + 1) + ((size_t)1 << (w - 1)) ? products : 0;
}

/* x = b^e mod m for e = (2^k - 1) 2^(ebits - k) + c as above, variable time.
 * b: n limbs, < m; x may alias b.  Returns a JBIGI_DRIVER_* code. */
JBIGI_DRIVER_INLINE int jbigi_drive_ones_run(const jbigi_mont_ops *ops, const void *ctx, mp_limb_t *x,
                                             const mp_limb_t *b, const mp_limb_t *e, size_t ebits, size_t k)
{
    const size_t limbs = ops->elem_limbs(ctx);
    jbigi_driver_stack stack;
    mp_limb_t *mem = jbigi_driver_take(ops, ctx, &stack, 3);
    if (mem == NULL)
        return JBIGI_DRIVER_NO_MEMORY;
    mp_limb_t *base = mem, *acc = mem + limbs, *t = acc + limbs;
    ops->to_mont(ctx, base, b);
    memcpy(acc, base, limbs * sizeof(mp_limb_t)); /* x_1 = b */
    unsigned top = 0;
    while ((k >> top) > 1)
        top++;
    size_t a = 1;
    for (unsigned j = top; j-- > 0;) {
        jbigi_drive_squarings(ops, ctx, t, acc, a); /* x_2a = x_a^(2^a) x_a */
        ops->mul(ctx, acc, t, acc);
        a *= 2;
        if ((k >> j) & 1) { /* x_(a+1) = x_a^2 b */
            ops->sqr(ctx, acc, acc);
            ops->mul(ctx, acc, acc, base);
            a++;
        }
    }
    size_t owed = 0; /* squarings not yet made */
    for (size_t i = ebits - k; i-- > 0;) {
        owed++;
        if (jbigi_exponent_bit(e, i)) {
            jbigi_drive_squarings_mul(ops, ctx, acc, acc, owed, base);
            owed = 0;
        }
    }
    jbigi_drive_squarings(ops, ctx, acc, acc, owed);
    ops->from_mont(ctx, x, acc);
    jbigi_driver_give(ops, ctx, &stack, mem, 3);
    return JBIGI_DRIVER_OK;
}

/* Bits [pos, pos + w) of e (en limbs), zero above; w from 1 to 63.
 * Which limbs are read depends on pos and w only, which are public. */
static inline unsigned jbigi_window_bits(const mp_limb_t *e, mp_size_t en, size_t pos, unsigned w)
{
    const size_t limb = pos / GMP_NUMB_BITS;
    const unsigned off = (unsigned)(pos % GMP_NUMB_BITS);
    mp_limb_t v = e[limb] >> off;
    if (off > GMP_NUMB_BITS - w && limb + 1 < (size_t)en)
        v |= e[limb + 1] << (GMP_NUMB_BITS - off);
    return (unsigned)(v & (((mp_limb_t)1 << w) - 1));
}

/* The zero bits of e from bit i - 1 down to the next set bit (i when there
 * is none), i > 0: a word at a time, not a bit at a time. */
static inline size_t jbigi_zeros_below(const mp_limb_t *e, size_t i)
{
    size_t zeros = 0;
    while (i > 0) {
        const size_t limb = (i - 1) / GMP_NUMB_BITS;
        const unsigned below = (unsigned)((i - 1) % GMP_NUMB_BITS) + 1; /* this limb's bits under i */
        const mp_limb_t top = e[limb] << (GMP_NUMB_BITS - below);
        if (top != 0)
            return zeros + jbigi_limb_clz(top);
        zeros += below;
        i -= below;
    }
    return zeros;
}

/*
 * x (n limbs) = b^e mod m, variable time: left to right, a window starts at
 * a set bit and ends at most w bits lower on a set bit, so the table holds
 * the odd powers b, b^3, ..., b^(2^w - 1).  b: n limbs, < m; e: en >= 1
 * limbs, top limb non-zero.  x may alias b.  Returns a JBIGI_DRIVER_* code.
 */
JBIGI_DRIVER_INLINE int jbigi_drive_window(const jbigi_mont_ops *ops, const void *ctx, mp_limb_t *x,
                                           const mp_limb_t *b, const mp_limb_t *e, mp_size_t en)
{
    const size_t ebits = (size_t)en * GMP_NUMB_BITS - (size_t)jbigi_limb_clz(e[en - 1]);
    const size_t k = jbigi_top_ones(e, ebits);
    if (jbigi_ones_run_products(e, ebits, k) > 0)
        return jbigi_drive_ones_run(ops, ctx, x, b, e, ebits, k);
    const int w = jbigi_window_width(ebits);
    const size_t entries = (size_t)1 << (w - 1), limbs = ops->elem_limbs(ctx);
    jbigi_driver_stack stack;
    mp_limb_t *mem = jbigi_driver_take(ops, ctx, &stack, entries + 2);
    if (mem == NULL)
        return JBIGI_DRIVER_NO_MEMORY;
    mp_limb_t *table = mem, *acc = mem + entries * limbs, *b2 = acc + limbs;

    ops->to_mont(ctx, table, b);
    if (entries > 1) {
        ops->sqr(ctx, b2, table);
        for (size_t j = 1; j < entries; j++)
            ops->mul(ctx, table + j * limbs, table + (j - 1) * limbs, b2);
    }
    /* Each window read as one field of bits, and each run of zeros found
     * a word at a time: no branch on single bits of e, which a random
     * exponent would mispredict about once in two. */
    int started = 0;
    size_t owed = 0;  /* squarings not yet made: zero bits below a window */
    size_t i = ebits; /* bits i-1 .. 0 remain; bit i-1 is set here */
    for (;;) {
        const size_t top = i >= (size_t)w ? i - (size_t)w : 0;
        unsigned value = jbigi_window_bits(e, en, top, (unsigned)(i - top));
        /* The window ends on a set bit: its zeros below go to the squarings. */
        const unsigned trailing = (unsigned)__builtin_ctz(value);
        value >>= trailing;
        const size_t low = top + trailing;
        const mp_limb_t *entry = table + (value >> 1) * limbs;
        if (started) {
            jbigi_drive_squarings_mul(ops, ctx, acc, acc, owed + (i - low), entry);
        } else {
            memcpy(acc, entry, limbs * sizeof(mp_limb_t));
            started = 1;
        }
        i = low;
        owed = i == 0 ? 0 : jbigi_zeros_below(e, i);
        i -= owed;
        if (i == 0)
            break;
    }
    jbigi_drive_squarings(ops, ctx, acc, acc, owed);
    ops->from_mont(ctx, x, acc);
    jbigi_driver_give(ops, ctx, &stack, mem, entries + 2);
    return JBIGI_DRIVER_OK;
}

/* A mask of all ones when index == j, else zeros, computed without a branch
 * and hidden from the compiler, which could otherwise turn the masked reads
 * back into a branch or a conditional move on the secret index.  index and
 * j are below 2^63. */
static inline mp_limb_t jbigi_select_mask(size_t index, size_t j)
{
    mp_limb_t mask = (mp_limb_t)0 - (((mp_limb_t)(index ^ j) - 1) >> (GMP_NUMB_BITS - 1));
    JBIGI_OPAQUE(mask);
    return mask;
}

/*
 * r = table[index] of count entries, every entry read in full under a mask.
 * Four limbs at a time are gathered in registers over all the entries, then
 * stored: OR-ing each entry into r in memory instead chains every limb's
 * updates through the store buffer, and the select then weighs on a short
 * exponentiation:
 * doc/measurements.md: "The masked select gathered in registers (AMD EPYC Zen 5, 2026-12-02)"
 */
static inline void jbigi_masked_select(mp_limb_t *r, const mp_limb_t *table, size_t limbs, size_t count,
                                       size_t index)
{
    size_t k = 0;
    for (; k + 4 <= limbs; k += 4) {
        mp_limb_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (size_t j = 0; j < count; j++) {
            const mp_limb_t mask = jbigi_select_mask(index, j);
            const mp_limb_t *entry = table + j * limbs + k;
            a0 |= entry[0] & mask;
            a1 |= entry[1] & mask;
            a2 |= entry[2] & mask;
            a3 |= entry[3] & mask;
        }
        r[k] = a0;
        r[k + 1] = a1;
        r[k + 2] = a2;
        r[k + 3] = a3;
    }
    for (; k < limbs; k++) {
        mp_limb_t a = 0;
        for (size_t j = 0; j < count; j++)
            a |= table[j * limbs + k] & jbigi_select_mask(index, j);
        r[k] = a;
    }
}

/*
 * x (n limbs) = b^e mod m in constant time: windows of
 * jbigi_ct_window_width bits over the low bits bits of e from the top, each
 * window's entry read with the engine's select (else its select_any, else
 * the masked one above).  The sequence of products, the addresses and the
 * loop counts depend on bits and the engine's sizes alone; e's value
 * reaches only the select's masks.  b: n limbs, < m; e:
 * ceil(bits / GMP_NUMB_BITS) limbs, below 2^bits, any value (e = 0 gives 1
 * mod m); bits >= 1.  The context must have been made for secret values.
 */
JBIGI_DRIVER_INLINE int jbigi_drive_fixed_window(const jbigi_mont_ops *ops, const void *ctx, mp_limb_t *x,
                                                 const mp_limb_t *b, const mp_limb_t *e, size_t bits)
{
    const size_t limbs = ops->elem_limbs(ctx);
    const mp_size_t en = (mp_size_t)((bits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    const unsigned w = jbigi_ct_window_width(bits);
    const size_t entries = (size_t)1 << w;
    jbigi_driver_stack stack;
    mp_limb_t *mem = jbigi_driver_take(ops, ctx, &stack, entries + 2);
    if (mem == NULL)
        return JBIGI_DRIVER_NO_MEMORY;
    mp_limb_t *table = mem, *acc = mem + entries * limbs, *t = acc + limbs;

    /* table[j] = b^j in the domain: the even entries by squaring. */
    ops->one(ctx, table);
    ops->to_mont(ctx, table + limbs, b);
    for (size_t j = 2; j < entries; j++) {
        if (j % 2 == 0)
            ops->sqr(ctx, table + j * limbs, table + j / 2 * limbs);
        else
            ops->mul(ctx, table + j * limbs, table + (j - 1) * limbs, table + limbs);
    }
#define JBIGI_SELECT(dst, index)                                                                           \
    do {                                                                                                   \
        if (ops->select != NULL)                                                                           \
            ops->select(ctx, (dst), table, entries, (index));                                              \
        else if (ops->select_any != NULL)                                                                  \
            ops->select_any(ctx, (dst), table, entries, (index));                                          \
        else if (entries == JBIGI_CT_ENTRIES) /* a constant count: unrolled */                            \
            jbigi_masked_select((dst), table, limbs, JBIGI_CT_ENTRIES, (index));                           \
        else                                                                                               \
            jbigi_masked_select((dst), table, limbs, entries, (index));                                    \
    } while (0)
    size_t pos = (bits - 1) / w * w;
    JBIGI_SELECT(acc, jbigi_window_bits(e, en, pos, w));
    while (pos > 0) {
        pos -= w;
        jbigi_drive_squarings(ops, ctx, acc, acc, w);
        JBIGI_SELECT(t, jbigi_window_bits(e, en, pos, w));
        ops->mul(ctx, acc, acc, t);
    }
#undef JBIGI_SELECT
    ops->from_mont(ctx, x, acc);
    jbigi_driver_give(ops, ctx, &stack, mem, entries + 2);
    return JBIGI_DRIVER_OK;
}

#endif
