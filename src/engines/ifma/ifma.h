/*
 * ifma.h - modular exponentiation on AVX-512 IFMA (vpmadd52luq/vpmadd52huq):
 * Montgomery arithmetic on radix-2^52 digits.  No JNI here.
 *
 * Numbers in the engine's domain are arrays of 52-bit digits, one per 64-bit
 * word, least significant first, padded with zero digits to a whole number of
 * 512-bit registers (8 digits) and aligned to 64 bytes.  For an n-limb modulus
 * m the engine uses N = ceil((64 n + 2) / 52) digits (made even up to 56, 7
 * registers, where the reduction runs two digits behind) and R = 2^(52 N).
 * 52 N and 64 n are both multiples of 4, so 52 N >= 64 n + 2 makes 52 N >=
 * 64 n + 4 and 16 m < R (jbigi_ifma_ctx_init checks it and refuses a size
 * where it fails).  4 m < R is what the "almost Montgomery" product needs:
 * a b / R mod m then needs no final subtraction to stay below 2 m when both
 * inputs are below 2 m, and only the conversion out of the domain subtracts
 * (masked, in the constant-time path).  16 m < R is what jbigi_ifma_double_if
 * needs: a doubled value may reach 4 m, and still squares into [0, 2 m).
 *
 * Only code reached after jbigi_ifma_available() returned 1 executes AVX-512
 * instructions: the files are compiled with plain flags and the vector code
 * carries function target attributes.  On other architectures everything
 * compiles to stubs that report the engine unavailable.
 *
 * Every function is reentrant; the only global state is the CPU flag,
 * computed once.  Return codes: 0 success, JBIGI_IFMA_NO_MEMORY when an
 * allocation failed, JBIGI_IFMA_UNSUPPORTED when the engine cannot run here
 * or does not handle the size.
 */
#ifndef JBIGI_IFMA_H
#define JBIGI_IFMA_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "engines/powm_driver.h"

#define JBIGI_IFMA_NO_MEMORY 1
#define JBIGI_IFMA_UNSUPPORTED 2

/* The largest modulus, in 64-bit limbs, the engine handles (8192 bits). */
#define JBIGI_IFMA_MAX_LIMBS 128

/*
 * 1 if this CPU and OS can execute the engine: the CPU facts (cpu_facts.h)
 * show AVX512F, AVX512IFMA, AVX512VL, AVX512BW and BMI2, the OS saving the
 * opmask and ZMM state.  0 otherwise.  A CPU fact: JBIGI_ENGINE and forcing
 * are the registry's.  In test builds with JBIGI_IFMA_MODEL, 1 on any CPU:
 * the model executes the instructions.  The functions below that compute
 * (ctx_init, powm, powm_sec) require it.
 */
int jbigi_ifma_cpu(void);

/*
 * 1 if the engine may be used: jbigi_ifma_cpu(), and the known-answer
 * self-test passed in this process (run on the first call; see
 * jbigi_ifma_selftest).  What the per-call engine choice asks.
 */
int jbigi_ifma_available(void);

/* The self-test's outcome, running it if it has not run yet. */
#define JBIGI_IFMA_SELFTEST_NOT_RUN 0 /* the CPU cannot run the engine, or memory ran out */
#define JBIGI_IFMA_SELFTEST_PASSED 1
#define JBIGI_IFMA_SELFTEST_FAILED 2 /* the engine is off for the process */
int jbigi_ifma_selftest_result(void);

/*
 * The known-answer self-test (ifma_selftest.c): for every kernel shape (each
 * register count, and from 8 registers each parity of the digit count), a
 * short exponentiation on the Montgomery layer, with and without the
 * constant-time flags, and for the smallest shapes the whole constant-time
 * exponentiation, against GMP's mpn functions (no GMP allocation: scratch
 * on the stack or from calloc).  Requires jbigi_ifma_cpu().  Returns 0 when every result
 * matched, the limb count of the first mismatch, or -1 when memory ran out
 * (nothing is known then).  corrupt: flip a bit of each
 * engine result before comparing (for the tests, and the environment
 * variable JBIGI_IFMA_SELFTEST_FAULT=1: the check must catch it).
 */
