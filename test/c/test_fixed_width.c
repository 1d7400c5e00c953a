/*
 * test_fixed_width.c - the fixed-width conversions of convert.c and the
 * constant-time power on a fixed-width exponent (jbigi_modpow_ct_limbs),
 * against definitions written here and GMP's mpz_powm.
 */
#include <gmp.h>
#include <string.h>

#include <stdlib.h>

#include "core/arith.h"
#include "check.h"
#include "core/convert.h"
#include "engines/engine.h"

/* value = the len bytes as unsigned base-256 digits. */
static void unsigned_import(mpz_t value, const uint8_t *bytes, size_t len)
{
    mpz_set_ui(value, 0);
    for (size_t i = 0; i < len; i++) {
        mpz_mul_2exp(value, value, 8);
        mpz_add_ui(value, value, bytes[i]);
    }
}

/* limbs[0..n) as a number. */
static void limbs_value(mpz_t value, const mp_limb_t *limbs, size_t n)
{
    mpz_set_ui(value, 0);
    /* Read in place, not limb by limb through mpz_add_ui: its operand is an
     * unsigned long, 32 bits on Windows. */
    mpz_t view;
    mpz_set(value, mpz_roinit_n(view, limbs, (mp_size_t)n));
}

/* jbigi_unsigned_to_limbs on len bytes into n limbs: the low 8 n bytes'
 * value, nothing written past n limbs, and bytes before the array never read
 * (the array sits at the end of a guarded buffer, so a read past it would
 * show under the sanitizers). */
static void check_to_limbs(const uint8_t *bytes, size_t len, size_t n)
{
    mp_limb_t *limbs = malloc((n + 1) * sizeof(mp_limb_t));
    for (size_t i = 0; i <= n; i++)
        limbs[i] = (mp_limb_t)0x5a5a5a5a5a5a5a5aULL;
    jbigi_unsigned_to_limbs(limbs, n, bytes, len);
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    limbs_value(got, limbs, n);
    unsigned_import(want, bytes, len);
    mpz_fdiv_r_2exp(want, want, (mp_bitcnt_t)n * GMP_NUMB_BITS);
    CHECK(mpz_cmp(got, want) == 0, "unsigned_to_limbs: %zu bytes into %zu limbs", len, n);
    CHECK(limbs[n] == (mp_limb_t)0x5a5a5a5a5a5a5a5aULL, "unsigned_to_limbs wrote past %zu limbs", n);
    mpz_clears(got, want, NULL);
    free(limbs);
}

/* jbigi_limbs_to_unsigned: exactly len bytes, zero-padded, nothing past them. */
static void check_to_unsigned(const mp_limb_t *limbs, size_t n, size_t len)
{
    uint8_t *out = malloc(len + 1);
    memset(out, 0xa5, len + 1);
    jbigi_limbs_to_unsigned(out, len, limbs, n);
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    unsigned_import(got, out, len);
    limbs_value(want, limbs, n);
    mpz_fdiv_r_2exp(want, want, 8 * len);
    CHECK(mpz_cmp(got, want) == 0, "limbs_to_unsigned: %zu limbs into %zu bytes", n, len);
    CHECK(out[len] == 0xa5, "limbs_to_unsigned wrote past %zu bytes", len);
    mpz_clears(got, want, NULL);
    free(out);
}

/* jbigi_canonical_length against jbigi_encoded_length of the same value. */
static void check_canonical(const uint8_t *value, size_t len)
{
    uint8_t *staged = malloc(len + 1);
    staged[0] = 0;
    memcpy(staged + 1, value, len);
    mpz_t v;
    mpz_init(v);
    unsigned_import(v, value, len);
    size_t got = jbigi_canonical_length(staged, len + 1);
    size_t want = jbigi_encoded_length(v);
    CHECK(got == want, "canonical length %zu, want %zu (%zu bytes)", got, want, len);
    mpz_clear(v);
    free(staged);
}

