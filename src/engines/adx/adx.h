/*
 * adx.h - Montgomery arithmetic on 64-bit limbs with MULX, ADCX and ADOX
 * (x86-64 with BMI2 and ADX: Intel Broadwell and later, AMD Zen and later).
 * No JNI here.
 *
 * The engine keeps numbers as GMP limbs.  For an n-limb modulus it works on
 * N = n rounded up to a multiple of 4 limbs (the kernels handle four limbs
 * per step), with R = 2^(64 N); the modulus and every value are zero-padded
 * to N limbs.  Values in the Montgomery domain are fully reduced, in
 * [0, m): every product ends with a subtraction of m made under a mask.
 *
 * A product is GMP's (mpn_mul_n and mpn_sqr; for secret values Karatsuba
 * over its side-channel-silent mpn_sec_mul and mpn_sec_sqr, karatsuba.h)
 * followed by the engine's reduction: N rows of q m added with two
 * interleaved carry chains (ADCX for the low halves, ADOX for the high
 * ones).  GMP's own reduction (its
 * generic redc_1, one mpn_addmul_1 per row) is where mpz_powm spends most
 * of its time on the CPUs this engine is for.  For N = 4 (moduli up to 256
 * bits) product and reduction are one block of register-only code, with no
 * call into GMP; it is constant time for every context.
 *
 * Only code reached after jbigi_adx_cpu() returned 1 executes MULX, ADCX or
 * ADOX.  On other architectures everything compiles to stubs that report
 * the engine unavailable.  Every function is reentrant on its own context.
 */
#ifndef JBIGI_ADX_H
#define JBIGI_ADX_H

#include <stddef.h>
#include <gmp.h>

#include "engines/karatsuba.h"
#include "engines/powm_driver.h"
#include "platform/asm.h"

/* 1 where the engine's x86-64 code is built (GCC or clang, 64-bit limbs
 * without nails); elsewhere its functions are stubs never reached. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && GMP_LIMB_BITS == 64 && GMP_NAIL_BITS == 0
#define JBIGI_ADX_CODE 1
#else
#define JBIGI_ADX_CODE 0
#endif

/* The largest modulus, in limbs, the engine handles (8192 bits). */
#define JBIGI_ADX_MAX_LIMBS 128

/*
 * 1 if this CPU has BMI2 and ADX (cpu_facts.h), and this is an x86-64
 * build; 0 otherwise.  A CPU fact: JBIGI_ENGINE and forcing are the
 * registry's.  Every function below that computes requires it.
 */
int jbigi_adx_cpu(void);

/*
 * 1 if the engine may be used: jbigi_adx_cpu(), and its known-answer
 * self-test passed in this process (run on the first question; see
 * jbigi_adx_selftest).  What the per-call engine choice asks.
 */
int jbigi_adx_available(void);

/* The self-test's outcome (engine.h's JBIGI_SELFTEST_NOT_RUN, _PASSED or
 * _FAILED), running it if it has not run yet. */
int jbigi_adx_selftest_result(void);

/*
 * The known-answer self-test (adx_selftest.c): for every shape of the
 * engine's code (the four-limb kernels, the eight-row and the row-by-row
 * reduction, the secret products' Karatsuba splits), a short exponentiation
 * on the Montgomery layer with public and with secret products, a doubling,
 * and the table select, against GMP's mpn functions (no GMP allocation).
 * Requires jbigi_adx_cpu().  Returns 0 when every result matched, the limb
 * count of the first mismatch, or -1 when memory ran out (nothing is known
 * then).  corrupt: flip a bit of each engine result before comparing (for
 * the tests, and the environment variable JBIGI_ADX_SELFTEST_FAULT=1: the
 * check must catch it).
 */
int jbigi_adx_selftest(int corrupt);

/* The products' scratch in a context, in limbs: the product, the
 * reduction's carries, Karatsuba's scratch (karatsuba.h, GMP's own scratch
 * included).  Sized where the context is (jbigi_adx_ctx_init). */
