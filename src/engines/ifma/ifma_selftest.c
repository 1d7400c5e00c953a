/*
 * ifma_selftest.c - the IFMA engine's known-answer self-test, run once per
 * process before the engine is first chosen (ifma_cpu.c).
 *
 * The engine's kernels are specialised by shape: the number K of 512-bit
 * registers a number takes (1 to 20) and, from 8 registers up, whether the
 * digit count N is odd (the last digit then takes a step of its own).  A
 * compiler, a CPU erratum or a hypervisor that loses vector state could
 * break one shape and leave the others right, so every shape computes one
 * short power here, once with the variable-time product and once with the
 * constant-time one (the two ways a product stores its result), and each
 * result is compared with GMP's plain multiplication and division on the
 * same numbers (mpn_sec_powm for the whole exponentiation below).  Up to
 * SELFTEST_POWM_SEC_LIMBS limbs the whole constant-time exponentiation runs
 * too, for its table select and fixed window.
 *
 * The numbers come from a fixed pseudo-random sequence: moduli with their
 * top limb set, bases below them.  The exponent, 11 (binary 1011), makes 3
 * squarings and 2 multiplications on top of the conversions: short, so that
 * GMP's reference stays cheap at 8192 bits.  33 shapes; test_ifma prints
 * the time they take.
 * doc/measurements.md: "The self-test's time (2026-12-02, AMD Zen 4)"
 */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "engines/ifma/ifma.h"
#include "engines/selftest_random.h"
#include "platform/platform.h"

#define SELFTEST_EXPONENT 11u /* binary 1011 */


/* base^SELFTEST_EXPONENT mod m on the Montgomery layer, into r (n limbs). */
static int engine_power(mp_limb_t *r, const mp_limb_t *base, const mp_limb_t *m, mp_size_t n, int flags)
{
    jbigi_ifma_ctx ctx;
    int rc = jbigi_ifma_ctx_init(&ctx, m, n, flags);
    if (rc != 0)
        return rc;
    uint64_t *x = jbigi_ifma_alloc(&ctx, 2);
    if (x == NULL) {
        jbigi_ifma_ctx_clear(&ctx);
        return JBIGI_IFMA_NO_MEMORY;
    }
    uint64_t *acc = x + ctx.words;
    jbigi_ifma_to_mont(&ctx, x, base);
    memcpy(acc, x, (size_t)ctx.words * sizeof(uint64_t));
    for (int bit = 2; bit >= 0; bit--) { /* bit 3, the top one, is acc = x */
        jbigi_ifma_sqr(&ctx, acc, acc);
        if ((SELFTEST_EXPONENT >> bit) & 1)
            jbigi_ifma_mul(&ctx, acc, acc, x);
    }
    jbigi_ifma_from_mont(&ctx, r, acc);
    jbigi_ifma_free(x, &ctx, 2);
    jbigi_ifma_ctx_clear(&ctx);
    return 0;
}

/* The kernel shape for an n-limb modulus: K, and from 8 registers the digit
 * count's parity; a number below 64 that names it. */
static int shape_of(mp_size_t n)
{
    const int digits = jbigi_ifma_digits(n), k = (digits + 7) / 8;
    return k < 8 ? k : 2 * k + (digits & 1);
}

/* r = a b mod m (n limbs each) by GMP's mpn_mul_n and mpn_tdiv_qr, whose
 * scratch at these sizes is on the stack. */
static void mulmod(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, const mp_limb_t *m, mp_size_t n)
{
    mp_limb_t product[2 * JBIGI_IFMA_MAX_LIMBS], quotient[JBIGI_IFMA_MAX_LIMBS + 1];
    mpn_mul_n(product, a, b, n);
    mpn_tdiv_qr(quotient, r, 0, product, 2 * n, m, n);
}

/* base^SELFTEST_EXPONENT mod m the plain way, into r (n limbs). */
static void reference_short_power(mp_limb_t *r, const mp_limb_t *base, const mp_limb_t *m, mp_size_t n)
{
    memcpy(r, base, (size_t)n * sizeof(mp_limb_t));
    for (int bit = 2; bit >= 0; bit--) {
        mulmod(r, r, r, m, n);
        if ((SELFTEST_EXPONENT >> bit) & 1)
            mulmod(r, r, base, m, n);
    }
}

/* base^exponent mod m by GMP's mpn_sec_powm (exponent: ebits bits in
 * limbs), with scratch from calloc: the self-test may run where GMP's own
 * allocator would have nowhere to go on failure.  0, or -1 when memory ran
 * out. */
static int reference_power(mp_limb_t *r, const mp_limb_t *base, const mp_limb_t *exponent, mp_bitcnt_t ebits,
                           const mp_limb_t *m, mp_size_t n)
{
    const mp_size_t itch = mpn_sec_powm_itch(n, ebits, n);
    mp_limb_t *scratch = calloc((size_t)itch, sizeof(mp_limb_t));
    if (scratch == NULL)
        return -1;
    mpn_sec_powm(r, base, n, exponent, ebits, m, n, scratch);
    free(scratch);
    return 0;
}

/* Up to this many limbs a shape also runs the whole constant-time
 * exponentiation (its table select and fixed window), with a full-width
 * exponent: cheap at these sizes. */
#define SELFTEST_POWM_SEC_LIMBS 4

/* One engine result against its reference: 0 when equal, n when not, -1
 * when the engine could not compute (rc: its return code).  corrupt flips a
 * bit of the result first. */
static int verdict(int rc, mp_limb_t *r, const mp_limb_t *want, mp_size_t n, int corrupt)
{
    if (rc != 0)
        return -1;
    if (corrupt)
        r[0] ^= 1;
    return mpn_cmp(r, want, n) != 0 ? (int)n : 0;
}

int jbigi_ifma_selftest(int corrupt)
{
    unsigned char seen[64] = {0};
    mp_limb_t m[JBIGI_IFMA_MAX_LIMBS], b[JBIGI_IFMA_MAX_LIMBS], r[JBIGI_IFMA_MAX_LIMBS];
    mp_limb_t want[JBIGI_IFMA_MAX_LIMBS];
    uint64_t state = UINT64_C(0x6a09e667f3bcc909);
    int result = 0;
    for (mp_size_t n = 1; n <= JBIGI_IFMA_MAX_LIMBS && result == 0; n++) {
        for (mp_size_t i = 0; i < n; i++) {
            m[i] = jbigi_selftest_random(&state);
            b[i] = jbigi_selftest_random(&state);
        }
        m[0] |= 1;
        m[n - 1] |= (mp_limb_t)1 << 63;
        b[n - 1] >>= 1; /* below m, and not 0 (mpn_sec_powm's requirement) */
        b[0] |= 1;
        const int shape = shape_of(n);
        if (seen[shape])
            continue;
        seen[shape] = 1;
        reference_short_power(want, b, m, n);
        const int flags[2] = {0, JBIGI_IFMA_CONSTANT_TIME};
        for (int f = 0; f < 2 && result == 0; f++)
            result = verdict(engine_power(r, b, m, n, flags[f]), r, want, n, corrupt);
        if (result != 0 || n > SELFTEST_POWM_SEC_LIMBS)
            continue;
        /* The exponent b, all 64 n bits of it. */
        if (reference_power(want, b, b, (mp_bitcnt_t)(64 * n), m, n) != 0)
            result = -1;
        else
            result = verdict(jbigi_ifma_powm_sec(r, b, b, n, m, n), r, want, n, corrupt);
    }
    jbigi_secure_zero(want, sizeof want);
    return result;
}
