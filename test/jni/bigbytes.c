/*
 * bigbytes.c - toByteArray() arrays without GMP.  Negative values use the
 * identity -x = ~(x - 1): a negative number's array is the bitwise
 * complement of the array of its magnitude less one, at the length that
 * magnitude less one needs plus a sign bit (which is BigInteger's length,
 * bitLength() / 8 + 1).
 */
#include "bigbytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *need(void *p)
{
    if (p == NULL) {
        fprintf(stderr, "jni_harness: out of memory\n");
        abort();
    }
    return p;
}

void bytes_free(struct bytes *b)
{
    free(b->p);
    b->p = NULL;
    b->len = 0;
}

struct bytes bytes_zeros(size_t n)
{
    struct bytes b = {need(calloc(n > 0 ? n : 1, 1)), n};
    return b;
}

struct bytes bytes_copy(const void *p, size_t len)
{
    struct bytes b = {need(malloc(len > 0 ? len : 1)), len};
    if (len > 0)
        memcpy(b.p, p, len);
    return b;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Bits of the unsigned big-endian value at p. */
static size_t unsigned_bits(const unsigned char *p, size_t len)
{
    size_t i = 0;
    while (i < len && p[i] == 0)
        i++;
    if (i == len)
        return 0;
    size_t bits = 8 * (len - i - 1);
    for (unsigned top = p[i]; top != 0; top >>= 1)
        bits++;
    return bits;
}

/*
 * The toByteArray() form of (negative ? -(m) : m) for the unsigned
 * big-endian magnitude m at mag (mag is modified: m - 1 for a negative).
 */
static struct bytes from_magnitude(unsigned char *mag, size_t len, int negative)
{
    if (negative && unsigned_bits(mag, len) == 0)
        negative = 0; /* -0 is 0 */
    if (negative) {
        for (size_t i = len; i-- > 0;) { /* m - 1; m > 0, so it stops */
            if (mag[i]-- != 0)
                break;
        }
    }
    const size_t n = unsigned_bits(mag, len) / 8 + 1;
    struct bytes out = {need(calloc(n, 1)), n};
    for (size_t i = 0; i < n && i < len; i++)
        out.p[n - 1 - i] = mag[len - 1 - i];
    if (negative) {
        for (size_t i = 0; i < n; i++)
            out.p[i] = (unsigned char)~out.p[i];
    }
    return out;
}

int bytes_from_signed_hex(const char *text, struct bytes *out)
{
    const int negative = text[0] == '-';
    const char *digits = text + negative;
    const size_t ndigits = strlen(digits);
    if (ndigits == 0)
        return 0;
    const size_t len = (ndigits + 1) / 2;
    unsigned char *mag = need(calloc(len, 1));
    for (size_t i = 0; i < ndigits; i++) {
        const int d = hex_digit(digits[ndigits - 1 - i]);
        if (d < 0) {
            free(mag);
            return 0;
        }
        mag[len - 1 - i / 2] |= (unsigned char)(i % 2 ? d << 4 : d);
    }
    *out = from_magnitude(mag, len, negative);
    free(mag);
    return 1;
}

int bytes_canonical(const unsigned char *p, size_t len)
{
    if (len == 0)
        return 0;
    if (len == 1)
        return 1;
    return !(p[0] == 0x00 && !(p[1] & 0x80)) && !(p[0] == 0xff && (p[1] & 0x80));
}

struct bytes bytes_canonicalize(const unsigned char *p, size_t len)
{
    if (len == 0) {
        unsigned char zero = 0;
        return bytes_copy(&zero, 1);
    }
    size_t i = 0;
    while (i + 1 < len && !bytes_canonical(p + i, len - i))
        i++;
    return bytes_copy(p + i, len - i);
}

struct bytes bytes_negate(const struct bytes *x)
{
    /* One more byte, sign-extended, so that -x always fits; then ~x + 1. */
    struct bytes wide = bytes_zeros(x->len + 1);
    wide.p[0] = x->len > 0 && (x->p[0] & 0x80) ? 0xff : 0x00;
    if (x->len > 0)
        memcpy(wide.p + 1, x->p, x->len);
    for (size_t i = 0; i < wide.len; i++)
        wide.p[i] = (unsigned char)~wide.p[i];
    for (size_t i = wide.len; i-- > 0;) {
        if (++wide.p[i] != 0)
            break;
    }
    struct bytes out = bytes_canonicalize(wide.p, wide.len);
    bytes_free(&wide);
    return out;
}

struct bytes bytes_affine(const struct bytes *x, unsigned mul, int add)
{
    /* Schoolbook on bytes, least significant first, with room for the
     * carries (mul and add below 2^24). */
    const size_t n = x->len + 4;
    struct bytes wide = bytes_zeros(n);
    long long carry = add;
    for (size_t i = 0; i < n; i++) {
        const unsigned digit = i < x->len ? x->p[x->len - 1 - i] : 0;
        long long t = (long long)digit * mul + carry;
        long long low = t % 256;
        if (low < 0)
            low += 256;
        wide.p[n - 1 - i] = (unsigned char)low;
        carry = (t - low) / 256;
    }
    struct bytes out = bytes_canonicalize(wide.p, wide.len);
    bytes_free(&wide);
    return out;
}

int bytes_sign(const unsigned char *p, size_t len)
{
    if (len == 0)
        return 0;
    if (p[0] & 0x80)
        return -1;
    return unsigned_bits(p, len) == 0 ? 0 : 1;
}

int bytes_odd(const unsigned char *p, size_t len)
{
    return len > 0 && (p[len - 1] & 1);
}

size_t bytes_bit_length(const unsigned char *p, size_t len)
{
    return unsigned_bits(p, len);
}

int bytes_unsigned(const unsigned char *p, size_t len, size_t width, struct bytes *out)
{
    const size_t bits = unsigned_bits(p, len);
    if (bits > 8 * width)
        return 0;
    struct bytes b = {need(calloc(width > 0 ? width : 1, 1)), width};
    for (size_t i = 0; i < width && i < len; i++)
        b.p[width - 1 - i] = p[len - 1 - i];
    *out = b;
    return 1;
}

int bytes_equal(const unsigned char *a, size_t alen, const unsigned char *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

const char *bytes_hex(const unsigned char *p, size_t len, char *text, size_t text_size)
{
    static const char digits[] = "0123456789abcdef";
    if (p == NULL) {
        snprintf(text, text_size, "-");
        return text;
    }
    /* Long values shortened to their first 8 bytes and their length
     * (text_size must leave room for that: 40 bytes). */
    const size_t shown = 2 * len + 1 <= text_size ? len : 8;
    size_t at = 0;
    for (size_t i = 0; i < shown; i++) {
        text[at++] = digits[p[i] >> 4];
        text[at++] = digits[p[i] & 15];
    }
    text[at] = '\0';
    if (shown < len)
        snprintf(text + at, text_size - at, "...(%zu bytes)", len);
    return text;
}