static void check_conversions(void)
{
    /* Lengths around limb boundaries, short and long against the width, top
     * bytes 0x00, 0x7f, 0x80, 0xff. */
    static const uint8_t tops[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    for (size_t len = 1; len <= 40; len++) {
        for (size_t t = 0; t < sizeof tops; t++) {
            uint8_t *bytes = malloc(len);
            rng_bytes(bytes, len);
            bytes[0] = tops[t];
            for (size_t n = 1; n <= 6; n++)
                check_to_limbs(bytes, len, n);
            check_canonical(bytes, len);
            memset(bytes, 0, len);
            check_canonical(bytes, len);
            bytes[len - 1] = tops[t];
            check_canonical(bytes, len);
            free(bytes);
        }
    }
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + rng_next() % 70;
        mp_limb_t limbs[70];
        for (size_t i = 0; i < n; i++)
            limbs[i] = rng_next();
        if (rng_next() & 1)
            limbs[n - 1] = 0;
        size_t len = 1 + rng_next() % (8 * n + 16);
        check_to_unsigned(limbs, n, len);
    }
}

/* jbigi_modpow_ct_limbs against mpz_powm, the exponent at en limbs; with
 * ebits > 0, jbigi_modpow_ct_bits at ebits bits (en must then be
 * ceil(ebits / 64)). */
static void check_power_at(const mpz_t base, const mpz_t exp, const mpz_t m, mp_size_t en, size_t ebits)
{
    const mp_size_t n = (mp_size_t)mpz_size(m);
    mp_limb_t *e = calloc((size_t)en, sizeof(mp_limb_t));
    mpn_copyi(e, mpz_limbs_read(exp), (mp_size_t)mpz_size(exp));
    mp_limb_t *rp = malloc((size_t)n * sizeof(mp_limb_t));
    memset(rp, 0xa5, (size_t)n * sizeof(mp_limb_t));
    enum jbigi_status status = ebits > 0 ? jbigi_modpow_ct_bits(rp, base, e, ebits, m)
                                         : jbigi_modpow_ct_limbs(rp, base, e, en, m);
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    limbs_value(got, rp, (size_t)n);
    mpz_powm(want, base, exp, m);
    CHECK(status == JBIGI_OK && mpz_cmp(got, want) == 0,
          "modpow_ct_%s: %zu-bit modulus, en %ld, ebits %zu, status %d", ebits > 0 ? "bits" : "limbs",
          mpz_sizeinbase(m, 2), (long)en, ebits, (int)status);
    mpz_clears(got, want, NULL);
    free(rp);
    free(e);
}

static void check_power(const mpz_t base, const mpz_t exp, const mpz_t m, mp_size_t en)
{
    check_power_at(base, exp, m, en, 0);
}

/* jbigi_modpow_ct_bits at ebits bits (exp below 2^ebits). */
static void check_power_bits(const mpz_t base, const mpz_t exp, const mpz_t m, size_t ebits)
{
    check_power_at(base, exp, m, (mp_size_t)((ebits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS), ebits);
}

static void check_powers(void)
{
    mpz_t base, exp, m;
    mpz_inits(base, exp, m, NULL);
    static const unsigned sizes[] = {3, 64, 65, 128, 511, 512, 513, 1024, 2048, 3072, 4096};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int round = 0; round < (int)test_scale(3); round++) {
            unsigned bits = sizes[s];
            size_t bytes = (bits + 7) / 8;
            uint8_t *buf = malloc(bytes + 8);
            rng_bytes(buf, bytes + 8);
            unsigned_import(m, buf, bytes);
            mpz_fdiv_r_2exp(m, m, bits);
            mpz_setbit(m, bits - 1);
            mpz_setbit(m, 0);
            unsigned_import(base, buf, bytes + 8); /* wider than m: reduced first */
            unsigned_import(exp, buf + 1, bytes);
            mpz_fdiv_r_2exp(exp, exp, bits);
            mpz_setbit(exp, 0);
            const mp_size_t n = (mp_size_t)mpz_size(m);
            check_power(base, exp, m, n);
            check_power(base, exp, m, n + 1 + (mp_size_t)(rng_next() % 3));
            /* The exponent's top limb bit set: the full limb width. */
            mpz_setbit(exp, (mp_bitcnt_t)n * GMP_NUMB_BITS - 1);
            check_power(base, exp, m, n);
            /* Public bases the engines never see: 0, m, a multiple of m. */
            mpz_set_ui(base, 0);
            check_power(base, exp, m, n);
            mpz_set(base, m);
            check_power(base, exp, m, n);
            mpz_mul_ui(base, m, 5);
            check_power(base, exp, m, n);
            mpz_set_ui(base, 1);
            check_power(base, exp, m, n);
            free(buf);
        }
    }
    /* m = 1: 0 whatever the base. */
    mpz_set_ui(m, 1);
    mpz_set_ui(base, 5);
    mpz_set_ui(exp, 3);
    check_power(base, exp, m, 1);
    /* Refusals. */
    mp_limb_t e = 3, r[2];
    mpz_set_ui(m, 10);
    CHECK(jbigi_modpow_ct_limbs(r, base, &e, 1, m) == JBIGI_MODULUS_EVEN, "even modulus accepted");
    mpz_set_ui(m, 0);
    CHECK(jbigi_modpow_ct_limbs(r, base, &e, 1, m) == JBIGI_MODULUS_NOT_POSITIVE, "zero modulus accepted");
    mpz_clears(base, exp, m, NULL);
}

