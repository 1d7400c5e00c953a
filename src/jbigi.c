/*
 * jbigi.c - the JNI entry points of net.i2p.util.NativeBigInteger.
 *
 * Each entry point checks every argument before GMP sees it and turns a bad
 * one into a Java exception naming it; nothing here may abort the process.
 * One exit path per function clears every mpz_t, so the error paths leak
 * nothing.  No global mutable state: any number of threads may call in.
 */
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jbigi.h"
#include "arith.h"
#include "convert.h"
#include "version.h"
#include "wipe.h"

/* Version 4 is I2P's current library; 5 adds negative exponents in
 * nativeModPow (computed as BigInteger does, instead of refused). */
#define JBIGI_VERSION 5

/*
 * Largest operand accepted, in bytes (128 Mbit).  GMP cannot report a failed
 * allocation: it prints "cannot allocate memory" and aborts the whole JVM.
 * Refusing absurd sizes up front keeps a caller's mistake a Java exception.
 */
#define JBIGI_MAX_OPERAND_BYTES (16L * 1024 * 1024)

/* Operands up to this size are copied to the stack, larger ones to the heap. */
#define STACK_BUFFER_BYTES 1024

/* Called once when the JVM loads the library, before any GMP value exists. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)vm;
    (void)reserved;
    jbigi_install_wiping_allocator();
    return JNI_VERSION_1_6;
}

static void throw_new(JNIEnv *env, const char *class_name, const char *message)
{
    jclass cls = (*env)->FindClass(env, class_name);
    /* If even the exception class cannot be found, FindClass has left a
     * NoClassDefFoundError pending, which is thrown instead. */
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, message);
        (*env)->DeleteLocalRef(env, cls);
    }
}

static void throw_status(JNIEnv *env, enum jbigi_status status)
{
    throw_new(env, "java/lang/ArithmeticException", jbigi_status_message(status));
}

/*
 * Reads the Java byte[] named name into value.  Returns 0 with a Java
 * exception pending when the array is null, empty or too large.
 */
static int read_operand(JNIEnv *env, jbyteArray array, const char *name, mpz_t value)
{
    char message[128];
    if (array == NULL) {
        snprintf(message, sizeof message, "%s is null", name);
        throw_new(env, "java/lang/NullPointerException", message);
        return 0;
    }
    jsize len = (*env)->GetArrayLength(env, array);
    if (len == 0) {
        /* What new BigInteger(new byte[0]) throws. */
        throw_new(env, "java/lang/NumberFormatException", "Zero length BigInteger");
        return 0;
    }
    if (len > JBIGI_MAX_OPERAND_BYTES) {
        snprintf(message, sizeof message,
                 "%s is %ld bytes, more than jbigi's limit of %ld bytes",
                 name, (long)len, (long)JBIGI_MAX_OPERAND_BYTES);
        throw_new(env, "java/lang/ArithmeticException", message);
        return 0;
    }

    uint8_t stack_buffer[STACK_BUFFER_BYTES];
    uint8_t *bytes = stack_buffer;
    if (len > STACK_BUFFER_BYTES) {
        bytes = malloc((size_t)len);
        if (bytes == NULL) {
            throw_new(env, "java/lang/OutOfMemoryError", "jbigi: no memory for an operand copy");
            return 0;
        }
    }
    (*env)->GetByteArrayRegion(env, array, 0, len, (jbyte *)bytes);
    jbigi_import(value, bytes, (size_t)len);
    if (bytes != stack_buffer)
        free(bytes);
    return 1;
}

/* A new byte[] holding value in toByteArray() form; NULL with an exception
 * pending if the JVM cannot allocate it. */
static jbyteArray new_result(JNIEnv *env, const mpz_t value)
{
    size_t len = jbigi_encoded_length(value);
    jbyteArray result = (*env)->NewByteArray(env, (jsize)len);
    if (result == NULL)
        return NULL;

    uint8_t stack_buffer[STACK_BUFFER_BYTES];
    uint8_t *bytes = stack_buffer;
    if (len > STACK_BUFFER_BYTES) {
        bytes = malloc(len);
        if (bytes == NULL) {
            throw_new(env, "java/lang/OutOfMemoryError", "jbigi: no memory for a result copy");
            return NULL;
        }
    }
    jbigi_export(bytes, len, value);
    (*env)->SetByteArrayRegion(env, result, 0, (jsize)len, (const jbyte *)bytes);
    if (bytes != stack_buffer)
        free(bytes);
    return result;
}

typedef enum jbigi_status (*power_op)(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m);

/* Reads the three operands, runs op, returns its result as a new byte[]. */
static jbyteArray run_power_op(JNIEnv *env, power_op op,
                               jbyteArray jbase, jbyteArray jexp, jbyteArray jmod)
{
    jbyteArray result = NULL;
    mpz_t base, exp, mod, r;
    mpz_inits(base, exp, mod, r, NULL);

    if (!read_operand(env, jbase, "base", base) ||
        !read_operand(env, jexp, "exponent", exp) ||
        !read_operand(env, jmod, "modulus", mod))
        goto done;
    enum jbigi_status status = op(r, base, exp, mod);
    if (status != JBIGI_OK) {
        throw_status(env, status);
        goto done;
    }
    result = new_result(env, r);
done:
    mpz_clears(base, exp, mod, r, NULL);
    return result;
}

JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeModPow(JNIEnv *env, jclass cls,
                                                jbyteArray jbase, jbyteArray jexp, jbyteArray jmod)
{
    (void)cls;
    return run_power_op(env, jbigi_modpow, jbase, jexp, jmod);
}

JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeModPowCT(JNIEnv *env, jclass cls,
                                                  jbyteArray jbase, jbyteArray jexp, jbyteArray jmod)
{
    (void)cls;
    return run_power_op(env, jbigi_modpow_ct, jbase, jexp, jmod);
}

JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeModInverse(JNIEnv *env, jclass cls,
                                                    jbyteArray jbase, jbyteArray jmod)
{
    (void)cls;
    jbyteArray result = NULL;
    mpz_t base, mod, r;
    mpz_inits(base, mod, r, NULL);

    if (!read_operand(env, jbase, "value", base) ||
        !read_operand(env, jmod, "modulus", mod))
        goto done;
    enum jbigi_status status = jbigi_modinverse(r, base, mod);
    if (status != JBIGI_OK) {
        throw_status(env, status);
        goto done;
    }
    result = new_result(env, r);
done:
    mpz_clears(base, mod, r, NULL);
    return result;
}

JNIEXPORT jint JNICALL
Java_net_i2p_util_NativeBigInteger_nativeJbigiVersion(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return JBIGI_VERSION;
}

/* The GMP actually running, which for a dynamic build may differ from the
 * gmp.h this was compiled against. */
JNIEXPORT jint JNICALL
Java_net_i2p_util_NativeBigInteger_nativeGMPMajorVersion(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return jbigi_gmp_version_part(gmp_version, 0);
}

JNIEXPORT jint JNICALL
Java_net_i2p_util_NativeBigInteger_nativeGMPMinorVersion(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return jbigi_gmp_version_part(gmp_version, 1);
}

JNIEXPORT jint JNICALL
Java_net_i2p_util_NativeBigInteger_nativeGMPPatchVersion(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return jbigi_gmp_version_part(gmp_version, 2);
}
