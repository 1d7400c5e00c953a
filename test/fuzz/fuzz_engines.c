/*
 * fuzz_engines.c - libFuzzer target for the engines on limbs: AVX-512 IFMA
 * (src/engines/ifma/), MULX/ADX (src/engines/adx/) and the special-form
 * field of 2^255 - 19 (src/engines/p25519/), each on the same input.
 *
 * Input: one byte for n, the modulus size in limbs (1 to 48 for bytes below
 * 240, else one of 53, 58, ..., 128), one byte of flags, then the modulus,
 * the base and the exponent,
 * 8 n little-endian bytes each at most.  Missing bytes are filled with the
 * flags' choice of 0x00 or 0xff, so short inputs still reach all-ones and
 * sparse values.  The modulus is made odd with a non-zero top limb, the base
 * is reduced mod m (as the caller must), and the exponent has 1 to n limbs
 * (flags >> 4, mod n); flags & 8 also runs the constant-time path.  At four
 * limbs a modulus read with its top bit clear is replaced by 2^255 - 19, so
 * that half of those inputs reach the special-form field, which must refuse
 * every other modulus as unsupported.
 *
 * Each engine's powm must equal mpz_powm and its powm_sec mpz_powm_sec (1
 * mod m for e = 0, which GMP's refuses), limb for limb, and neither may
 * write past its n result limbs (AddressSanitizer sees the heap copies).
 * Any difference aborts: libFuzzer saves the input.
 *
 * An engine this CPU cannot run (or with JBIGI_ENGINE=gmp) must refuse
 * every call as unsupported; nothing else is checked for it then.
 *
 * Built and run with the other targets by test/fuzz/run-fuzz.sh (make fuzz).
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/adx/adx.h"
#include "engines/engine.h"
#include "engines/ifma/ifma.h"
#include "engines/p25519/p25519.h"

#define FUZZ_TARGET_NAME "fuzz_engines"
#include "fuzz.h"

/* Reads up to 8 n bytes into n limbs, filling what the input lacks. */
static size_t take_limbs(mp_limb_t *x, mp_size_t n, const uint8_t *data, size_t size, uint8_t fill)
{
    size_t want = (size_t)n * 8, got = size < want ? size : want;
    uint8_t *bytes = (uint8_t *)x;
    memset(bytes, fill, want);
    for (size_t i = 0; i < got; i++) /* little-endian limbs from bytes, any host order */
        x[i / 8] = (x[i / 8] & ~((mp_limb_t)0xff << (8 * (i % 8)))) | ((mp_limb_t)data[i] << (8 * (i % 8)));
    return got;
}

static mp_size_t top(const mp_limb_t *x, mp_size_t n)
{
    while (n > 0 && x[n - 1] == 0)
        n--;
    return n;
}

/* The field's constant-time power at an exponent's limbs. */
static int p25519_powm_sec(mp_limb_t *r, const mp_limb_t *b, const mp_limb_t *e, mp_size_t en, const mp_limb_t *m,
                           mp_size_t n)
{
    return jbigi_p25519_powm_sec(r, b, e, (size_t)en * GMP_NUMB_BITS, m, n);
}

/* The engines, as the fuzzer calls them; takes: the moduli an engine of
 * one form computes (NULL: every odd one). */