/*
 * Exponents shorter and longer than the modulus, at their own limb count
 * and one limb wider, on every engine this CPU runs (forced one after the
 * other; the modulus 2^255 - 19 among the sizes, for the special-form
 * engine): bit lengths at the limb boundaries and at the bounds DSA and
 * ElGamal use, top bits set and clear below the top one, random bases and
 * the base 2 (its own path on GMP's engine); and at a width in bits
 * (jbigi_modpow_ct_bits: a stated bound, an array's length): the
 * exponent's own bit length and a few bits more.
 */
static void check_short_powers(void)
{
    static const char *const engines[] = {"gmp", "adx", "ifma", "p25519"};
    /* 255: the modulus 2^255 - 19 (the special-form engine's). */
    static const unsigned moduli[] = {64, 65, 192, 255, 256, 512, 576, 1024, 1536, 2048, 3072, 4096};
    static const unsigned exps[] = {1, 2, 63, 64, 65, 127, 128, 129, 159, 160, 161, 192, 193, 224, 225,
                                    226, 255, 256, 257, 512, 1024, 2048, 2049, 4096, 4200};
    mpz_t base, exp, m;
    mpz_inits(base, exp, m, NULL);
    for (size_t k = 0; k < sizeof engines / sizeof engines[0]; k++) {
        if (jbigi_engine_force(engines[k]) != 0)
            continue; /* this CPU does not run it */
        for (size_t s = 0; s < sizeof moduli / sizeof moduli[0]; s++) {
            const unsigned bits = moduli[s];
            for (size_t x = 0; x < sizeof exps / sizeof exps[0]; x++) {
                const unsigned ebits = exps[x];
                if (ebits > 2 * bits + 128 || ebits > 4096 + 128 || !test_sample())
                    continue;
                uint8_t buf[1100];
                rng_bytes(buf, sizeof buf);
                unsigned_import(m, buf, (bits + 7) / 8);
                mpz_fdiv_r_2exp(m, m, bits);
                mpz_setbit(m, bits - 1);
                mpz_setbit(m, 0);
                if (bits == 255) {
                    mpz_set_ui(m, 0);
                    mpz_setbit(m, 255);
                    mpz_sub_ui(m, m, 19);
                }
                unsigned_import(base, buf + 520, (bits + 7) / 8);
                unsigned_import(exp, buf + 1, (ebits + 7) / 8);
                mpz_fdiv_r_2exp(exp, exp, ebits);
                mpz_setbit(exp, ebits - 1);
                if (x % 2 == 0 && ebits > 40) /* the bits below the top one clear */
                    for (unsigned i = ebits - 33; i < ebits - 1; i++)
                        mpz_clrbit(exp, i);
                const mp_size_t own = (mp_size_t)mpz_size(exp);
                check_power(base, exp, m, own);
                check_power(base, exp, m, own + 1);
                /* A width in bits: exactly the exponent's, and a bound a
                 * few bits above it, within its limb or past it. */
                check_power_bits(base, exp, m, ebits);
                check_power_bits(base, exp, m, ebits + 1 + rng_next() % 70);
                mpz_set_ui(base, 2);
                check_power(base, exp, m, own);
                check_power_bits(base, exp, m, ebits);
                check_power_bits(base, exp, m, ebits + 1 + rng_next() % 70);
            }
        }
    }
    const char *env = getenv("JBIGI_ENGINE");
    jbigi_engine_force(env != NULL ? env : "auto");
    mpz_clears(base, exp, m, NULL);
}

int main(void)
{
    test_seed("test_fixed_width");
    check_conversions();
    check_powers();
    check_short_powers();
    return finish("test_fixed_width");
}
