/*
 * jni_util.h - what every JNI entry point of jbigi needs: Java exceptions
 * with precise messages, operands read from byte[] into limbs without an
 * allocation for common sizes, and results written back as new byte[].
 * The arithmetic itself lives in files that know nothing of JNI.
 */
#ifndef JBIGI_JNI_UTIL_H
#define JBIGI_JNI_UTIL_H

#include <jni.h>
#include <gmp.h>

#include "jbigi.h"
#include "core/arith.h"
#include "jni/onload.h"

/*
 * Largest operand accepted, in bytes: NativeBigInteger.NATIVE_MAX_BYTES,
 * which javac -h writes into include/jbigi.h, so Java and C share one
 * limit.  GMP cannot report a failed allocation, so absurd sizes are
 * refused before GMP sees them: a caller's mistake stays a Java exception.
 * The Java side's bit limits derive from it; the asserts hold them to it.
 */
#define JBIGI_MAX_OPERAND_BYTES net_i2p_util_NativeBigInteger_NATIVE_MAX_BYTES
_Static_assert(net_i2p_util_NativeBigInteger_NATIVE_MAX_BITS == 8 * JBIGI_MAX_OPERAND_BYTES - 1,
               "NATIVE_MAX_BITS: the largest positive value a NATIVE_MAX_BYTES array holds");
_Static_assert(JBIGI_MAX_OPERAND_BYTES > 0 && JBIGI_MAX_OPERAND_BYTES <= 0x7fffffff / 8,
               "the limit, in bits, fits a jint and a long");

/* Operands up to this many limbs (4096 bits, every size I2P uses) stay on
 * the stack, so the common calls allocate nothing; longer ones take the heap. */
#define JBIGI_STACK_OPERAND_LIMBS 64

/* jbigi_throw(env, class_name, message): in onload.c, compiled for the
 * baseline, since JNI_OnLoad's refusal uses it too. */

/* Throws the exception that status maps to, with its sentence. */
void jbigi_throw_status(JNIEnv *env, enum jbigi_status status);

/*
 * An operand as GMP sees it: a read-only mpz_t over limbs on the stack for
 * common sizes, on the heap for larger ones.  Its storage is wiped on
 * release: exponents are often private keys.
 */
struct jbigi_operand {
    mpz_t value;
    mp_limb_t *limbs;
    size_t nlimbs;
    mp_limb_t stack[JBIGI_STACK_OPERAND_LIMBS];
};

void jbigi_operand_init(struct jbigi_operand *op);
void jbigi_operand_release(struct jbigi_operand *op);

/*
 * Reads the Java byte[] (toByteArray() form) named name into op.  Returns 0
 * with a Java exception pending when it is null, empty or too large.
 */
int jbigi_read_operand(JNIEnv *env, jbyteArray array, const char *name, struct jbigi_operand *op);

/* A new byte[] holding value in toByteArray() form, or NULL with an
 * exception pending.  The staging copy is wiped. */
jbyteArray jbigi_new_result(JNIEnv *env, const mpz_t value);

/*
 * ---- Fixed width, for the constant-time paths ----
 *
 * A secret exponent is read into a buffer whose size, and whose stack or
 * heap placement, follow a public width the caller gives: the exponent's
 * own limb count (jbigi_exponent_own_limbs) or a stated bound's; the
 * bytes are read in place (a JNI critical region held for the copy only)
 * by a loop over that width with masked indices (jbigi_unsigned_to_limbs),
 * so that width, never the value, decides every branch, loop count and
 * allocation.
 */

/* Checks that array is not null, not empty and within the size limit,
 * naming it in the exception; returns its length, or 0 with an exception
 * pending. */
jsize jbigi_check_array(JNIEnv *env, jbyteArray array, const char *name);

/* The largest exponent bound accepted: NativeBigInteger.MAX_BOUND_BITS
 * (include/jbigi.h), the operand size limit's bits. */
#define JBIGI_MAX_BOUND_BITS net_i2p_util_NativeBigInteger_MAX_BOUND_BITS
_Static_assert(JBIGI_MAX_BOUND_BITS == 8 * JBIGI_MAX_OPERAND_BYTES, "the bound limit is the size limit's bits");

/* 1 if 1 <= bound_bits <= JBIGI_MAX_BOUND_BITS; else 0, with an
 * IllegalArgumentException pending that gives the range. */
int jbigi_check_bound(JNIEnv *env, jint bound_bits);

/* Outcomes of jbigi_read_exponent_fixed. */
#define JBIGI_FIXED_FAILED 0 /* a Java exception is pending */
#define JBIGI_FIXED_READ 1   /* op holds the exponent as exactly n limbs */
#define JBIGI_FIXED_WIDER 2  /* the exponent does not fit n limbs: nothing read */

/*
 * Reads a positive exponent in toByteArray() form (array checked by
 * jbigi_check_array, len bytes) into op->limbs as exactly n limbs.  It fits
 * when len <= 8 n, or len = 8 n + 1 with a zero sign byte: every positive
 * value below 2^(64 n), which is how the arrays of all exponents of up to
 * n limbs look (n: the exponent's own limb count, a bound's, or a table's
 * reach).  op->value is not set (normalising it would
 * branch on the value).  A negative exponent reads as JBIGI_FIXED_WIDER:
 * the caller's general path refuses it.
 */
int jbigi_read_exponent_fixed(JNIEnv *env, jbyteArray array, jsize len, size_t n, struct jbigi_operand *op);

/*
 * The limbs of the exponent in array (toByteArray() form, checked by
 * jbigi_check_array, len bytes) at its own width: ceil(len / 8), one less
 * when the array is one sign byte (zero) over whole limbs.  For an array
 * in toByteArray() form that is the value's limb count (what bitLength
 * shows), whatever its bits below; the first byte is read to tell a sign
 * byte from a value byte, without a branch on it.  0 for a negative
 * exponent (the caller's general path refuses it).
 */
size_t jbigi_exponent_own_limbs(JNIEnv *env, jbyteArray array, jsize len);

/*
 * 1 if the en = ceil(bits / 64) limbs at e hold a value below 2^bits,
 * found without a branch on the limbs: only the top limb can hold more.
 */
int jbigi_limbs_below_bits(const mp_limb_t *e, size_t en, size_t bits);

/*
 * Reads an unsigned big-endian array (checked by jbigi_check_array, len
 * bytes) into op->limbs as max(min_limbs, ceil(len / 8)) limbs, in the
 * fixed-width way.  public_value: also set op->value (normalised, which
 * branches on the value: for the base and the modulus only).
 */
int jbigi_read_unsigned(JNIEnv *env, jbyteArray array, jsize len, size_t min_limbs, int public_value,
                        struct jbigi_operand *op);

/* op->limbs = n zeroed limbs, on the stack or the heap as n says (a
 * result's space); 0 with OutOfMemoryError pending. */
int jbigi_operand_space(JNIEnv *env, size_t n, struct jbigi_operand *op);

/*
 * A new byte[] holding the n limbs at limbs in toByteArray() form, staged
 * in a buffer sized from n (the modulus' limbs) and found by a loop over
 * all of it; only the new array's length, which BigInteger's form makes
 * the value's own, and the JVM's copy into it follow the value.
 */
jbyteArray jbigi_new_result_fixed(JNIEnv *env, const mp_limb_t *limbs, size_t n);

/* A new byte[] of exactly len bytes: the n limbs at limbs, unsigned
 * big-endian, zero-padded (the value must fit). */
jbyteArray jbigi_new_unsigned_result(JNIEnv *env, const mp_limb_t *limbs, size_t n, size_t len);

#endif