#define JBIGI_ADX_WORK_LIMBS(N) (3 * (size_t)(N) + jbigi_karatsuba_scratch(N))

/* A modulus prepared for the engine.  Only the work area changes once it
 * is initialised: a context serves one thread at a time (each
 * exponentiation makes its own). */
typedef struct {
    mp_size_t n;       /* limbs of the modulus */
    mp_size_t N;       /* n rounded up to a multiple of 4: the length of every value */
    mp_limb_t k0;      /* -m^-1 mod 2^64 */
    mp_limb_t k1;      /* -m^-1 mod 2^128 is k1:k0 */
    int secret;        /* products take the side-channel-silent forms */
    mp_limb_t *m;      /* the modulus, N limbs */
    mp_limb_t *rr;     /* R^2 mod m, N limbs */
    mp_limb_t *one;    /* R mod m, N limbs: 1 in the domain (N > 4; jbigi_adx_one) */
    mp_limb_t *work;   /* the products' scratch, JBIGI_ADX_WORK_LIMBS(N) */
    mp_limb_t *mem;    /* the one allocation behind the arrays */
    mp_limb_t mk4[6];  /* N = 4: m, k0, k1 (adx_mont4.c) */
    size_t mem_limbs;
    int mem_is_callers; /* mem is the caller's buffer (jbigi_adx_ctx_init_in): wiped, not freed */
    int divide_to_mont; /* JBIGI_ADX_DIVIDE_TO_MONT took: rr is not made */
} jbigi_adx_ctx;

/* Flags of jbigi_adx_ctx_init. */
/* The values multiplied are secret, and so is the modulus. */
#define JBIGI_ADX_SECRET 1
/* With JBIGI_ADX_SECRET: the modulus is public after all (a fixed-base
 * table's), so R^2 mod m may come from the quicker division. */
#define JBIGI_ADX_PUBLIC_MODULUS 2
/* Public values, four limbs (N = 4): no R^2 mod m; to_mont divides a R by
 * m instead.  A sliding window converts one value, so this makes its setup
 * one division, as mpz_powm's is, instead of R^2's and a product, and no
 * memory.  Such a context has no work area: no double_if. */
#define JBIGI_ADX_DIVIDE_TO_MONT 4

/*
 * Prepares ctx for m (n limbs, odd, top limb non-zero, 1 <= n <=
 * JBIGI_ADX_MAX_LIMBS).  flags: JBIGI_ADX_SECRET makes the products
 * side-channel silent and computes R^2 mod m by mpn_sec_div_r, unless
 * JBIGI_ADX_PUBLIC_MODULUS says m is public.  Returns 0, or -1 when memory
 * ran out.  Free with jbigi_adx_ctx_clear, which wipes.
 */
int jbigi_adx_ctx_init(jbigi_adx_ctx *ctx, const mp_limb_t *m, mp_size_t n, int flags);
void jbigi_adx_ctx_clear(jbigi_adx_ctx *ctx);

/*
 * The same, with the arrays in the caller's buffer of buffer_limbs limbs
 * when they fit (else allocated as above); the buffer must outlive the
 * context.  An exponentiation of one call keeps its context on its own
 * stack: at four limbs an allocation and its free cost as much as the
 * rest of the setup.  JBIGI_ADX_CTX_STACK_LIMBS covers N = 4 and 8.
 */
#define JBIGI_ADX_CTX_STACK_LIMBS 256
int jbigi_adx_ctx_init_in(jbigi_adx_ctx *ctx, const mp_limb_t *m, mp_size_t n, int flags, mp_limb_t *buffer,
                          size_t buffer_limbs);

/* r = a R mod m for a (n limbs) < m; r has N limbs. */
void jbigi_adx_to_mont(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a);
/* r (N limbs) = R mod m, 1 in the domain. */
void jbigi_adx_one(const jbigi_adx_ctx *ctx, mp_limb_t *r);
/* x (n limbs) = a / R mod m for a in [0, m). */
void jbigi_adx_from_mont(const jbigi_adx_ctx *ctx, mp_limb_t *x, const mp_limb_t *a);

