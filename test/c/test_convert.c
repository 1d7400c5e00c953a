/*
 * test_convert.c - convert.c against a byte-at-a-time reference written
 * here from the definition of two's complement.
 */
#include <gmp.h>
#include <limits.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "core/convert.h"
#include "reference.h"

/* The fewest bytes n with -2^(8n-1) <= value < 2^(8n-1). */
static size_t reference_length(const mpz_t value)
{
    mpz_t low, high;
    mpz_inits(low, high, NULL);
    size_t n = 1;
    for (;; n++) {
        mpz_set_ui(high, 0);
        mpz_setbit(high, 8 * n - 1);
        mpz_neg(low, high);
        if (mpz_cmp(value, low) >= 0 && mpz_cmp(value, high) < 0)
            break;
    }
    mpz_clears(low, high, NULL);
    return n;
}

/* Digit by digit of value mod 256^len. */
static void reference_export(uint8_t *out, size_t len, const mpz_t value)
{
    mpz_t v;
    mpz_init(v);
    mpz_fdiv_r_2exp(v, value, 8 * len);
    for (size_t i = len; i-- > 0;) {
        out[i] = (uint8_t)mpz_fdiv_ui(v, 256);
        mpz_fdiv_q_2exp(v, v, 8);
    }
    mpz_clear(v);
}

/* Imports bytes both ways, compares, then exports and compares the bytes. */
static void check_round_trip(const uint8_t *bytes, size_t len, const char *what)
{
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    jbigi_import(got, bytes, len);
    reference_import(want, bytes, len);
    CHECK(mpz_cmp(got, want) == 0, "%s: import of %zu bytes", what, len);

    size_t out_len = jbigi_encoded_length(want);
    size_t ref_len = reference_length(want);
    CHECK(out_len == ref_len, "%s: length %zu, want %zu", what, out_len, ref_len);

    uint8_t *out = malloc(ref_len + 16), *ref = malloc(ref_len + 16);
    memset(out, 0xa5, ref_len + 16);
    jbigi_export(out, ref_len, want);
    reference_export(ref, ref_len, want);
    CHECK(memcmp(out, ref, ref_len) == 0, "%s: export of %zu bytes", what, ref_len);
    CHECK(out[ref_len] == 0xa5, "%s: export wrote past its %zu bytes", what, ref_len);

    /* A longer output is the same value, sign-extended. */
    jbigi_export(out, ref_len + 9, want);
    reference_export(ref, ref_len + 9, want);
    CHECK(memcmp(out, ref, ref_len + 9) == 0, "%s: sign-extended export", what);
    free(out);
    free(ref);
    mpz_clears(got, want, NULL);
}

static void check_long(long v)
{
    mpz_t value;
    mpz_init_set_si(value, v);
    size_t len = reference_length(value);
    uint8_t bytes[16];
    reference_export(bytes, len, value);
    char what[64];
    snprintf(what, sizeof what, "value %ld", v);
    check_round_trip(bytes, len, what);
    mpz_clear(value);
}

/* No bytes: zero limbs and size 0, and nothing outside the buffer is
 * touched (the limb after it keeps its guard value). */
static void check_empty(void)
{
    mp_limb_t limbs[2] = {0x1111, 0x2222};
    CHECK(jbigi_limbs_for_bytes(0) == 0, "zero bytes need %zu limbs", jbigi_limbs_for_bytes(0));
    CHECK(jbigi_bytes_to_limbs(limbs, 0) == 0, "zero bytes do not convert to size 0");
    CHECK(limbs[0] == 0x1111 && limbs[1] == 0x2222, "converting zero bytes wrote to the buffer");
}

int main(void)
{
    test_seed("test_convert");
    check_empty();

    static const long small[] = {0, 1, -1, 2, -2, 127, 128, -128, -129, 255, 256, -255, -256, -257,
                                 32767, 32768, -32768, -32769, 65535, 65536, -65536,
                                 0x7fffffffL, -0x7fffffffL - 1,
#if LONG_MAX > 0x7fffffffL /* 64-bit long; a 32-bit one has its extremes above */
                                 0x80000000L, -0x80000000L - 1, 0x7fffffffffffffffL, -0x7fffffffffffffffL - 1
#endif
    };
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        check_long(small[i]);

    /* Leading sign bytes: non-canonical input must still read as its value. */
    static const uint8_t padded[][6] = {
        {0x00, 0x00, 0x00, 0x00, 0x00, 0x01}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
        {0x00, 0x80, 0x00, 0x00, 0x00, 0x00}, {0xff, 0x7f, 0xff, 0xff, 0xff, 0xff},
        {0xff, 0x80, 0x00, 0x00, 0x00, 0x00}, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
        {0x80, 0x00, 0x00, 0x00, 0x00, 0x00}, {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff}};
    for (size_t i = 0; i < sizeof padded / sizeof padded[0]; i++)
        for (size_t len = 1; len <= 6; len++)
            check_round_trip(padded[i] + 6 - len, len, "padded");

    /* Powers of two and their neighbours around limb boundaries, both signs. */
    for (unsigned bits = 1; bits <= 260; bits++) {
        for (int delta = -1; delta <= 1; delta++) {
            for (int sign = -1; sign <= 1; sign += 2) {
                mpz_t v;
                mpz_init(v);
                mpz_setbit(v, bits);
                if (delta < 0)
                    mpz_sub_ui(v, v, 1);
                else if (delta > 0)
                    mpz_add_ui(v, v, 1);
                if (sign < 0)
                    mpz_neg(v, v);
                size_t len = reference_length(v);
                uint8_t *bytes = malloc(len);
                reference_export(bytes, len, v);
                check_round_trip(bytes, len, "power of two");
                free(bytes);
                mpz_clear(v);
            }
        }
    }

    /* Random values from 1 to 10,000 bytes, random first bytes of both signs
     * (including 0x00/0xff runs that make the encoding non-minimal). */
    uint8_t *bytes = malloc(10000);
    const long cases = test_scale(3000), short_cases = test_scale(2000);
    for (long i = 0; i < cases; i++) {
        size_t len = i < short_cases ? 1 + rng_next() % 64 : 1 + rng_next() % 10000;
        rng_bytes(bytes, len);
        switch (rng_next() % 4) {
        case 0: bytes[0] = 0x00; break;
        case 1: bytes[0] = 0xff; break;
        default: break;
        }
        check_round_trip(bytes, len, "random");
    }
    free(bytes);
    return finish("test_convert");
}
