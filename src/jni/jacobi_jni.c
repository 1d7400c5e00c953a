/*
 * jacobi_jni.c - NativeBigInteger.nativeJacobi: the Jacobi symbol (a/n)
 * on toByteArray() arrays (core/jacobi.c does the arithmetic).
 *
 * Checks, in this order (the first that fails throws): each array, a then
 * n: null (NullPointerException), empty (NumberFormatException), over the
 * size limit (ArithmeticException); then n positive and odd
 * (ArithmeticException).  One exit path clears every operand.
 */
#include <jni.h>

#include "jbigi.h"
#include "core/jacobi.h"
#include "core/wipe.h"
#include "jni/jni_util.h"

/* One symbol and its arguments, to run under jbigi_run_guarded (GMP
 * allocates for moduli above JBIGI_JACOBI_MAX_LIMBS). */
struct jacobi_call {
    mpz_srcptr a, n;
    int symbol;
};

static enum jbigi_status run_jacobi_call(void *context)
{
    struct jacobi_call *c = context;
    c->symbol = jbigi_jacobi(c->a, c->n);
    return JBIGI_OK;
}

JNIEXPORT jint JNICALL
Java_net_i2p_util_NativeBigInteger_nativeJacobi(JNIEnv *env, jclass cls, jbyteArray ja, jbyteArray jn)
{
    (void)cls;
    jint result = 0;
    struct jbigi_operand a, n;
    jbigi_operand_init(&a);
    jbigi_operand_init(&n);

    if (!jbigi_read_operand(env, ja, "a", &a) || !jbigi_read_operand(env, jn, "n", &n))
        goto done;
    if (mpz_sgn(n.value) <= 0) {
        jbigi_throw(env, "java/lang/ArithmeticException", "Jacobi symbol: n must be positive");
        goto done;
    }
    if (mpz_even_p(n.value)) {
        jbigi_throw(env, "java/lang/ArithmeticException", "Jacobi symbol: n must be odd");
        goto done;
    }
    struct jacobi_call call = {a.value, n.value, 0};
    const enum jbigi_status status = jbigi_run_guarded(run_jacobi_call, &call);
    if (status != JBIGI_OK) {
        jbigi_throw_status(env, status);
        goto done;
    }
    result = call.symbol;
done:
    jbigi_operand_release(&a);
    jbigi_operand_release(&n);
    return result;
}
