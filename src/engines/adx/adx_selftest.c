/*
 * adx_selftest.c - the MULX/ADX engine's known-answer self-test, run once
 * per process before the engine is first chosen (jbigi_adx_available).
 *
 * The engine's code differs by the padded length N (adx.h): N = 4 is the
 * register-only assembly (adx_mont4.c); a multiple of 8 reduces eight rows
 * at a time in assembly (jbigi_adx_redc8); the other multiples of 4 row by
 * row (addmul_row); and the secret products split by Karatsuba from 24
 * limbs (products) and 48 (squares), again while the halves are even and
 * that long.  A compiler, a CPU erratum or a hypervisor that loses flag
 * state could break one of these and leave the others right, so each
 * SELFTEST_SIZES size computes one short power on the Montgomery layer,
 * once with the public products and once with the secret ones, ends with
 * a doubling and a doubling not taken (double_if, the base-2 path's step),
 * and compares with GMP's plain multiplication and division on the same
 * numbers.  The engine's table select (jbigi_adx_select) picks every entry
 * of a small table once per size.
 *
 * The numbers come from a fixed pseudo-random sequence: moduli with their
 * top bit set, bases below them.  The exponent, 11 (binary 1011), makes 3
 * squarings and 2 multiplications on top of the conversions.  Nothing here
 * allocates through GMP: contexts come from calloc, GMP's scratch at these
 * sizes is on the stack.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "engines/adx/adx.h"
#include "engines/selftest_random.h"
#include "platform/platform.h"

#define SELFTEST_EXPONENT 11u /* binary 1011 */

/* Every shape of the engine's code (see above), at both ends of a padded
 * length where it matters. */
static const mp_size_t SELFTEST_SIZES[] = {1, 3, 4, 5, 8, 9, 12, 16, 20, 23, 24, 32, 44, 48, 64, 96, 127, 128};

/* Entries of the table the select picks from. */
#define SELFTEST_TABLE_ENTRIES 5


/* r = a b mod m (n limbs each) by GMP's mpn_mul_n and mpn_tdiv_qr. */
static void mulmod(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, const mp_limb_t *m, mp_size_t n)
{
    mp_limb_t product[2 * JBIGI_ADX_MAX_LIMBS], quotient[JBIGI_ADX_MAX_LIMBS + 1];
    mpn_mul_n(product, a, b, n);
    mpn_tdiv_qr(quotient, r, 0, product, 2 * n, m, n);
}

/* 2 base^SELFTEST_EXPONENT mod m the plain way, into r (n limbs); m > 2. */
static void reference(mp_limb_t *r, const mp_limb_t *base, const mp_limb_t *m, mp_size_t n)
{
    mp_limb_t two[JBIGI_ADX_MAX_LIMBS] = {2};
    memcpy(r, base, (size_t)n * sizeof(mp_limb_t));
    for (int bit = 2; bit >= 0; bit--) {
        mulmod(r, r, r, m, n);
        if ((SELFTEST_EXPONENT >> bit) & 1)
            mulmod(r, r, base, m, n);
    }
    mulmod(r, r, two, m, n);
}

/* The same on the engine's layer, into r (n limbs); flags as ctx_init's.
 * 0, or -1 when memory ran out. */
static int engine_power(mp_limb_t *r, const mp_limb_t *base, const mp_limb_t *m, mp_size_t n, int flags)
{
    mp_limb_t x[JBIGI_ADX_MAX_LIMBS], acc[JBIGI_ADX_MAX_LIMBS];
    jbigi_adx_ctx ctx;
    if (jbigi_adx_ctx_init(&ctx, m, n, flags) != 0)
        return -1;
    jbigi_adx_to_mont(&ctx, x, base);
    memcpy(acc, x, (size_t)ctx.N * sizeof(mp_limb_t));
    for (int bit = 2; bit >= 0; bit--) { /* bit 3, the top one, is acc = x */
        jbigi_adx_sqr(&ctx, acc, acc);
        if ((SELFTEST_EXPONENT >> bit) & 1)
            jbigi_adx_mul(&ctx, acc, acc, x);
    }
    jbigi_adx_double_if(&ctx, acc, 0);
    jbigi_adx_double_if(&ctx, acc, 1);
    jbigi_adx_from_mont(&ctx, r, acc);
    jbigi_adx_ctx_clear(&ctx);
    jbigi_secure_zero(x, sizeof x);
    jbigi_secure_zero(acc, sizeof acc);
    return 0;
}

/* The engine's select picks each entry of a table of N-limb random values
 * (it reads only N from the context): 0 when every pick is right, else 1. */
static int select_check(mp_size_t n, uint64_t *state, int corrupt)
{
    const size_t N = (size_t)((n + 3) & ~(mp_size_t)3);
    mp_limb_t table[SELFTEST_TABLE_ENTRIES * JBIGI_ADX_MAX_LIMBS], r[JBIGI_ADX_MAX_LIMBS];
    for (size_t i = 0; i < SELFTEST_TABLE_ENTRIES * N; i++)
        table[i] = jbigi_selftest_random(state);
    int result = 0;
    for (size_t index = 0; index < SELFTEST_TABLE_ENTRIES; index++) {
        jbigi_adx_ctx shape = {.n = n, .N = (mp_size_t)N};
        jbigi_adx_select(&shape, r, table, SELFTEST_TABLE_ENTRIES, index);
        if (corrupt)
            r[0] ^= 1;
        result |= memcmp(r, table + index * N, N * sizeof(mp_limb_t)) != 0;
    }
    return result;
}

int jbigi_adx_selftest(int corrupt)
{
    mp_limb_t m[JBIGI_ADX_MAX_LIMBS], b[JBIGI_ADX_MAX_LIMBS], r[JBIGI_ADX_MAX_LIMBS];
    mp_limb_t want[JBIGI_ADX_MAX_LIMBS];
    uint64_t state = UINT64_C(0xbb67ae8584caa73b);
    int result = 0;
    for (size_t s = 0; s < sizeof SELFTEST_SIZES / sizeof SELFTEST_SIZES[0] && result == 0; s++) {
        const mp_size_t n = SELFTEST_SIZES[s];
        for (mp_size_t i = 0; i < n; i++) {
            m[i] = (mp_limb_t)jbigi_selftest_random(&state);
            b[i] = (mp_limb_t)jbigi_selftest_random(&state);
        }
        m[0] |= 1;
        m[n - 1] |= (mp_limb_t)1 << (GMP_NUMB_BITS - 1);
        b[n - 1] >>= 1; /* below m */
        reference(want, b, m, n);
        const int flags[2] = {0, JBIGI_ADX_SECRET};
        for (int f = 0; f < 2 && result == 0; f++) {
            if (engine_power(r, b, m, n, flags[f]) != 0) {
                result = -1;
                break;
            }
            if (corrupt)
                r[0] ^= 1;
            if (mpn_cmp(r, want, n) != 0)
                result = (int)n;
        }
        if (result == 0 && select_check(n, &state, corrupt) != 0)
            result = (int)n;
    }
    jbigi_secure_zero(want, sizeof want);
    jbigi_secure_zero(r, sizeof r);
    return result;
}