int jbigi_ifma_selftest(int corrupt);

/*
 * r = b^e mod m, variable time (sliding window).  m: n limbs, odd, top limb
 * non-zero, n <= JBIGI_IFMA_MAX_LIMBS; b: n limbs, b < m; e: en >= 1 limbs
 * (leading zero limbs allowed; e = 0 gives 1).  r: n limbs, fully reduced,
 * exactly mpz_powm's value.  r may alias b.
 */
int jbigi_ifma_powm(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                    const mp_limb_t *m, mp_size_t n);

/*
 * r = b^e mod m in constant time: the same arguments, e of en >= 1 limbs
 * (any value, leading zero limbs allowed, fewer or more than n), and the
 * time and memory addresses depend on n and en alone, not on b's, e's or
 * m's value.  Fixed window (powm_driver.h: 4 or 5 bits, from en) over all
 * 64 en exponent bits, every table entry read under a mask for each window,
 * masked final subtraction.  All scratch is wiped before it is freed.
 */
int jbigi_ifma_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en,
                        const mp_limb_t *m, mp_size_t n);

/* The same over the low ebits >= 1 bits of e (ceil(ebits / 64) limbs,
 * below 2^ebits): time and addresses follow n and ebits;
 * jbigi_ifma_powm_sec is this with ebits = 64 en. */
int jbigi_ifma_powm_sec_bits(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, size_t ebits,
                             const mp_limb_t *m, mp_size_t n);

/* ---- The Montgomery layer, for callers with their own exponentiation ---- */

/*
 * A modulus prepared for the engine.  Read-only once initialised, so one
 * context may serve any number of threads.  Fields are for reading only.
 */
typedef struct {
    mp_size_t n;        /* limbs of the modulus */
    int digits;         /* N: 52-bit digits of a number, R = 2^(52 N) */
    int words;          /* digits rounded up to a multiple of 8: length of every digit array */
    uint64_t k0;        /* -m^-1 mod 2^52 */
    uint64_t *m;        /* the modulus in digits (words, 64-byte aligned) */
    uint64_t *rr;       /* R^2 mod m in digits */
    mp_limb_t *m_limbs; /* a copy of the modulus in limbs */
    int secret_values;  /* JBIGI_IFMA_SECRET_VALUES was given */
    void *mem;          /* the one allocation behind the arrays */
    size_t mem_size;
} jbigi_ifma_ctx;

/* What ctx_init's flags say is secret. */
/* The modulus: R^2 mod m by GMP's side-channel-silent division
 * (mpn_sec_div_r). */
#define JBIGI_IFMA_SECRET_MODULUS 1
/* The numbers multiplied: mul and sqr take no branch on them.  Without it,
 * a product stores its result as soon as no digit carries into the next,
 * which is all but always, and otherwise takes the branch-free way. */
#define JBIGI_IFMA_SECRET_VALUES 2
#define JBIGI_IFMA_CONSTANT_TIME (JBIGI_IFMA_SECRET_MODULUS | JBIGI_IFMA_SECRET_VALUES)

/*
 * Prepares ctx for the modulus m (n limbs, odd, top limb non-zero,
 * n <= JBIGI_IFMA_MAX_LIMBS), with flags from the JBIGI_IFMA_SECRET_*
 * above (0: nothing secret, for the variable-time paths).
 * Requires jbigi_ifma_cpu().  Free with jbigi_ifma_ctx_clear.
 */
int jbigi_ifma_ctx_init(jbigi_ifma_ctx *ctx, const mp_limb_t *m, mp_size_t n, int flags);

/* N, the digits of a number for an n-limb modulus (ctx->digits); the
 * kernels are specialised by (N + 7) / 8 registers and, from 8 registers,
 * by N's parity. */
