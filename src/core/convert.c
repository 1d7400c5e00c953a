/*
 * convert.c - big-endian two's complement bytes <-> mpz_t, a limb at a time.
 *
 * mpz_import/mpz_export with one-byte words walk the data a byte at a time
 * and know nothing of two's complement.  Here the bytes land right-aligned
 * in the limb storage itself, are sign-extended to whole limbs, and are
 * turned into limbs in place with one byte-swapping load per limb;
 * negatives are negated in place with mpn_neg.
 */
#include "core/convert.h"

#include <string.h>

#include "support/opaque.h"

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

/* All ones if a < b, else 0, for a, b < 2^(bits - 1); hidden from the
 * compiler (opaque.h), which could otherwise turn the mask back into a
 * branch. */
static inline size_t mask_below(size_t a, size_t b)
{
    size_t mask = (size_t)0 - ((a - b) >> (sizeof(size_t) * 8 - 1));
    JBIGI_OPAQUE(mask);
    return mask;
}

void jbigi_unsigned_to_limbs(mp_limb_t *limbs, size_t n, const uint8_t *bytes, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        mp_limb_t limb = 0;
        for (size_t b = 0; b < LIMB_BYTES; b++) {
            const size_t position = i * LIMB_BYTES + b; /* from the least significant byte */
            const size_t inside = mask_below(position, len);
            const uint8_t byte = bytes[(len - 1 - position) & inside] & (uint8_t)inside;
            limb |= (mp_limb_t)byte << (8 * b);
        }
        limbs[i] = limb;
    }
}

void jbigi_limbs_to_unsigned(uint8_t *out, size_t len, const mp_limb_t *limbs, size_t n)
{
    size_t i = 0;
    for (; i < n && (i + 1) * LIMB_BYTES <= len; i++)
        store_be_limb(out + len - (i + 1) * LIMB_BYTES, limbs[i]);
    size_t written = i * LIMB_BYTES;
    if (i < n && written < len) {
        mp_limb_t top = limbs[i];
        for (size_t b = len - written; b-- > 0; top >>= 8)
            out[b] = (uint8_t)top;
        written = len;
    }
    memset(out, 0, len - written);
}

size_t jbigi_canonical_length(const uint8_t *bytes, size_t len)
{
    /* The first non-zero byte, found without a branch: once one is seen,
     * `leading` stops growing. */
    size_t leading = 0, seen = 0;
    for (size_t i = 0; i < len; i++) {
        size_t nonzero = mask_below(0, bytes[i]);
        seen |= nonzero;
        leading += ~seen & 1;
    }
    /* Zero is one byte; otherwise keep a zero byte above a set top bit. */
    const size_t all_zero = ~seen;
    const size_t first = leading < len ? leading : len - 1;
    const size_t top_bit = mask_below(0x7f, bytes[first]) & seen;
    size_t start = leading - (top_bit & 1);
    start = (start & ~all_zero) | ((len - 1) & all_zero);
    return len - start;
}

size_t jbigi_limbs_for_bytes(size_t len)
{
    return (len + LIMB_BYTES - 1) / LIMB_BYTES;
}

unsigned char *jbigi_bytes_slot(mp_limb_t *limbs, size_t len)
{
    /* Right-aligned, so the buffer reads as one big-endian number. */
    return (unsigned char *)limbs + jbigi_limbs_for_bytes(len) * LIMB_BYTES - len;
}

mp_size_t jbigi_bytes_to_limbs(mp_limb_t *limbs, size_t len)
{
    /* No bytes: no limbs to read, and n - 1 below would wrap around. */
    if (len == 0)
        return 0;
    const size_t n = jbigi_limbs_for_bytes(len);
    unsigned char *buf = (unsigned char *)limbs;
    const size_t pad = n * LIMB_BYTES - len;
    const int negative = (buf[pad] & 0x80) != 0;

    /* Sign-extend into the padding: the buffer is now the value in two's
     * complement over n whole limbs, most significant limb first. */
    memset(buf, negative ? 0xff : 0x00, pad);

    /* Reverse the limb order and byte-swap each limb, pairwise in place. */
    size_t i = 0, j = n - 1;
    for (; i < j; i++, j--) {
        mp_limb_t low = load_be_limb(buf + j * LIMB_BYTES);
        mp_limb_t high = load_be_limb(buf + i * LIMB_BYTES);
        limbs[i] = low;
        limbs[j] = high;
    }
    if (i == j)
        limbs[i] = load_be_limb(buf + i * LIMB_BYTES);

    /* A negative value's magnitude is its two's complement negation. */
    if (negative)
        mpn_neg(limbs, limbs, (mp_size_t)n);
    mp_size_t size = (mp_size_t)n;
    while (size > 0 && limbs[size - 1] == 0)
        size--;
    return negative ? -size : size;
}

void jbigi_import(mpz_t rop, const uint8_t *bytes, size_t len)
{
    mp_limb_t *limbs = mpz_limbs_write(rop, (mp_size_t)jbigi_limbs_for_bytes(len));
    memcpy(jbigi_bytes_slot(limbs, len), bytes, len);
    /* mpz_limbs_finish takes the sign from the size and strips zero limbs. */
    mpz_limbs_finish(rop, jbigi_bytes_to_limbs(limbs, len));
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
