/*
 * bigbytes.h - integers as Java holds them at the JNI boundary: byte
 * arrays in BigInteger.toByteArray() form (big-endian two's complement,
 * the shortest that keeps the sign), without GMP, so the known-answer
 * vectors are checked on every platform.  Also unsigned big-endian arrays
 * for the fixed-length natives.
 */
#ifndef JNI_HARNESS_BIGBYTES_H
#define JNI_HARNESS_BIGBYTES_H

#include <stddef.h>

/* An owned byte string. */
struct bytes {
    unsigned char *p;
    size_t len;
};

void bytes_free(struct bytes *b);

/* n zero bytes. */
struct bytes bytes_zeros(size_t n);

/* A copy of len bytes at p (aborts when out of memory, as all these do). */
struct bytes bytes_copy(const void *p, size_t len);

/*
 * The toByteArray() form of a signed hexadecimal number ("-1f", "0",
 * "7fff", as test/vectors/ writes them: an optional minus sign, at least
 * one hex digit, nothing else).  Returns 0 if text is not such a number.
 */
int bytes_from_signed_hex(const char *text, struct bytes *out);

/* Whether the len bytes at p are in toByteArray() form: not empty, no
 * redundant leading 0x00 or 0xff byte. */
int bytes_canonical(const unsigned char *p, size_t len);

/* The toByteArray() form of any two's complement array (leading sign
 * bytes dropped); an empty array reads as 0. */
struct bytes bytes_canonicalize(const unsigned char *p, size_t len);

/* Sign of a two's complement array: -1, 0 or 1. */
int bytes_sign(const unsigned char *p, size_t len);

/* -x, in toByteArray() form. */
struct bytes bytes_negate(const struct bytes *x);

/* x * mul + add for a non-negative x, in toByteArray() form; the result
 * must not be negative. */
struct bytes bytes_affine(const struct bytes *x, unsigned mul, int add);

/* Whether a two's complement array is odd. */
int bytes_odd(const unsigned char *p, size_t len);

/* Bits of a non-negative array's value (0 for 0), as bitLength(). */
size_t bytes_bit_length(const unsigned char *p, size_t len);

/* A non-negative array's value as exactly width unsigned big-endian bytes
 * (zero-padded at the top); 0 if it does not fit. */
int bytes_unsigned(const unsigned char *p, size_t len, size_t width, struct bytes *out);

/* Whether two arrays are the same bytes. */
int bytes_equal(const unsigned char *a, size_t alen, const unsigned char *b, size_t blen);

/* The bytes in hex for messages, long ones shortened ("-" for NULL);
 * text_size at least 40. */
const char *bytes_hex(const unsigned char *p, size_t len, char *text, size_t text_size);

#endif
