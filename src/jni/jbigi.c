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
 * nothing.  Any number of threads may call in: these functions keep no
 * state of their own.  The state the library does keep is process-wide, set
 * once or guarded: the engine registry (engines/registry.c: which engine
 * runs, JBIGI_ENGINE read once, each engine's self-test result, each kept
 * in an atomic word so that a force and the first choice agree), the CPU
 * facts the engines cache on first use, and the record of live fixed-base
 * table blocks (platform/table_memory.c, under the process lock), which lets
 * a table native refuse a block that was freed or never allocated.
 * JNI_OnLoad, which runs before the CPU check has passed, is in onload.c.
 */
#include <jni.h>

#include "jbigi.h"
#include "core/arith.h"
#include "cpu/cpu_check.h"
#include "engines/engine.h"
#include "jni/jni_util.h"
#include "jni/version.h"
#include "core/wipe.h"

/* Version 4 is I2P's current library; 5 adds negative exponents in
 * nativeModPow (computed as BigInteger does, instead of refused). */
#define JBIGI_VERSION 5

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
    size_t ebits; /* the public width the work follows */
};

static enum jbigi_status run_ct_call(void *context)
{
    struct ct_call *c = context;
    return jbigi_modpow_ct_bits(c->rp, c->base, c->e, c->ebits, c->mod);
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
 * The constant-time power on toByteArray() arrays, the exponent read at a
 * public width: its own limb count (unbounded: the array's length, less a
 * zero sign byte over whole limbs, jbigi_exponent_own_limbs: for a
 * canonical array the value's limb count, which bitLength shows), or
 * ceil(bound_bits / 64) limbs for a bound the caller states.  The array is
 * read by a loop over that width (jbigi_read_exponent_fixed), and the work
 * follows that width (a stated bound: bound_bits itself) and the modulus'
 * limb count alone.  The result comes back in toByteArray() form, whose
 * length is the value's (what BigInteger reveals itself).
 *
 * Checks, in this order (the first that fails throws):
 *   each array in turn, base, exponent, modulus: null (NullPointerException),
 *     empty (NumberFormatException), over the size limit (ArithmeticException);
 *   bounded: the bound from 1 to JBIGI_MAX_BOUND_BITS, then the exponent non-negative and
 *     below 2^bound_bits (IllegalArgumentException), as the Java path does;
 *   the modulus positive and odd (ArithmeticException);
 *   the exponent: bounded, 0 gives 1 mod m, as BigInteger does (found by a
 *     branch: only the zero exponent is told apart); unbounded (I2P's
 *     contract), 0 or negative is an ArithmeticException.
 * An unbounded exponent wider than its own limb count (negative, or a
 * non-canonical array) takes the general path, which refuses a negative one.
 */
static jbyteArray modpow_ct_at_width(JNIEnv *env, jbyteArray jbase, jbyteArray jexp, jbyteArray jmod, int bounded,
                                     jint bound_bits)
{
    jbyteArray result = NULL;
    struct jbigi_operand base, exp, mod, r;
    jbigi_operand_init(&base);
    jbigi_operand_init(&exp);
    jbigi_operand_init(&mod);
    jbigi_operand_init(&r);
    mpz_t wide_result; /* for the general path and a zero exponent */
    mpz_init(wide_result);

    if (!jbigi_read_operand(env, jbase, "base", &base))
        goto done;
    /* The exponent's array is checked here but read later, at its width. */
    const jsize exp_len = jexp == NULL ? 0 : (*env)->GetArrayLength(env, jexp);
    if (exp_len == 0 || exp_len > JBIGI_MAX_OPERAND_BYTES) {
        jbigi_read_operand(env, jexp, "exponent", &exp); /* throws its exception */
        goto done;
    }
    if (!jbigi_read_operand(env, jmod, "modulus", &mod))
        goto done;
    if (bounded && !jbigi_check_bound(env, bound_bits))
        goto done;
    const size_t en = bounded ? ((size_t)bound_bits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS
                              : jbigi_exponent_own_limbs(env, jexp, exp_len);
    int read = JBIGI_FIXED_WIDER;
    if (en > 0)
        read = jbigi_read_exponent_fixed(env, jexp, exp_len, en, &exp);
    if (read == JBIGI_FIXED_FAILED)
        goto done;
    if (bounded && (read == JBIGI_FIXED_WIDER || !jbigi_limbs_below_bits(exp.limbs, en, (size_t)bound_bits))) {
        /* Negative, or 2^bound_bits or more: the caller broke its own bound. */
        jbigi_throw(env, "java/lang/IllegalArgumentException",
                    "exponent must be non-negative and below 2^exponentBits");
        goto done;
    }
    if (mpz_sgn(mod.value) <= 0 || mpz_even_p(mod.value)) {
        jbigi_throw_status(env, mpz_sgn(mod.value) <= 0 ? JBIGI_MODULUS_NOT_POSITIVE : JBIGI_MODULUS_EVEN);
        goto done;
    }
    if (read == JBIGI_FIXED_WIDER) {
        /* Unbounded, negative or wider than en limbs: the general path (it refuses a negative one). */
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
    if (all_zero(exp.limbs, en)) {
        if (!bounded) {
            jbigi_throw_status(env, JBIGI_EXPONENT_NOT_POSITIVE);
            goto done;
        }
        /* x^0 = 1, reduced: 0 for the modulus 1. */
        mpz_set_ui(wide_result, mpz_cmp_ui(mod.value, 1) == 0 ? 0 : 1);
        result = jbigi_new_result(env, wide_result);
        goto done;
    }
    /* The result's limbs, sized from the modulus. */
    const size_t n = mpz_size(mod.value);
    if (!jbigi_operand_space(env, n, &r))
        goto done;
    /* A stated bound is the width itself: the bits from it up to the
     * limb's end are zero for every exponent the bound allows. */
    const size_t ebits = bounded ? (size_t)bound_bits : en * GMP_NUMB_BITS;
    struct ct_call call = {r.limbs, base.value, mod.value, exp.limbs, ebits};
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

/* I2P's constant-time power: the exponent at its own limb count. */
JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeModPowCT(JNIEnv *env, jclass cls,
                                                  jbyteArray jbase, jbyteArray jexp, jbyteArray jmod)
{
    (void)cls;
    return modpow_ct_at_width(env, jbase, jexp, jmod, 0, 0);
}

/* The same with the exponent at a bound the caller states. */
JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_NativeBigInteger_nativeModPowCTBound(JNIEnv *env, jclass cls, jbyteArray jbase,
                                                       jbyteArray jexp, jbyteArray jmod, jint exponentBits)
{
    (void)cls;
    return modpow_ct_at_width(env, jbase, jexp, jmod, 1, exponentBits);
}

/*
 * The fixed-length form: unsigned big-endian arrays in, the result as
 * exactly the modulus' array length out.  The exponent is read at its
 * array's length rounded up to limbs and processed over that length in
 * bits: the caller's fixed format, public; its value reaches no branch,
 * loop count or buffer choice.  Rules (NativeBigInteger.modPowCT(byte[], byte[],
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
        !jbigi_read_unsigned(env, jexp, exp_len, 1, 0, &exp))
        goto done;
    if (all_zero(exp.limbs, exp.nlimbs)) {
        jbigi_throw_status(env, JBIGI_EXPONENT_NOT_POSITIVE);
        goto done;
    }
    if (!jbigi_operand_space(env, n, &r))
        goto done;
    /* The array's length in bits: the caller's public width. */
    struct ct_call call = {r.limbs, base.value, mod.value, exp.limbs, 8 * (size_t)exp_len};
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
    char note[JBIGI_ENGINE_NOTE_BYTES];
    jbigi_engine_note(note, sizeof note);
    return (*env)->NewStringUTF(env, note);
}

JNIEXPORT jstring JNICALL
Java_net_i2p_util_Engine_nativeVariant(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, jbigi_cpu_variant());
}
