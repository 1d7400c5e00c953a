/*
 * jacobi.h - the Jacobi symbol (a/n) for odd n > 0, in variable time: a
 * binary algorithm that decides its steps on 64-bit approximations of the
 * two values and applies them to the whole numbers in batches.  No JNI
 * here: jacobi_jni.c wraps it for Java, modPow's Euler shortcut
 * (euler.c) calls it, and the C tests drive it directly.
 */
#ifndef JBIGI_JACOBI_H
#define JBIGI_JACOBI_H

#include <gmp.h>

/*
 * Above this many limbs in the modulus jbigi_jacobi hands the symbol to
 * GMP's mpz_jacobi, whose subquadratic algorithm wins at such sizes; the
 * binary algorithm below is quadratic.
 */
#define JBIGI_JACOBI_MAX_LIMBS 32

/*
 * (a/n) as -1, 0 or 1, for any a (negative, zero, n or more) and n odd and
 * positive (the caller checks: n even or n <= 0 answers 0).  Variable time:
 * the values are public.  Allocates nothing up to JBIGI_JACOBI_MAX_LIMBS
 * limbs; above, GMP's allocator (run under jbigi_run_guarded).
 */
int jbigi_jacobi(const mpz_t a, const mpz_t n);

/*
 * The binary algorithm itself at any size, for the tests: (a/n) for a >= 0
 * of an limbs (an >= 0, top limb may be 0) and n odd of nn >= 1 limbs,
 * n's top limb not 0.  Working space on the stack up to
 * JBIGI_JACOBI_MAX_LIMBS limbs, else from the C heap; returns 2 if that
 * allocation failed.
 */
int jbigi_jacobi_limbs(const mp_limb_t *ap, mp_size_t an, const mp_limb_t *np, mp_size_t nn);

#endif
