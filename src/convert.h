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

#endif
