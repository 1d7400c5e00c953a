/*
 * convert.c - big-endian two's complement bytes <-> mpz_t, a limb at a time.
 *
 * mpz_import/mpz_export with one-byte words walk the data a byte at a time
 * and know nothing of two's complement.  Here whole limbs are loaded with one
 * byte-swapping load, negatives are negated in place with mpn_neg, and only
 * the partial top limb is assembled byte by byte.
 */
#include "convert.h"

#include <string.h>

#if GMP_NAIL_BITS != 0
#error "jbigi needs a GMP built without nails"
#endif

#define LIMB_BYTES ((size_t)sizeof(mp_limb_t))

/* Big-endian limb load/store: memcpy plus a byte swap compiles to movbe/bswap. */
static inline mp_limb_t load_be_limb(const uint8_t *p)
{
    mp_limb_t v;
    memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#if GMP_LIMB_BITS == 64
    v = __builtin_bswap64(v);
#elif GMP_LIMB_BITS == 32
    v = __builtin_bswap32(v);
#else
#error "unsupported limb size"
#endif
#endif
    return v;
}

static inline void store_be_limb(uint8_t *p, mp_limb_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#if GMP_LIMB_BITS == 64
    v = __builtin_bswap64(v);
#else
    v = __builtin_bswap32(v);
#endif
#endif
    memcpy(p, &v, sizeof v);
}

void jbigi_import(mpz_t rop, const uint8_t *bytes, size_t len)
{
    const int negative = (bytes[0] & 0x80) != 0;
    const size_t nlimbs = (len + LIMB_BYTES - 1) / LIMB_BYTES;
    const size_t top_bytes = len - (nlimbs - 1) * LIMB_BYTES; /* 1..LIMB_BYTES */
    mp_limb_t *limbs = mpz_limbs_write(rop, (mp_size_t)nlimbs);

    /* Full limbs, least significant first, taken from the end of the array. */
    for (size_t i = 0; i + 1 < nlimbs; i++)
        limbs[i] = load_be_limb(bytes + len - (i + 1) * LIMB_BYTES);

    /* The top limb holds the first top_bytes bytes, sign-extended. */
    mp_limb_t top = negative ? ~(mp_limb_t)0 : 0;
    for (size_t i = 0; i < top_bytes; i++)
        top = (top << 8) | bytes[i];
    limbs[nlimbs - 1] = top;

    /* The limbs now hold the value modulo 2^(limb bits * nlimbs); a negative
     * value's magnitude is its two's complement negation. */
    if (negative)
        mpn_neg(limbs, limbs, (mp_size_t)nlimbs);

    /* mpz_limbs_finish strips high zero limbs and takes the sign from the size. */
    mpz_limbs_finish(rop, negative ? -(mp_size_t)nlimbs : (mp_size_t)nlimbs);
}

size_t jbigi_encoded_length(const mpz_t value)
{
    if (mpz_sgn(value) == 0)
        return 1;
    size_t bits = mpz_sizeinbase(value, 2);
    /* BigInteger's bitLength of a negative value is that of -value - 1, one
     * less than |value|'s when |value| is a power of two (e.g. -128 fits in
     * 7 bits plus sign: one byte). */
    if (mpz_sgn(value) < 0 && mpz_scan1(value, 0) == bits - 1)
        bits--;
    return bits / 8 + 1;
}

/* Writes the low len bytes of limbs[0..n) big-endian into out, filling any
 * bytes above the n limbs with fill.  Bytes of limbs above len are dropped;
 * callers only drop sign extension. */
static void write_limbs(uint8_t *out, size_t len, const mp_limb_t *limbs,
                        size_t n, mp_limb_t invert, uint8_t fill)
{
    size_t i = 0;
    for (; i < n && (i + 1) * LIMB_BYTES <= len; i++)
        store_be_limb(out + len - (i + 1) * LIMB_BYTES, limbs[i] ^ invert);

    size_t written = i * LIMB_BYTES;
    if (i < n && written < len) {
        /* The top limb is only partly inside the output. */
        mp_limb_t top = limbs[i] ^ invert;
        for (size_t b = len - written; b-- > 0; top >>= 8)
            out[b] = (uint8_t)top;
        written = len;
    }
    memset(out, fill, len - written);
}

void jbigi_export(uint8_t *out, size_t len, const mpz_t value)
{
    if (mpz_sgn(value) >= 0) {
        write_limbs(out, len, mpz_limbs_read(value), mpz_size(value), 0, 0x00);
        return;
    }
    /* Two's complement of -m is the bitwise complement of m - 1, extended
     * with 0xff bytes.  Results of the arithmetic are never negative, so the
     * temporary only costs on the rare paths (and in tests). */
    mpz_t m_minus_1;
    mpz_init(m_minus_1);
    mpz_com(m_minus_1, value); /* -value - 1 = |value| - 1 >= 0 */
    write_limbs(out, len, mpz_limbs_read(m_minus_1), mpz_size(m_minus_1),
                ~(mp_limb_t)0, 0xff);
    mpz_clear(m_minus_1);
}
