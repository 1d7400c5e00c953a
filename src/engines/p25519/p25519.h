/*
 * p25519.h - arithmetic mod p = 2^255 - 19 by the modulus' form, in plain C
 * (no assembly, no CPU feature): the special-form engine.  No JNI here.
 *
 * Data.  A field element is five 64-bit words h0..h4 standing for
 * h0 + h1 2^51 + h2 2^102 + h3 2^153 + h4 2^204 (radix 2^51), least
 * significant first.  The words of every value the operations take and
 * give are below 2^52 (products leave four of them below 2^51 and the
 * second a little above); the value is not reduced: it lies anywhere in
 * [0, 2^260) and stands for itself mod p.  Only jbigi_p25519_to_limbs
 * reduces fully, to the canonical value in [0, p), in constant time.
 *
 * Products.  Each word of a times each of b, 25 products of 128 bits;
 * since 2^255 = 19 mod p, a product's part at 2^255 and above folds down
 * multiplied by 19 (the factor is taken on b's words before multiplying).
 * The five sums are then carried down to 51 bits a word, the carry out of
 * the top word coming back into the bottom one times 19.  The square takes
 * each cross product once, doubled.  Every operation runs the same
 * instructions whatever the values (no branch, no index on them).
 *
 * There is no Montgomery form: the engine's domain (jbigi_p25519_mont_ops,
 * powm_driver.h) is the plain residues, so entering it only splits limbs
 * and "one" is 1.
 *
 * The field needs 64-bit limbs and a 128-bit product (unsigned __int128):
 * JBIGI_P25519_FIELD is 1 where the compiler has both (x86-64 on Linux and
 * Windows, aarch64), else 0 and the engine is never available (32-bit ARM).
 */
#ifndef JBIGI_P25519_H
#define JBIGI_P25519_H

#include <stddef.h>
#include <gmp.h>

#include "engines/powm_driver.h"

#if defined(__SIZEOF_INT128__) && GMP_LIMB_BITS == 64 && GMP_NAIL_BITS == 0
#define JBIGI_P25519_FIELD 1
#else
#define JBIGI_P25519_FIELD 0
#endif

/* Words of a field element. */
#define JBIGI_P25519_WORDS 5
/* Limbs of the modulus (and of values outside the field) where
 * JBIGI_P25519_FIELD is 1. */
#define JBIGI_P25519_LIMBS 4

/* 1 if m (n limbs) is 2^255 - 19 and the field is built here. */
int jbigi_p25519_is_modulus(const mp_limb_t *m, mp_size_t n);

/* ---- the field (p25519_field.c); words as above ---- */

/* h = a, for a of four limbs below 2^255 (any value below p is). */
void jbigi_p25519_from_limbs(mp_limb_t *h, const mp_limb_t *a);
/* x (four limbs) = h mod p, fully reduced, in constant time. */
void jbigi_p25519_to_limbs(mp_limb_t *x, const mp_limb_t *h);
/* h = a b mod p and h = a^2 mod p (not fully reduced); h may alias a or b. */
void jbigi_p25519_mul(mp_limb_t *h, const mp_limb_t *a, const mp_limb_t *b);
void jbigi_p25519_sqr(mp_limb_t *h, const mp_limb_t *a);

/* ---- the powers (p25519_powm.c) ---- */

/* The drivers' operations on the field; the context is unused (NULL
 * allowed). */
extern const jbigi_mont_ops jbigi_p25519_mont_ops;

/*
 * r = b^e mod p (four limbs), b (four limbs) below p, e of en limbs (zero
 * top limbs allowed; e = 0 gives 1), m = p (the caller checked: jbigi_p25519_is_modulus),
 * n = 4: the drivers' sliding window.  engine.h's jbigi_limb_powm; a
 * JBIGI_ENGINE_* code.
 */
int jbigi_p25519_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                      mp_size_t n);
/* The same in constant time over the low ebits bits of e (any value below
 * 2^ebits): the drivers' fixed window, every entry read under a mask.
 * engine.h's jbigi_limb_powm_sec. */
int jbigi_p25519_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                          const mp_limb_t *m, mp_size_t n);

/* ---- the self-test (p25519_selftest.c) ---- */

/* 1 if the field is built here and its known-answer self-test passed
 * (run once per process, on the first ask). */
int jbigi_p25519_available(void);
/* The self-test's outcome (engine.h's JBIGI_SELFTEST_*), running it first
 * if it has not run. */
int jbigi_p25519_selftest_result(void);
/* The test itself, for the C tests: 0 when every result matched GMP's, >
 * 0 for a mismatch, < 0 out of memory; corrupt = 1 spoils one answer. */
int jbigi_p25519_selftest(int corrupt);

#endif
