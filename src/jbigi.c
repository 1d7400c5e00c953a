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

/* One constant-time power on limbs already read, to run under jbigi_run_guarded. */
struct ct_call {
    mp_limb_t *rp;
    mpz_srcptr base, mod;
    const mp_limb_t *e;
    mp_size_t en;
};

static enum jbigi_status run_ct_call(void *context)
{
    struct ct_call *c = context;
    return jbigi_modpow_ct_limbs(c->rp, c->base, c->e, c->en, c->mod);
}

/* 1 if the en limbs at e are all zero, found without a branch on them. */
static int all_zero(const mp_limb_t *e, size_t en)
{
    mp_limb_t any = 0;
    for (size_t i = 0; i < en; i++)
        any |= e[i];
    return any == 0;
}

/*
 * The I2P contract, in constant time to the edge: the exponent is read at
 * the modulus' limb width (jbigi_read_exponent_fixed), so its array's
 * length decides no copy, loop, pad or buffer.  An exponent wider than the
 * modulus (or negative) takes the general path, where its width shows;
 * which of the two runs is decided by the modulus' width alone.  The
 * result comes back in toByteArray() form, whose length is the value's
 * (what BigInteger reveals itself).
 */
JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeModPowCT(JNIEnv *env, jclass cls,
                                                  jbyteArray jbase, jbyteArray jexp, jbyteArray jmod)
{
    (void)cls;
    jbyteArray result = NULL;
    struct jbigi_operand base, exp, mod, r;
    jbigi_operand_init(&base);
    jbigi_operand_init(&exp);
    jbigi_operand_init(&mod);
    jbigi_operand_init(&r);
    mpz_t wide_result; /* for the general path */
    mpz_init(wide_result);

    /* Every argument checked in order (base, exponent, modulus) before the
     * exponent is read, which needs the modulus' width. */
    if (!jbigi_read_operand(env, jbase, "base", &base))
        goto done;
    if (jexp == NULL || (*env)->GetArrayLength(env, jexp) == 0) {
        jbigi_read_operand(env, jexp, "exponent", &exp); /* throws its exception */
        goto done;
    }
    const jsize exp_len = (*env)->GetArrayLength(env, jexp);
    if (!jbigi_read_operand(env, jmod, "modulus", &mod))
        goto done;
    if (mpz_sgn(mod.value) <= 0 || mpz_even_p(mod.value)) {
        jbigi_throw_status(env, mpz_sgn(mod.value) <= 0 ? JBIGI_MODULUS_NOT_POSITIVE : JBIGI_MODULUS_EVEN);
        goto done;
    }
    const size_t n = mpz_size(mod.value);
    int read = exp_len > JBIGI_MAX_OPERAND_BYTES ? JBIGI_FIXED_WIDER
                                                  : jbigi_read_exponent_fixed(env, jexp, exp_len, n, &exp);
    if (read == JBIGI_FIXED_FAILED)
        goto done;
    if (read == JBIGI_FIXED_WIDER) {
        /* Wider than the modulus, negative, or over the limit: the general
         * path checks and computes it. */
        if (!jbigi_read_operand(env, jexp, "exponent", &exp))
            goto done;
        struct power_call call = {jbigi_modpow_ct, wide_result, base.value, exp.value, mod.value};
        enum jbigi_status status = jbigi_run_guarded(run_power_call, &call);
        if (status != JBIGI_OK)
            jbigi_throw_status(env, status);
        else
            result = jbigi_new_result(env, wide_result);
        goto done;
    }
    if (all_zero(exp.limbs, n)) {
        jbigi_throw_status(env, JBIGI_EXPONENT_NOT_POSITIVE);
        goto done;
    }
    /* The result's limbs, sized from the modulus like the exponent's. */
    if (!jbigi_operand_space(env, n, &r))
        goto done;
    struct ct_call call = {r.limbs, base.value, mod.value, exp.limbs, (mp_size_t)n};
    enum jbigi_status status = jbigi_run_guarded(run_ct_call, &call);
    if (status != JBIGI_OK) {
        jbigi_throw_status(env, status);
        goto done;
    }
    result = jbigi_new_result_fixed(env, r.limbs, n);
done:
    jbigi_operand_release(&base);
    jbigi_operand_release(&exp);
    jbigi_operand_release(&mod);
    jbigi_operand_release(&r);
    mpz_clear(wide_result);
    return result;
}

