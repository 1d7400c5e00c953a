/*
 * jbigi.c - the JNI entry points of net.i2p.util.NativeBigInteger.
 *
 * Each entry point checks every argument before GMP sees it and turns a bad
 * one into a Java exception naming it, and runs GMP under jbigi_run_guarded
 * so that even exhausted memory becomes an OutOfMemoryError: nothing here
 * may abort the process.
 * One exit path per function clears every mpz_t, so the error paths leak
 * nothing.  No global mutable state: any number of threads may call in.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jbigi.h"
#include "arith.h"
#include "convert.h"
#include "cpu_check.h"
#include "fixedbase.h"
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

/* Largest fixed-base table, in limbs (128 MiB): far above any sensible
 * shape, low enough that a wrong shape cannot exhaust memory. */
#define JBIGI_MAX_TABLE_LIMBS ((size_t)16 * 1024 * 1024)

/* Operands up to this many limbs (4096 bits) and results up to this many
 * bytes stay on the stack; larger ones go to the heap. */
#define STACK_OPERAND_LIMBS 64
#define STACK_BUFFER_BYTES 1024

/* Called once when the JVM loads the library, before any GMP value exists. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    char refusal[512];
    (void)vm;
    (void)reserved;
    /* First: on a CPU without the instructions this variant was built for,
     * refuse (UnsatisfiedLinkError) rather than die of SIGILL in GMP. */
    if (jbigi_cpu_check(refusal, sizeof refusal) != 0) {
        fprintf(stderr, "%s\n", refusal);
        return JNI_ERR;
    }
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
    const char *class_name = "java/lang/ArithmeticException";
    if (status == JBIGI_BAD_TABLE)
        class_name = "java/lang/IllegalArgumentException";
    else if (status == JBIGI_NO_MEMORY)
        class_name = "java/lang/OutOfMemoryError";
    throw_new(env, class_name, jbigi_status_message(status));
}

/*
 * An operand as GMP sees it: a read-only mpz_t over limbs that live on the
 * stack for common sizes (no allocation per call) or on the heap.  Its
 * storage is wiped on release: exponents are often private keys.
 */
struct operand {
    mpz_t value;
    mp_limb_t *limbs;
    size_t nlimbs;
    mp_limb_t stack[STACK_OPERAND_LIMBS];
};

static void operand_init(struct operand *op)
{
    op->limbs = NULL;
    op->nlimbs = 0;
}

static void operand_release(struct operand *op)
{
    if (op->limbs != NULL) {
        explicit_bzero(op->limbs, op->nlimbs * sizeof(mp_limb_t));
        if (op->limbs != op->stack)
            free(op->limbs);
        op->limbs = NULL;
    }
}

/*
 * Reads the Java byte[] named name into op.  Returns 0 with a Java
 * exception pending when the array is null, empty or too large.  The bytes
 * are copied once, straight into the limb storage, and converted there.
 */
static int read_operand(JNIEnv *env, jbyteArray array, const char *name, struct operand *op)
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

    op->nlimbs = jbigi_limbs_for_bytes((size_t)len);
    op->limbs = op->stack;
    if (op->nlimbs > STACK_OPERAND_LIMBS) {
        op->limbs = malloc(op->nlimbs * sizeof(mp_limb_t));
        if (op->limbs == NULL) {
            throw_new(env, "java/lang/OutOfMemoryError", "jbigi: no memory for an operand");
            return 0;
        }
    }
    (*env)->GetByteArrayRegion(env, array, 0, len, (jbyte *)jbigi_bytes_slot(op->limbs, (size_t)len));
    mpz_roinit_n(op->value, op->limbs, jbigi_bytes_to_limbs(op->limbs, (size_t)len));
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
    /* Results can be secrets too (a Diffie-Hellman shared key). */
    explicit_bzero(bytes, len);
    if (bytes != stack_buffer)
        free(bytes);
    return result;
}

typedef enum jbigi_status (*power_op)(mpz_t r, const mpz_t base, const mpz_t exp, const mpz_t m);

/* One GMP call and its arguments, to run under jbigi_run_guarded. */
struct power_call {
    power_op op;
    mpz_ptr r;
    mpz_srcptr base, exp, mod;
};

static enum jbigi_status run_power_call(void *context)
{
    struct power_call *c = context;
    return c->op(c->r, c->base, c->exp, c->mod);
}

static enum jbigi_status run_inverse_call(void *context)
{
    struct power_call *c = context;
    return jbigi_modinverse(c->r, c->base, c->mod);
}

