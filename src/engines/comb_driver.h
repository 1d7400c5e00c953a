/*
 * comb_driver.h - the fixed-base comb, written once for every Montgomery
 * engine (powm_driver.h's jbigi_mont_ops): filling a table of powers of a
 * base, and raising the base to an exponent from it.  fixedbase.c keeps
 * the table's format, its checks and the choice of engine; the comb's
 * maths is described there.  No JNI here.
 *
 * The table's entries may lie anywhere (a Java buffer): the drivers never
 * hand an entry to the engine, they copy it into a value from the engine's
 * own allocator first, and copy results out the same way.  A copy of n
 * limbs costs little beside a product's n^2 work, and it keeps every
 * engine's alignment needs (the IFMA engine's 64 bytes) inside the engine.
 */
#ifndef JBIGI_COMB_DRIVER_H
#define JBIGI_COMB_DRIVER_H

#include "engines/powm_driver.h"

/* A comb's shape, and its entries: blocks x 2^rows values of the engine's
 * elem_limbs limbs, G[s][j] at (s 2^rows + j) values from the start.
 *
 * Exponent bit s span + r b + t (block s, row r, offset t < b, span =
 * rows b) is row r's bit of block s's column t: a block covers span
 * consecutive bits, from the bottom, so an exponent shorter than the reach
 * (blocks span) needs only the lower blocks, and in the top one only the
 * lower rows, whatever its value. */
typedef struct {
    unsigned rows, blocks;
    size_t block_bits; /* b: the offsets t of a column */
    size_t span;       /* rows * b: the exponent bits of one block */
    mp_limb_t *entries;
} jbigi_comb;

static inline mp_limb_t *jbigi_comb_entry(const jbigi_comb *k, unsigned block, size_t index, size_t limbs)
{
    return k->entries + (((size_t)block << k->rows) + index) * limbs;
}

/* The column of block s at offset t over its first rows rows: one exponent
 * bit per row, from e's bits below ebits (zero above).  Which limbs are
 * read depends on s, t, rows and ebits alone. */
static inline size_t jbigi_comb_column(const jbigi_comb *k, const mp_limb_t *e, size_t ebits, unsigned s, size_t t,
                                       unsigned rows)
{
    size_t index = 0;
    size_t pos = (size_t)s * k->span + t;
    for (unsigned row = 0; row < rows; row++, pos += k->block_bits)
        if (pos < ebits) /* public: positions and the exponent's width */
            index |= (size_t)jbigi_exponent_bit(e, pos) << row;
    return index;
}

/*
 * Fills the comb's entries for base (the modulus' n limbs, < m):
 * G[s][0] = 1, G[s][2^r] = base^(2^(s span + r block_bits)), each power
 * block_bits squarings after the one before; then G[s][j] = G[s][j - top]
 * G[s][top] for the other j, top the highest bit of j.  Variable time: the
 * base of a table is public.  Returns a JBIGI_DRIVER_* code.
 */
JBIGI_DRIVER_INLINE int jbigi_drive_comb_build(const jbigi_mont_ops *ops, const void *ctx, const jbigi_comb *k,
                                               const mp_limb_t *base)
{
    const size_t limbs = ops->elem_limbs(ctx), bytes = limbs * sizeof(mp_limb_t);
    mp_limb_t *mem = ops->alloc(ctx, 2);
    if (mem == NULL)
        return JBIGI_DRIVER_NO_MEMORY;
    mp_limb_t *power = mem, *other = mem + limbs;

    ops->one(ctx, other);
    for (unsigned s = 0; s < k->blocks; s++)
        memcpy(jbigi_comb_entry(k, s, 0, limbs), other, bytes);
    ops->to_mont(ctx, power, base);
    for (unsigned s = 0; s < k->blocks; s++) {
        for (unsigned row = 0; row < k->rows; row++) {
            if (row > 0 || s > 0)
                for (size_t i = 0; i < k->block_bits; i++)
                    ops->sqr(ctx, power, power);
            memcpy(jbigi_comb_entry(k, s, (size_t)1 << row, limbs), power, bytes);
        }
    }
    for (unsigned s = 0; s < k->blocks; s++) {
        for (size_t j = 3; j < ((size_t)1 << k->rows); j++) {
            const size_t top = (size_t)1 << (63 - __builtin_clzll((unsigned long long)j));
            if (top == j)
                continue;
            memcpy(power, jbigi_comb_entry(k, s, j - top, limbs), bytes);
            memcpy(other, jbigi_comb_entry(k, s, top, limbs), bytes);
            ops->mul(ctx, power, power, other);
            memcpy(jbigi_comb_entry(k, s, j, limbs), power, bytes);
        }
    }
    ops->release(ctx, mem, 2);
    return JBIGI_DRIVER_OK;
}

