/*
 * mpn_mont.h - Montgomery arithmetic on GMP's public mpn functions, as an
 * engine under the drivers (powm_driver.h, comb_driver.h): the fixed-base
 * comb's engine where neither the IFMA nor the MULX/ADX engine takes the
 * size, and the GMP engine's path for the base 2 (registry.c says from which
 * size).  GMP's own mpz_powm is faster for other one-off exponentiations;
 * what this adds is products with the tables' R = 2^(GMP_NUMB_BITS n), and
 * a doubling.  No JNI here.
 *
 * Values are n limbs (the modulus' count), fully reduced, in [0, m).  A
 * product is mpn_mul_n or mpn_sqr (mpn_sec_mul or mpn_sec_sqr for secret
 * values) followed by a reduction of one mpn_addmul_1 row per limb and a
 * last subtraction of m, made under a mask for secret values.
 */
#ifndef JBIGI_MPN_MONT_H
#define JBIGI_MPN_MONT_H

#include <stddef.h>
#include <gmp.h>

#include "engines/powm_driver.h"

/* A modulus prepared for the engine, with the scratch of its products: a
 * context serves one thread at a time. */
typedef struct {
    mp_size_t n;        /* limbs of the modulus and of every value */
    mp_limb_t k0;       /* -m^-1 mod 2^GMP_NUMB_BITS */
    int secret;         /* products side-channel silent, last subtraction masked */
    mp_limb_t *m;       /* the modulus */
    mp_limb_t *rr;      /* R^2 mod m */
    mp_limb_t *one;     /* R mod m: 1 in the domain */
    mp_limb_t *product; /* 2 n limbs: a product being reduced */
    mp_limb_t *spare;   /* n limbs: the masked subtraction's other result */
    mp_limb_t *sec;     /* mpn_sec_mul's and mpn_sec_sqr's scratch, or NULL */
    mp_limb_t *mem;     /* the one allocation behind the arrays */
    size_t mem_limbs;
} jbigi_mpn_ctx;

/*
 * Prepares ctx for m (n >= 1 limbs, odd, top limb non-zero).  secret: the
 * values multiplied are secret.  R^2 mod m and R mod m come from
 * mpn_sec_div_r, so nothing here allocates through GMP.  Returns 0, or -1
 * when memory ran out.  Free with jbigi_mpn_ctx_clear, which wipes.
 */
int jbigi_mpn_ctx_init(jbigi_mpn_ctx *ctx, const mp_limb_t *m, mp_size_t n, int secret);
void jbigi_mpn_ctx_clear(jbigi_mpn_ctx *ctx);

/* The engine as the drivers see it, on a context from jbigi_mpn_ctx_init. */
extern const jbigi_mont_ops jbigi_mpn_mont_ops;

/*
 * r (n limbs) = 2^e mod m on the drivers' base-2 path (jbigi_drive_base2):
 * a squaring per exponent bit and a doubling, no table, no products by the
 * base.  m: n >= 1 limbs, odd, top limb non-zero, m > 2.  fixed_bits 0:
 * variable time, e has en limbs, the top one non-zero.  Else constant
 * time: the time and the addresses depend on fixed_bits and n alone (the
 * low fixed_bits bits of e, every doubling masked, GMP's
 * side-channel-silent products), e any value below 2^fixed_bits.
 * Returns 0, or -1 when memory ran out.
 */
int jbigi_mpn_powm_base2(mp_limb_t *r, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m, mp_size_t n,
                         size_t fixed_bits);

#endif