/*
 * r = a b / R mod m and r = a a / R mod m for a, b in [0, m); r in [0, m).
 * r may alias a or b.  With ctx->secret, time and addresses depend on N
 * alone.
 */
void jbigi_adx_mul(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b);
void jbigi_adx_sqr(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a);
/* a = 2 a mod m (in the domain as out of it) when bit is 1, unchanged
 * when 0, for a in [0, m).  With ctx->secret, the same work for either bit. */
void jbigi_adx_double_if(const jbigi_adx_ctx *ctx, mp_limb_t *a, mp_limb_t bit);

/* Return codes of the exponentiations. */
#define JBIGI_ADX_NO_MEMORY 1
#define JBIGI_ADX_UNSUPPORTED 2

/*
 * r = b^e mod m, variable time (powm_driver.h's sliding window).  m: n limbs,
 * odd, top limb non-zero, n <= JBIGI_ADX_MAX_LIMBS; b: n limbs, b < m; e: en
 * >= 1 limbs (leading zero limbs allowed; e = 0 gives 1 mod m).  r: n
 * limbs, exactly mpz_powm's value; r may alias b.  Returns 0, or a code.
 */
int jbigi_adx_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                   mp_size_t n);

/*
 * The same in constant time: e has en >= 1 limbs (any value, leading zero
 * limbs allowed, fewer or more than n); time and addresses depend on n and
 * en alone (powm_driver.h's fixed window over all 64 en bits, every entry
 * read under a mask).  All scratch is wiped.
 */
int jbigi_adx_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                       mp_size_t n);

/* The same over the low ebits >= 1 bits of e (ceil(ebits / 64) limbs,
 * below 2^ebits): time and addresses follow n and ebits; jbigi_adx_powm_sec
 * is this with ebits = 64 en. */
int jbigi_adx_powm_sec_bits(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                            const mp_limb_t *m, mp_size_t n);

/*
 * The engine as the drivers see it (powm_driver.h, comb_driver.h), on a
 * context from jbigi_adx_ctx_init: values of N limbs; to_mont takes n limbs.
 */
extern const jbigi_mont_ops jbigi_adx_mont_ops;

/*
 * The reduction alone, for the tests: r (N limbs) = u / R mod m for u (2 N
 * limbs, destroyed) below m R.
 */
void jbigi_adx_redc(const jbigi_adx_ctx *ctx, mp_limb_t *r, mp_limb_t *u);

/*
 * The four-limb kernels (adx_mont4.c; x86-64 only): r = a b / 2^256 mod m
 * and r = a a / 2^256 mod m for a, b in [0, m); r in [0, m), may alias a
 * or b; constant time.  mk is the context's mk4.
 */
void jbigi_adx_mul4(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, const mp_limb_t *mk) JBIGI_ASM_CALL;
void jbigi_adx_sqr4(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *mk) JBIGI_ASM_CALL;
/* count >= 1 squarings: r = a^(2^count) / R^(2^count - 1) mod m, in one
 * call (the drivers' runs of squarings), constant time for a given count. */
void jbigi_adx_sqr4_times(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *mk, size_t count) JBIGI_ASM_CALL;
/* The same squarings, then the product by b (the sliding window's step):
 * r = a^(2^count) b / R^(2^count) mod m, b in [0, m), which may alias a
 * or r (it is read after a, and r is written last). */
void jbigi_adx_sqr4_times_mul(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *mk, size_t count,
                              const mp_limb_t *b) JBIGI_ASM_CALL;

/* The engine's select_any (adx_select.c): r = table[index] of count
 * values of N limbs at any address, every entry read in full. */
void jbigi_adx_select(const void *ctx, mp_limb_t *r, const mp_limb_t *table, size_t count, size_t index);

#endif
