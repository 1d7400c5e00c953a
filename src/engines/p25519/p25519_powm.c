/*
 * p25519_powm.c - b^e mod 2^255 - 19 on the field (p25519_field.c) through
 * the shared drivers of powm_driver.h: the sliding window in variable time,
 * the fixed window in constant time.
 *
 * The drivers' domain is the plain residues: to_mont splits a value into
 * words, from_mont reduces fully and packs, one is 1.  Edge cases (b < p,
 * four limbs): b = 0 gives 0 and b = 1 gives 1 through the arithmetic; e =
 * 0 gives 1 on both paths (the variable-time one drops the exponent's zero
 * top limbs first: it is public there).  The drivers' tables come from
 * calloc and are wiped when given back.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "engines/p25519/p25519.h"
#include "platform/platform.h"

/* 2^255 - 19 in 64-bit limbs. */
#define P0 ((mp_limb_t)0xffffffffffffffedULL)
#define PMID (~(mp_limb_t)0)
#define P3 ((mp_limb_t)0x7fffffffffffffffULL)

int jbigi_p25519_is_modulus(const mp_limb_t *m, mp_size_t n)
{
#if JBIGI_P25519_FIELD
    return n == JBIGI_P25519_LIMBS && m[0] == P0 && m[1] == PMID && m[2] == PMID && m[3] == P3;
#else
    (void)m;
    (void)n;
    return 0;
#endif
}

static size_t field_words(const void *ctx)
{
    (void)ctx;
    return JBIGI_P25519_WORDS;
}

static mp_limb_t *field_alloc(const void *ctx, size_t count)
{
    (void)ctx;
    return calloc(count * JBIGI_P25519_WORDS, sizeof(mp_limb_t));
}

static void field_release(const void *ctx, mp_limb_t *p, size_t count)
{
    (void)ctx;
    jbigi_secure_zero(p, count * JBIGI_P25519_WORDS * sizeof(mp_limb_t));
    free(p);
}

static void field_in(const void *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    (void)ctx;
    jbigi_p25519_from_limbs(r, a);
}

static void field_out(const void *ctx, mp_limb_t *x, const mp_limb_t *a)
{
    (void)ctx;
    jbigi_p25519_to_limbs(x, a);
}

static void field_one(const void *ctx, mp_limb_t *r)
{
    (void)ctx;
    r[0] = 1;
    for (int i = 1; i < JBIGI_P25519_WORDS; i++)
        r[i] = 0;
}

static void field_mul(const void *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    (void)ctx;
    jbigi_p25519_mul(r, a, b);
}

static void field_sqr(const void *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    (void)ctx;
    jbigi_p25519_sqr(r, a);
}

/* r = table[index] of count values, all five words of every entry read
 * under a mask and gathered in registers in one pass: the drivers' own
 * select takes four words a pass and the fifth in a second one. */
static void field_select(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, unsigned index)
{
    (void)ctx;
    mp_limb_t h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0;
    for (size_t j = 0; j < count; j++) {
        const mp_limb_t mask = jbigi_select_mask(index, j);
        const mp_limb_t *entry = table + j * JBIGI_P25519_WORDS;
        h0 |= entry[0] & mask;
        h1 |= entry[1] & mask;
        h2 |= entry[2] & mask;
        h3 |= entry[3] & mask;
        h4 |= entry[4] & mask;
    }
    r[0] = h0;
    r[1] = h1;
    r[2] = h2;
    r[3] = h3;
    r[4] = h4;
}

const jbigi_mont_ops jbigi_p25519_mont_ops = {
    .elem_limbs = field_words,
    .alloc = field_alloc,
    .release = field_release,
    .to_mont = field_in,
    .from_mont = field_out,
    .one = field_one,
    .mul = field_mul,
    .sqr = field_sqr,
    .select = field_select,
    .select_any = NULL,
    .double_if = NULL,
};

int jbigi_p25519_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                      mp_size_t n)
{
    if (!jbigi_p25519_is_modulus(m, n))
        return JBIGI_ENGINE_UNSUPPORTED;
    while (en > 0 && e[en - 1] == 0) /* the exponent is public here */
        en--;
    if (en == 0) { /* b^0 = 1 */
        r[0] = 1;
        r[1] = r[2] = r[3] = 0;
        return JBIGI_ENGINE_DONE;
    }
    return jbigi_drive_window(&jbigi_p25519_mont_ops, NULL, r, b, e, en) == JBIGI_DRIVER_OK
               ? JBIGI_ENGINE_DONE
               : JBIGI_ENGINE_NO_MEMORY;
}

int jbigi_p25519_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                          const mp_limb_t *m, mp_size_t n)
{
    if (!jbigi_p25519_is_modulus(m, n))
        return JBIGI_ENGINE_UNSUPPORTED;
    return jbigi_drive_fixed_window(&jbigi_p25519_mont_ops, NULL, r, b, e, ebits) == JBIGI_DRIVER_OK
               ? JBIGI_ENGINE_DONE
               : JBIGI_ENGINE_NO_MEMORY;
}