int jbigi_ifma_digits(mp_size_t n);

/* 1 if N digits leave the headroom the engine needs for an n-limb modulus,
 * 52 N >= 64 n + 4 (so 16 m < R, see above); 0 if not.  jbigi_ifma_ctx_init
 * refuses (JBIGI_IFMA_UNSUPPORTED) a size whose digit count fails it. */
int jbigi_ifma_headroom_ok(mp_size_t n, int digits);

/* Wipes and frees what ctx_init allocated. */
void jbigi_ifma_ctx_clear(jbigi_ifma_ctx *ctx);

/*
 * A digit array for ctx (ctx->words words, 64-byte aligned, zeroed), or NULL;
 * count arrays at once.  Free with jbigi_ifma_free(p, ctx, count), which wipes.
 */
uint64_t *jbigi_ifma_alloc(const jbigi_ifma_ctx *ctx, size_t count);
void jbigi_ifma_free(uint64_t *p, const jbigi_ifma_ctx *ctx, size_t count);

/* GMP limbs <-> 52-bit digits.  to_digits writes words digits (zero above x). */
void jbigi_ifma_to_digits(uint64_t *d, int words, const mp_limb_t *x, mp_size_t n);
/* from_digits writes n limbs from a normalised digit array of at least
 * ceil(64 n / 52) digits; bits above 64 n are dropped. */
void jbigi_ifma_from_digits(mp_limb_t *x, mp_size_t n, const uint64_t *d);

/*
 * Montgomery form.  to_mont: r = a R mod m for a (n limbs) < m; the result is
 * in [0, 2 m).  from_mont: x = a / R mod m fully reduced into [0, m), n limbs,
 * for any a in [0, 2 m); masked subtraction, constant time.
 */
void jbigi_ifma_to_mont(const jbigi_ifma_ctx *ctx, uint64_t *r, const mp_limb_t *a);
void jbigi_ifma_from_mont(const jbigi_ifma_ctx *ctx, mp_limb_t *x, const uint64_t *a);

/*
 * r = a b / R mod m and r = a a / R mod m, for a, b in [0, 2 m); r in [0, 2 m),
 * normalised digits.  r may alias a or b.  Constant time.
 */
void jbigi_ifma_mul(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b);
void jbigi_ifma_sqr(const jbigi_ifma_ctx *ctx, uint64_t *r, const uint64_t *a);

/*
 * a = 2 a when bit is 1, unchanged when it is 0, the same work either way
 * (bit may be secret), for a in [0, 2 m) from a product.  The result may
 * reach 4 m and is meant for a squaring or for from_mont, which bring any
 * value below 4 m back into [0, 2 m): 52 N and 64 n are both multiples of
 * 4 and 52 N >= 64 n + 2, so 52 N >= 64 n + 4 and 16 m < R, whence
 * (a a + q m) / R < (16 m^2 + R m) / R < 2 m.
 */
void jbigi_ifma_double_if(const jbigi_ifma_ctx *ctx, uint64_t *a, uint64_t bit);

/*
 * The engine as the drivers see it (powm_driver.h, comb_driver.h), on a
 * context from jbigi_ifma_ctx_init: values are digit arrays of ctx->words
 * words, 64-byte aligned (from jbigi_ifma_alloc); to_mont takes n limbs.
 */
extern const jbigi_mont_ops jbigi_ifma_mont_ops;

/*
 * For the tests: how mul and sqr store their result.  x: words digits
 * (64-byte aligned, words a multiple of 8 up to 160), each below 2^62,
 * whose value is below 2^(52 words); r gets the value in 52-bit digits.
 * secret: as JBIGI_IFMA_SECRET_VALUES.  Requires jbigi_ifma_cpu().
 */
void jbigi_ifma_normalize(uint64_t *r, const uint64_t *x, int words, int secret);

#endif
