/*
 * operands.h - random operands in toByteArray() form, for the random and
 * the bad-input checks.
 */
#ifndef JNI_HARNESS_OPERANDS_H
#define JNI_HARNESS_OPERANDS_H

#include "bigbytes.h"

/* A random non-negative number of exactly bits bits (bits >= 1); odd if odd. */
struct bytes operand_exact_bits(unsigned bits, int odd);

/*
 * A random number of about bits bits: random bytes, often with a boundary
 * top byte (0x7f, 0x80, 0xff: largest positive, smallest negative, -1
 * prefix), sometimes 0, 1 or -1.  Negative only if allow_negative.
 */
struct bytes operand_random(unsigned bits, int allow_negative);

#endif
