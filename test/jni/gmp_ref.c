/*
 * gmp_ref.c - BigInteger's modPow and modInverse in GMP.  BigInteger's own
 * rules, as its Javadoc and source give them: modulus <= 0 throws; modulus
 * 1 gives 0 whatever else; a negative exponent means the inverse raised to
 * |exponent|, which throws when there is none.  GMP would raise SIGFPE for
 * an inverse that does not exist, so that is checked first.
 */
#include "gmp_ref.h"

#ifdef JNI_HARNESS_GMP

#include <gmp.h>

int gmp_ref_available(void)
{
    return 1;
}

const char *gmp_ref_version(void)
{
    return gmp_version;
}

/* A toByteArray() array into z: a negative one is ~(|z| - 1). */
static void from_bytes(mpz_t z, const struct bytes *b)
{
    const int negative = b->len > 0 && (b->p[0] & 0x80);
    if (!negative) {
        mpz_import(z, b->len, 1, 1, 1, 0, b->p);
        return;
    }
    struct bytes inverted = bytes_copy(b->p, b->len);
    for (size_t i = 0; i < inverted.len; i++)
        inverted.p[i] = (unsigned char)~inverted.p[i];
    mpz_import(z, inverted.len, 1, 1, 1, 0, inverted.p);
    mpz_add_ui(z, z, 1);
    mpz_neg(z, z);
    bytes_free(&inverted);
}

/* z's toByteArray() form: bitLength() / 8 + 1 bytes, where a negative
 * z's bitLength is that of |z| - 1. */
static struct bytes to_bytes(const mpz_t z)
{
    mpz_t t;
    mpz_init(t);
    const int negative = mpz_sgn(z) < 0;
    if (negative) {
        mpz_neg(t, z);
        mpz_sub_ui(t, t, 1);
    } else {
        mpz_set(t, z);
    }
    const size_t bits = mpz_sgn(t) == 0 ? 0 : mpz_sizeinbase(t, 2);
    const size_t n = bits / 8 + 1;
    struct bytes out = bytes_zeros(n);
    /* Right-aligned: the digits take (bits + 7) / 8 <= n bytes. */
    size_t written = 0;
    mpz_export(out.p + n - (bits + 7) / 8, &written, 1, 1, 1, 0, t);
    if (negative) {
        for (size_t i = 0; i < n; i++)
            out.p[i] = (unsigned char)~out.p[i];
    }
    mpz_clear(t);
    return out;
}

/* r = value^-1 mod m (m > 1); 0 when there is none. */
static int inverse(mpz_t r, const mpz_t value, const mpz_t m)
{
    return mpz_invert(r, value, m) != 0;
}

int gmp_ref_mod_pow(const struct bytes *base, const struct bytes *exponent, const struct bytes *modulus,
                    struct bytes *out)
{
    mpz_t b, e, m, r;
    mpz_inits(b, e, m, r, NULL);
    from_bytes(b, base);
    from_bytes(e, exponent);
    from_bytes(m, modulus);
    int ok = mpz_sgn(m) > 0;
    if (ok && mpz_cmp_ui(m, 1) == 0) {
        mpz_set_ui(r, 0);
    } else if (ok && mpz_sgn(e) >= 0) {
        mpz_powm(r, b, e, m);
    } else if (ok) {
        ok = inverse(b, b, m);
        if (ok) {
            mpz_neg(e, e);
            mpz_powm(r, b, e, m);
        }
    }
    if (ok)
        *out = to_bytes(r);
    mpz_clears(b, e, m, r, NULL);
    return ok;
}

int gmp_ref_mod_inverse(const struct bytes *value, const struct bytes *modulus, struct bytes *out)
{
    mpz_t v, m, r;
    mpz_inits(v, m, r, NULL);
    from_bytes(v, value);
    from_bytes(m, modulus);
    int ok = mpz_sgn(m) > 0;
    if (ok && mpz_cmp_ui(m, 1) == 0)
        mpz_set_ui(r, 0);
    else if (ok)
        ok = inverse(r, v, m);
    if (ok)
        *out = to_bytes(r);
    mpz_clears(v, m, r, NULL);
    return ok;
}

#else /* no GMP: the callers ask gmp_ref_available() first */

int gmp_ref_available(void)
{
    return 0;
}

const char *gmp_ref_version(void)
{
    return "none";
}

int gmp_ref_mod_pow(const struct bytes *base, const struct bytes *exponent, const struct bytes *modulus,
                    struct bytes *out)
{
    (void)base;
    (void)exponent;
    (void)modulus;
    (void)out;
    return 0;
}

int gmp_ref_mod_inverse(const struct bytes *value, const struct bytes *modulus, struct bytes *out)
{
    (void)value;
    (void)modulus;
    (void)out;
    return 0;
}

#endif