/*
 * x (the modulus' n limbs) = base^e mod m from the comb's entries, e of en
 * limbs (en >= 0; bits at or above the reach, blocks span, must be zero).
 * Only the comb's steps that bits below min(64 en, reach) reach run: the
 * blocks that cover them, in each the rows that do (a select over the
 * first 2^rows' entries of the block, which are the products of those
 * rows' powers), and the offsets t below that width.  Which steps run
 * follows en and the comb's shape alone.
 *
 * constant_time: every digit of those steps multiplies (a zero digit by
 * G[s][0] = 1), each entry is read with the engine's select_any (or the
 * driver's masked one) over all the entries of its rows, and the context
 * was made for secret values: the products, addresses and loop counts
 * follow the comb's shape and en alone.  Otherwise zero digits are skipped.
 */
JBIGI_DRIVER_INLINE int jbigi_drive_comb(const jbigi_mont_ops *ops, const void *ctx, const jbigi_comb *k,
                                         mp_limb_t *x, const mp_limb_t *e, mp_size_t en, int constant_time)
{
    const size_t limbs = ops->elem_limbs(ctx), bytes = limbs * sizeof(mp_limb_t);
    const size_t reach = k->span * k->blocks;
    size_t ebits = (size_t)en * GMP_NUMB_BITS;
    if (ebits > reach)
        ebits = reach;
    /* The blocks that hold bits below ebits, and the offsets t that do. */
    const unsigned blocks = (unsigned)((ebits + k->span - 1) / k->span);
    const size_t top_t = ebits < k->block_bits ? ebits : k->block_bits;
    mp_limb_t *mem = ops->alloc(ctx, 2);
    if (mem == NULL)
        return JBIGI_DRIVER_NO_MEMORY;
    mp_limb_t *acc = mem, *selected = mem + limbs;

    ops->one(ctx, acc);
    int started = constant_time; /* before that, acc is 1 and needs no squaring */
    for (size_t t = top_t; t-- > 0;) {
        if (started && t + 1 != top_t)
            ops->sqr(ctx, acc, acc);
        for (unsigned s = blocks; s-- > 0;) {
            /* Rows of block s with a bit below ebits: all but in the top block. */
            const size_t below = ebits - (size_t)s * k->span;
            const unsigned rows = below >= k->span ? k->rows : (unsigned)((below + k->block_bits - 1) / k->block_bits);
            const size_t index = jbigi_comb_column(k, e, ebits, s, t, rows);
            const mp_limb_t *block = jbigi_comb_entry(k, s, 0, limbs);
            if (constant_time) {
                const size_t count = (size_t)1 << rows;
                if (ops->select_any != NULL)
                    ops->select_any(ctx, selected, block, count, index);
                else
                    jbigi_masked_select(selected, block, limbs, count, index);
                ops->mul(ctx, acc, acc, selected);
            } else if (index != 0) {
                memcpy(started ? selected : acc, block + index * limbs, bytes);
                if (started)
                    ops->mul(ctx, acc, acc, selected);
                started = 1;
            }
        }
    }
    ops->from_mont(ctx, x, acc);
    ops->release(ctx, mem, 2);
    return JBIGI_DRIVER_OK;
}

#endif
