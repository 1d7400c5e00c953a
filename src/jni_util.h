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

#include "arith.h"

/*
 * Largest operand accepted, in bytes (128 Mbit).  GMP cannot report a failed
 * allocation, so absurd sizes are refused before GMP sees them: a caller's
 * mistake stays a Java exception.
 */
#define JBIGI_MAX_OPERAND_BYTES (16L * 1024 * 1024)

/* Operands up to this many limbs (4096 bits) stay on the stack. */
#define JBIGI_STACK_OPERAND_LIMBS 64

/* Throws a new class_name (a JNI class name) with message. */
void jbigi_throw(JNIEnv *env, const char *class_name, const char *message);

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

#endif