/* Reads the three operands, runs op, returns its result as a new byte[]. */
static jbyteArray run_power_op(JNIEnv *env, power_op op,
                               jbyteArray jbase, jbyteArray jexp, jbyteArray jmod)
{
    jbyteArray result = NULL;
    struct operand base, exp, mod;
    operand_init(&base);
    operand_init(&exp);
    operand_init(&mod);
    mpz_t r;
    mpz_init(r);

    if (!read_operand(env, jbase, "base", &base) ||
        !read_operand(env, jexp, "exponent", &exp) ||
        !read_operand(env, jmod, "modulus", &mod))
        goto done;
    struct power_call call = {op, r, base.value, exp.value, mod.value};
    enum jbigi_status status = jbigi_run_guarded(run_power_call, &call);
    if (status != JBIGI_OK) {
        throw_status(env, status);
        goto done;
    }
    result = new_result(env, r);
done:
    operand_release(&base);
    operand_release(&exp);
    operand_release(&mod);
    mpz_clear(r);
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
    struct operand value, mod;
    operand_init(&value);
    operand_init(&mod);
    mpz_t r;
    mpz_init(r);

    if (!read_operand(env, jbase, "value", &value) ||
        !read_operand(env, jmod, "modulus", &mod))
        goto done;
    struct power_call call = {NULL, r, value.value, NULL, mod.value};
    enum jbigi_status status = jbigi_run_guarded(run_inverse_call, &call);
    if (status != JBIGI_OK) {
        throw_status(env, status);
        goto done;
    }
    result = new_result(env, r);
done:
    operand_release(&value);
    operand_release(&mod);
    mpz_clear(r);
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

struct fb_build_call {
    mp_limb_t *table;
    size_t limbs;
    mpz_srcptr base, mod;
    unsigned rows, blocks;
    size_t max_exponent_bits;
};

static enum jbigi_status run_fb_build(void *context)
{
    struct fb_build_call *c = context;
    return jbigi_fb_build(c->table, c->limbs, c->base, c->mod, c->rows, c->blocks, c->max_exponent_bits);
}

struct fb_powm_call {
    mpz_ptr r;
    const mp_limb_t *table;
    size_t limbs;
    mpz_srcptr exp;
    int constant_time;
};

static enum jbigi_status run_fb_powm(void *context)
{
    struct fb_powm_call *c = context;
    return jbigi_fb_powm(c->r, c->table, c->limbs, c->exp, c->constant_time);
}

/*
 * The fixed-base table of base mod modulus as a long[] (one limb per long),
 * for exponents of up to maxExponentBits bits, with the comb shape
 * rows x blocks (see fixedbase.c).
 */
JNIEXPORT jlongArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeFixedBaseTable(JNIEnv *env, jclass cls, jbyteArray jbase,
                                                        jbyteArray jmod, jint rows, jint blocks,
                                                        jint maxExponentBits)
{
    (void)cls;
    jlongArray result = NULL;
    mp_limb_t *table = NULL;
    size_t limbs = 0;
    struct operand base_op, mod_op;
    operand_init(&base_op);
    operand_init(&mod_op);

    if (!read_operand(env, jbase, "base", &base_op) || !read_operand(env, jmod, "modulus", &mod_op))
        goto done;
    const mpz_srcptr base = base_op.value, mod = mod_op.value;
    if (sizeof(mp_limb_t) != sizeof(jlong)) {
        throw_new(env, "java/lang/UnsupportedOperationException", "fixed-base tables need 64-bit GMP limbs");
        goto done;
    }
    if (rows < 1 || rows > JBIGI_FB_MAX_ROWS || blocks < 1 || blocks > JBIGI_FB_MAX_BLOCKS ||
        maxExponentBits < 1 || (size_t)maxExponentBits > JBIGI_FB_MAX_EXPONENT_BITS) {
        throw_new(env, "java/lang/IllegalArgumentException", "fixed-base table shape out of range");
        goto done;
    }
    if (mpz_cmp_ui(mod, 1) <= 0 || mpz_even_p(mod)) {
        throw_status(env, JBIGI_MODULUS_TOO_SMALL);
        goto done;
    }
    limbs = jbigi_fb_table_limbs(mpz_size(mod), (unsigned)rows, (unsigned)blocks);
    if (limbs == 0 || limbs > JBIGI_MAX_TABLE_LIMBS) {
        throw_new(env, "java/lang/ArithmeticException", "fixed-base table would be too large");
        goto done;
    }
    table = malloc(limbs * sizeof(mp_limb_t));
    if (table == NULL) {
        throw_status(env, JBIGI_NO_MEMORY);
        goto done;
    }
    struct fb_build_call call = {table, limbs, base, mod, (unsigned)rows, (unsigned)blocks,
                                 (size_t)maxExponentBits};
    enum jbigi_status status = jbigi_run_guarded(run_fb_build, &call);
    if (status != JBIGI_OK) {
        throw_status(env, status);
        goto done;
    }
    result = (*env)->NewLongArray(env, (jsize)limbs);
    if (result != NULL)
        (*env)->SetLongArrayRegion(env, result, 0, (jsize)limbs, (const jlong *)table);
done:
    free(table);
    operand_release(&base_op);
    operand_release(&mod_op);
    return result;
}

/*
 * base^exponent mod modulus from a table made by nativeFixedBaseTable.  The
 * table is read in place (no copy of a few hundred KiB per call) inside a
 * critical region, during which nothing here calls back into the JVM.
 */
JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeFixedBaseModPow(JNIEnv *env, jclass cls, jlongArray jtable,
                                                         jbyteArray jexp, jboolean constantTime)
{
    (void)cls;
    jbyteArray result = NULL;
    struct operand exp;
    operand_init(&exp);
    mpz_t r;
    mpz_init(r);

    if (jtable == NULL) {
        throw_new(env, "java/lang/NullPointerException", "table is null");
        goto done;
    }
    if (!read_operand(env, jexp, "exponent", &exp))
        goto done;
    jsize length = (*env)->GetArrayLength(env, jtable);
    jlong *table = (*env)->GetPrimitiveArrayCritical(env, jtable, NULL);
    if (table == NULL)
        goto done; /* OutOfMemoryError pending */
    struct fb_powm_call call = {r, (const mp_limb_t *)table, (size_t)length, exp.value, constantTime == JNI_TRUE};
    enum jbigi_status status = jbigi_run_guarded(run_fb_powm, &call);
    (*env)->ReleasePrimitiveArrayCritical(env, jtable, table, JNI_ABORT);
    if (status != JBIGI_OK) {
        throw_status(env, status);
        goto done;
    }
    result = new_result(env, r);
done:
    operand_release(&exp);
    mpz_clear(r);
    return result;
}
