/*
 * comb_driver.h - the fixed-base comb, written once for every Montgomery
 * engine (powm_driver.h's jbigi_mont_ops): filling a table of powers of a
 * base, and raising the base to an exponent from it.  fixedbase.c keeps
 * the table's format, its checks and the choice of engine; the comb's
 * maths is described there.  No JNI here.
 *
 * The table's entries may lie anywhere (a Java buffer): the drivers never
 * hand an entry to the engine, they copy it into a value from the engine's
 * own allocator first, and copy results out the same way.  A copy is a few
 * nanoseconds against a product's microsecond, and it keeps every engine's
 * alignment needs (the IFMA engine's 64 bytes) inside the engine.
 */
#ifndef JBIGI_COMB_DRIVER_H
#define JBIGI_COMB_DRIVER_H

#include "powm_driver.h"

/* A comb's shape, and its entries: blocks x 2^rows values of the engine's
 * elem_limbs limbs, G[s][j] at (s 2^rows + j) values from the start. */
typedef struct {
    unsigned rows, blocks;
    size_t block_bits; /* b: the exponent bits a block covers in one row */
    size_t row_bits;   /* a = blocks * b: the exponent bits of one row */
    mp_limb_t *entries;
} jbigi_comb;

static inline mp_limb_t *jbigi_comb_entry(const jbigi_comb *k, unsigned block, size_t index, size_t limbs)
{
    return k->entries + (((size_t)block << k->rows) + index) * limbs;
}

/* The column of block s at offset t: one exponent bit per row.  e holds
 * every bit of the comb's reach (rows * row_bits).  Which limbs are read
 * depends on s and t alone. */
static inline size_t jbigi_comb_column(const jbigi_comb *k, const mp_limb_t *e, unsigned s, size_t t)
{
    size_t index = 0;
    size_t pos = (size_t)s * k->block_bits + t;
    for (unsigned row = 0; row < k->rows; row++, pos += k->row_bits)
        index |= (size_t)jbigi_exponent_bit(e, pos) << row;
    return index;
}

/*
 * Fills the comb's entries for base (the modulus' n limbs, < m):
 * G[s][0] = 1, G[s][2^r] = base^(2^((r blocks + s) block_bits)), each power
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
    for (unsigned row = 0; row < k->rows; row++) {
        for (unsigned s = 0; s < k->blocks; s++) {
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
 * x (the modulus' n limbs) = base^e mod m from the comb's entries.  e: every
 * limb of the comb's reach, zero above the exponent.
 *
 * constant_time: every digit multiplies (a zero digit by G[s][0] = 1), each
 * entry is read with the engine's select_any (or the driver's masked one)
 * over all 2^rows entries of its block, and the context was made for
 * secret values: the products, addresses and loop counts follow the comb's
 * shape alone.  Otherwise zero digits are skipped.
 */
JBIGI_DRIVER_INLINE int jbigi_drive_comb(const jbigi_mont_ops *ops, const void *ctx, const jbigi_comb *k,
                                         mp_limb_t *x, const mp_limb_t *e, int constant_time)
{
    const size_t limbs = ops->elem_limbs(ctx), bytes = limbs * sizeof(mp_limb_t);
    const size_t per_block = (size_t)1 << k->rows;
    mp_limb_t *mem = ops->alloc(ctx, 2);
    if (mem == NULL)
        return JBIGI_DRIVER_NO_MEMORY;
    mp_limb_t *acc = mem, *selected = mem + limbs;

    ops->one(ctx, acc);
    int started = constant_time; /* before that, acc is 1 and needs no squaring */
    for (size_t t = k->block_bits; t-- > 0;) {
        if (started && t + 1 != k->block_bits)
            ops->sqr(ctx, acc, acc);
        for (unsigned s = k->blocks; s-- > 0;) {
            const size_t index = jbigi_comb_column(k, e, s, t);
            const mp_limb_t *block = jbigi_comb_entry(k, s, 0, limbs);
            if (constant_time) {
                if (ops->select_any != NULL)
                    ops->select_any(ctx, selected, block, per_block, index);
                else
                    jbigi_masked_select(selected, block, limbs, per_block, index);
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
