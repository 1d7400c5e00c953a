/*
 * convert.h - java.math.BigInteger byte form <-> GMP mpz_t.
 *
 * BigInteger.toByteArray() gives the value as big-endian two's complement in
 * the fewest bytes that still carry a sign bit.  These functions move values
 * between that form and mpz_t, limb at a time.  No JNI types appear here, so
 * the C tests and the fuzz targets can drive the conversion directly.
 */
#ifndef JBIGI_CONVERT_H
#define JBIGI_CONVERT_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

/*
 * Sets rop to the value of the len-byte big-endian two's complement number at
 * bytes.  len must be at least 1 (an empty array is not a number; the caller
 * rejects it first).  Leading sign bytes (0x00 or 0xff) are accepted, so
 * non-canonical input reads as the same value.
 */
void jbigi_import(mpz_t rop, const uint8_t *bytes, size_t len);

/* Limbs that hold a len-byte operand (len >= 1). */
size_t jbigi_limbs_for_bytes(size_t len);

/*
 * In-place conversion, for callers that copy the bytes straight into limb
 * storage (the JNI layer: no intermediate byte buffer, no allocation).
 * jbigi_bytes_slot says where in a buffer of jbigi_limbs_for_bytes(len)
 * limbs the len bytes go; once they are there, jbigi_bytes_to_limbs turns
 * the buffer into the value's limbs and returns the signed, normalized size
 * that mpz_roinit_n takes (negative for negative values, 0 for zero).
 */
unsigned char *jbigi_bytes_slot(mp_limb_t *limbs, size_t len);
mp_size_t jbigi_bytes_to_limbs(mp_limb_t *limbs, size_t len);

/*
 * The length of toByteArray() for value: bitLength() / 8 + 1, where
 * bitLength counts the bits of value without its sign bit.  Zero is one byte.
 */
size_t jbigi_encoded_length(const mpz_t value);

/*
 * Writes value into out as exactly len bytes of big-endian two's complement,
 * sign-extended at the top.  len must be at least jbigi_encoded_length(value);
 * with that length the output is byte for byte what toByteArray() returns.
 */
void jbigi_export(uint8_t *out, size_t len, const mpz_t value);

/*
 * Fixed-width forms, for the constant-time paths, where a secret's own
 * length must not decide the work: loop counts and the limbs written follow
 * the width the caller gives (a public width: an exponent's own limb
 * count, a stated bound's, or the modulus' for a result), never the value.
 */

/*
 * limbs[0..n) = the low 8 n bytes of the len-byte unsigned big-endian
 * number at bytes (len >= 1); bytes above the low 8 n are not read.  Every
 * one of the 8 n byte positions is visited: a position at or past len reads
 * bytes[0] (an index clamped under a mask, so never outside the array) and
 * keeps none of it.  Branch-free in len and in the bytes.
 */
void jbigi_unsigned_to_limbs(mp_limb_t *limbs, size_t n, const uint8_t *bytes, size_t len);

/*
 * Writes limbs[0..n) into out as exactly len bytes of unsigned big-endian,
 * zero-padded at the top (bytes of the limbs above len are dropped: callers
 * pass values that fit).  The loop follows len and n only.
 */
void jbigi_limbs_to_unsigned(uint8_t *out, size_t len, const mp_limb_t *limbs, size_t n);

/*
 * The length of toByteArray() for the unsigned value at bytes[0..len),
 * which must already carry one leading zero byte (bytes[0] == 0), and
 * where it starts: returns k, so that bytes[len - k .. len) is the
 * value's two's complement form.  Reads all len bytes, branch-free.
 */
size_t jbigi_canonical_length(const uint8_t *bytes, size_t len);

#endif