/*
 * The fixed-length form: unsigned big-endian arrays in, the result as
 * exactly the modulus' array length out.  The exponent is read at
 * max(the modulus' limbs, its own array's limbs): the array's length is the
 * caller's fixed format, public; its value reaches no branch, loop count
 * or buffer choice.  Rules (NativeBigInteger.modPowCT(byte[], byte[],
 * byte[])): no array null or empty; the modulus odd (so not zero); the
 * exponent not zero.
 */
JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeModPowCTFixed(JNIEnv *env, jclass cls,
                                                       jbyteArray jbase, jbyteArray jexp, jbyteArray jmod)
{
    (void)cls;
    jbyteArray result = NULL;
    struct jbigi_operand base, exp, mod, r;
    jbigi_operand_init(&base);
    jbigi_operand_init(&exp);
    jbigi_operand_init(&mod);
    jbigi_operand_init(&r);

    jsize base_len = jbigi_check_array(env, jbase, "base");
    jsize exp_len = base_len == 0 ? 0 : jbigi_check_array(env, jexp, "exponent");
    jsize mod_len = exp_len == 0 ? 0 : jbigi_check_array(env, jmod, "modulus");
    if (mod_len == 0)
        goto done;
    if (!jbigi_read_unsigned(env, jmod, mod_len, 0, 1, &mod))
        goto done;
    if (mpz_sgn(mod.value) == 0 || mpz_even_p(mod.value)) {
        jbigi_throw_status(env, mpz_sgn(mod.value) == 0 ? JBIGI_MODULUS_NOT_POSITIVE : JBIGI_MODULUS_EVEN);
        goto done;
    }
    const size_t n = mpz_size(mod.value);
    if (!jbigi_read_unsigned(env, jbase, base_len, 0, 1, &base) ||
        !jbigi_read_unsigned(env, jexp, exp_len, n, 0, &exp))
        goto done;
    if (all_zero(exp.limbs, exp.nlimbs)) {
        jbigi_throw_status(env, JBIGI_EXPONENT_NOT_POSITIVE);
        goto done;
    }
    if (!jbigi_operand_space(env, n, &r))
        goto done;
    struct ct_call call = {r.limbs, base.value, mod.value, exp.limbs, (mp_size_t)exp.nlimbs};
    enum jbigi_status status = jbigi_run_guarded(run_ct_call, &call);
    if (status != JBIGI_OK) {
        jbigi_throw_status(env, status);
        goto done;
    }
    result = jbigi_new_unsigned_result(env, r.limbs, n, (size_t)mod_len);
done:
    jbigi_operand_release(&base);
    jbigi_operand_release(&exp);
    jbigi_operand_release(&mod);
    jbigi_operand_release(&r);
    return result;
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

JNIEXPORT jboolean JNICALL
Java_net_i2p_util_Engine_nativeForce(JNIEnv *env, jclass cls, jstring name)
{
    (void)cls;
    if (name == NULL)
        return jbigi_engine_force(NULL) == 0 ? JNI_TRUE : JNI_FALSE;
    const char *chars = (*env)->GetStringUTFChars(env, name, NULL);
    if (chars == NULL)
        return JNI_FALSE; /* OutOfMemoryError pending */
    const int rc = jbigi_engine_force(chars);
    (*env)->ReleaseStringUTFChars(env, name, chars);
    return rc == 0 ? JNI_TRUE : JNI_FALSE;
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

JNIEXPORT jstring JNICALL
Java_net_i2p_util_Engine_nativeVariant(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, jbigi_cpu_variant());
}
