/*
 * jbigi.c - the JNI entry points of net.i2p.util.NativeBigInteger.
 *
 * Each entry point checks every argument before GMP sees it and turns a bad
 * one into a Java exception naming it (jni_util.c), and runs GMP under
 * jbigi_run_guarded, which in a static build turns exhausted memory into an
 * OutOfMemoryError (see wipe.h for where it does and does not).  The
 * fixed-base natives of FixedBase are in fixedbase_jni.c; the engine
 * switch of Engine is at the end.
 * One exit path per function clears every mpz_t, so the error paths leak
 * nothing.  No global mutable state: any number of threads may call in.
 */
#include <jni.h>

#include "jbigi.h"
#include "arith.h"
#include "cpu_check.h"
#include "engine.h"
#include "jni_util.h"
#include "version.h"
#include "wipe.h"

/* Version 4 is I2P's current library; 5 adds negative exponents in
 * nativeModPow (computed as BigInteger does, instead of refused). */
#define JBIGI_VERSION 5

/* Called once when the JVM loads the library, before any GMP value exists. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    char refusal[512];
    JNIEnv *env = NULL;
    (void)reserved;
    /* First: on a CPU without the instructions this variant was built for,
     * refuse rather than die of SIGILL in GMP.  The refusal is the message
     * of the UnsatisfiedLinkError that System.load throws (the JVM rethrows
     * an exception pending when JNI_OnLoad returns); nothing is printed. */
    if (jbigi_cpu_check(refusal, sizeof refusal) != 0) {
        if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) == JNI_OK && env != NULL)
            jbigi_throw(env, "java/lang/UnsatisfiedLinkError", refusal);
        return JNI_ERR;
    }
    jbigi_install_wiping_allocator();
    return JNI_VERSION_1_6;
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
    struct jbigi_operand base, exp, mod;
    jbigi_operand_init(&base);
    jbigi_operand_init(&exp);
    jbigi_operand_init(&mod);
    mpz_t r;
    mpz_init(r);

    if (!jbigi_read_operand(env, jbase, "base", &base) ||
        !jbigi_read_operand(env, jexp, "exponent", &exp) ||
        !jbigi_read_operand(env, jmod, "modulus", &mod))
        goto done;
    struct power_call call = {op, r, base.value, exp.value, mod.value};
    enum jbigi_status status = jbigi_run_guarded(run_power_call, &call);
    if (status != JBIGI_OK) {
        jbigi_throw_status(env, status);
        goto done;
    }
    result = jbigi_new_result(env, r);
done:
    jbigi_operand_release(&base);
    jbigi_operand_release(&exp);
    jbigi_operand_release(&mod);
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
    struct jbigi_operand value, mod;
    jbigi_operand_init(&value);
    jbigi_operand_init(&mod);
    mpz_t r;
    mpz_init(r);

    if (!jbigi_read_operand(env, jbase, "value", &value) ||
        !jbigi_read_operand(env, jmod, "modulus", &mod))
        goto done;
    struct power_call call = {NULL, r, value.value, NULL, mod.value};
    enum jbigi_status status = jbigi_run_guarded(run_inverse_call, &call);
    if (status != JBIGI_OK) {
        jbigi_throw_status(env, status);
        goto done;
    }
    result = jbigi_new_result(env, r);
done:
    jbigi_operand_release(&value);
    jbigi_operand_release(&mod);
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

JNIEXPORT void JNICALL
Java_net_i2p_util_Engine_nativeForceGmp(JNIEnv *env, jclass cls, jboolean force)
{
    (void)env;
    (void)cls;
    jbigi_engine_force_gmp(force == JNI_TRUE);
}

JNIEXPORT jstring JNICALL
Java_net_i2p_util_Engine_nativeName(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, jbigi_engine_name());
}

JNIEXPORT jstring JNICALL
Java_net_i2p_util_Engine_nativeNote(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, jbigi_engine_note());
}