static const struct {
    const char *name;
    int (*cpu)(void);
    int (*powm)(mp_limb_t *, const mp_limb_t *, const mp_limb_t *, mp_size_t, const mp_limb_t *, mp_size_t);
    int (*powm_sec)(mp_limb_t *, const mp_limb_t *, const mp_limb_t *, mp_size_t, const mp_limb_t *, mp_size_t);
    int unsupported;
    int (*takes)(const mp_limb_t *, mp_size_t);
} engines[] = {
    {"ifma", jbigi_ifma_cpu, jbigi_ifma_powm, jbigi_ifma_powm_sec, JBIGI_IFMA_UNSUPPORTED, NULL},
    {"adx", jbigi_adx_cpu, jbigi_adx_powm, jbigi_adx_powm_sec, JBIGI_ADX_UNSUPPORTED, NULL},
    {"p25519", jbigi_p25519_available, jbigi_p25519_powm, p25519_powm_sec, JBIGI_ENGINE_UNSUPPORTED,
     jbigi_p25519_is_modulus},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    /* Mostly up to 3072 bits, where executions are cheap (the constant-time
     * path runs the full exponent length); 16 sizes up to 8192 bits. */
    const mp_size_t n = data[0] < 240 ? 1 + data[0] % 48 : JBIGI_IFMA_MAX_LIMBS - (255 - data[0]) * 5;
    const uint8_t flags = data[1];
    data += 2;
    size -= 2;
    const size_t bytes = (size_t)n * sizeof(mp_limb_t);
    mp_limb_t *m = malloc(bytes), *b = malloc(bytes), *e = malloc(bytes), *r = malloc(bytes);
    REQUIRE(m && b && e && r, "out of memory");

    size_t used = take_limbs(m, n, data, size, (flags & 1) ? 0xff : 0);
    data += used;
    size -= used;
    used = take_limbs(b, n, data, size, (flags & 2) ? 0xff : 0);
    data += used;
    size -= used;
    used = take_limbs(e, n, data, size, (flags & 4) ? 0xff : 0);
    m[0] |= 1;
    if (m[n - 1] == 0)
        m[n - 1] = 1;
    if (n == 4 && (m[3] >> 63) == 0) { /* 2^255 - 19 */
        m[0] = ~(mp_limb_t)18;
        m[1] = m[2] = ~(mp_limb_t)0;
        m[3] = ~(mp_limb_t)0 >> 1;
    }
    /* Exponent length: 1 to n limbs, from the flags' upper bits; the
     * constant-time path (always the full length, so slower) when bit 3 is
     * set. */
    mp_size_t en = 1 + (mp_size_t)(flags >> 4) % n;
    const int with_ct = (flags & 8) != 0;

    mpz_t zm, zb, ze, want, got;
    mpz_inits(zb, want, NULL);
    mpz_roinit_n(zm, m, n);
    mpz_set(zb, (mpz_roinit_n(got, b, top(b, n)), got));
    mpz_mod(zb, zb, zm);
    memset(b, 0, bytes);
    mpz_export(b, NULL, -1, sizeof(mp_limb_t), 0, 0, zb);
    for (mp_size_t i = en; i < n; i++)
        e[i] = 0;
    mpz_roinit_n(ze, e, top(e, en));

    mpz_powm(want, zb, ze, zm);
    mpz_t want_sec;
    mpz_init(want_sec);
    if (!with_ct)
        ; /* not needed */
    else if (mpz_sgn(ze) > 0)
        mpz_powm_sec(want_sec, zb, ze, zm);
    else
        mpz_set_ui(want_sec, mpz_cmp_ui(zm, 1) == 0 ? 0 : 1);
    for (size_t k = 0; k < sizeof engines / sizeof engines[0]; k++) {
        const char *name = engines[k].name;
        if (!engines[k].cpu() || (engines[k].takes != NULL && !engines[k].takes(m, n))) {
            REQUIRE(engines[k].powm(r, b, e, en, m, n) == engines[k].unsupported, "%s ran without its CPU or form",
                    name);
            REQUIRE(engines[k].powm_sec(r, b, e, en, m, n) == engines[k].unsupported,
                    "%s ran without its CPU or form", name);
            continue;
        }
        REQUIRE(engines[k].powm(r, b, e, en, m, n) == 0, "%s powm failed, n=%ld", name, (long)n);
        REQUIRE(mpz_cmp(mpz_roinit_n(got, r, top(r, n)), want) == 0, "%s powm differs from mpz_powm, n=%ld", name,
                (long)n);
        if (!with_ct)
            continue;
        /* At the exponent's own limbs, then padded to the modulus'. */
        REQUIRE(engines[k].powm_sec(r, b, e, en, m, n) == 0, "%s powm_sec failed, n=%ld", name, (long)n);
        REQUIRE(mpz_cmp(mpz_roinit_n(got, r, top(r, n)), want_sec) == 0,
                "%s powm_sec differs from mpz_powm_sec, n=%ld en=%ld", name, (long)n, (long)en);
        REQUIRE(engines[k].powm_sec(r, b, e, n, m, n) == 0, "%s powm_sec failed, n=%ld", name, (long)n);
        REQUIRE(mpz_cmp(mpz_roinit_n(got, r, top(r, n)), want_sec) == 0,
                "%s powm_sec differs from mpz_powm_sec, n=%ld", name, (long)n);
    }
    mpz_clear(want_sec);

    mpz_clears(zb, want, NULL);
    free(m);
    free(b);
    free(e);
    free(r);
    return 0;
}
