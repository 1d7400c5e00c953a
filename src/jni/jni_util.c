/*
 * jni_util.c - exceptions, operands and results for the JNI entry points.
 */
#include "jni/jni_util.h"

#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/convert.h"
#include "platform/platform.h"

/* Results up to this many bytes (8192 bits) are staged on the stack, so the
 * common calls allocate nothing; longer ones take the heap. */
#define STACK_BUFFER_BYTES 1024

void jbigi_throw_status(JNIEnv *env, enum jbigi_status status)
{
    const char *class_name = "java/lang/ArithmeticException";
    if (status == JBIGI_BAD_TABLE)
        class_name = "java/lang/IllegalArgumentException";
    else if (status == JBIGI_NO_MEMORY)
        class_name = "java/lang/OutOfMemoryError";
    jbigi_throw(env, class_name, jbigi_status_message(status));
}

void jbigi_operand_init(struct jbigi_operand *op)
{
    op->limbs = NULL;
    op->nlimbs = 0;
}

void jbigi_operand_release(struct jbigi_operand *op)
{
    if (op->limbs != NULL) {
        jbigi_secure_zero(op->limbs, op->nlimbs * sizeof(mp_limb_t));
        if (op->limbs != op->stack)
            free(op->limbs);
        op->limbs = NULL;
    }
}

/*
 * The length of array, named name in messages; 0 with an exception pending
 * when it is null, empty or over the size limit.  An empty array throws
 * empty_exception with empty_text, or with "<name> is empty" when
 * empty_text is NULL.
 */
static jsize checked_length(JNIEnv *env, jbyteArray array, const char *name, const char *empty_exception,
                            const char *empty_text)
{
    char message[128];
    if (array == NULL) {
        snprintf(message, sizeof message, "%s is null", name);
        jbigi_throw(env, "java/lang/NullPointerException", message);
        return 0;
    }
    jsize len = (*env)->GetArrayLength(env, array);
    if (len == 0) {
        if (empty_text == NULL)
            snprintf(message, sizeof message, "%s is empty", name);
        jbigi_throw(env, empty_exception, empty_text != NULL ? empty_text : message);
        return 0;
    }
    if (len > JBIGI_MAX_OPERAND_BYTES) {
        snprintf(message, sizeof message, "%s is %ld bytes, more than jbigi's limit of %ld bytes",
                 name, (long)len, (long)JBIGI_MAX_OPERAND_BYTES);
        jbigi_throw(env, "java/lang/ArithmeticException", message);
        return 0;
    }
    return len;
}

int jbigi_check_bound(JNIEnv *env, jint bound_bits)
{
    if (bound_bits >= 1 && bound_bits <= JBIGI_MAX_BOUND_BITS)
        return 1;
    char message[64];
    snprintf(message, sizeof message, "exponentBits must be from 1 to %ld", (long)JBIGI_MAX_BOUND_BITS);
    jbigi_throw(env, "java/lang/IllegalArgumentException", message);
    return 0;
}

jsize jbigi_check_array(JNIEnv *env, jbyteArray array, const char *name)
{
    return checked_length(env, array, name, "java/lang/IllegalArgumentException", NULL);
}

/* op->limbs = limbs limbs, on the stack when they fit: the choice follows
 * limbs, a public width the callers give (an operand's array length, the
 * exponent's own limb count or a stated bound's), never a secret value. */
static int take_limbs(JNIEnv *env, size_t limbs, struct jbigi_operand *op)
{
    op->nlimbs = limbs;
    op->limbs = op->stack;
    if (limbs > JBIGI_STACK_OPERAND_LIMBS) {
        op->limbs = malloc(limbs * sizeof(mp_limb_t));
        if (op->limbs == NULL) {
            jbigi_throw(env, "java/lang/OutOfMemoryError", "jbigi: no memory for an operand");
            return 0;
        }
    }
    return 1;
}

/* The array's bytes into op->limbs (op->nlimbs of them), read in place. */
static int copy_fixed(JNIEnv *env, jbyteArray array, jsize len, struct jbigi_operand *op)
{
    /* Held only for the copy: no JNI call and no allocation inside. */
    jbyte *bytes = (*env)->GetPrimitiveArrayCritical(env, array, NULL);
    if (bytes == NULL) {
        if (!(*env)->ExceptionCheck(env))
            jbigi_throw(env, "java/lang/OutOfMemoryError", "jbigi: cannot read an operand in place");
        return 0;
    }
    jbigi_unsigned_to_limbs(op->limbs, op->nlimbs, (const uint8_t *)bytes, (size_t)len);
    (*env)->ReleasePrimitiveArrayCritical(env, array, bytes, JNI_ABORT);
    return 1;
}

int jbigi_operand_space(JNIEnv *env, size_t n, struct jbigi_operand *op)
{
    if (!take_limbs(env, n, op))
        return 0;
    memset(op->limbs, 0, n * sizeof(mp_limb_t));
    return 1;
}

int jbigi_read_exponent_fixed(JNIEnv *env, jbyteArray array, jsize len, size_t n, struct jbigi_operand *op)
{
    jbyte sign_byte;
    (*env)->GetByteArrayRegion(env, array, 0, 1, &sign_byte);
    /* Bitwise, not short-circuit: every exponent that fits gives the same
     * answer here, whatever its length. */
    const size_t width = n * sizeof(mp_limb_t);
    const int fits = ((size_t)len <= width + 1) & (((size_t)len <= width) | (sign_byte == 0)) & (sign_byte >= 0);
    if (!fits)
        return JBIGI_FIXED_WIDER;
    if (!take_limbs(env, n, op) || !copy_fixed(env, array, len, op))
        return JBIGI_FIXED_FAILED;
    return JBIGI_FIXED_READ;
}

size_t jbigi_exponent_own_limbs(JNIEnv *env, jbyteArray array, jsize len)
{
    jbyte first;
    (*env)->GetByteArrayRegion(env, array, 0, 1, &first);
    if (first < 0)
        return 0;
    const size_t bytes = (size_t)len;
    /* Computed, not branched on: arrays a sign byte apart take one path. */
    const size_t sign_byte = (size_t)((bytes > sizeof(mp_limb_t)) & (bytes % sizeof(mp_limb_t) == 1) & (first == 0));
    return (bytes + sizeof(mp_limb_t) - 1) / sizeof(mp_limb_t) - sign_byte;
}

int jbigi_limbs_below_bits(const mp_limb_t *e, size_t en, size_t bits)
{
    const size_t spare = en * GMP_NUMB_BITS - bits;
    const mp_limb_t above = spare == 0 ? 0 : e[en - 1] >> (GMP_NUMB_BITS - spare);
    return above == 0;
}

int jbigi_read_unsigned(JNIEnv *env, jbyteArray array, jsize len, size_t min_limbs, int public_value,
                        struct jbigi_operand *op)
{
    size_t limbs = jbigi_limbs_for_bytes((size_t)len);
    if (limbs < min_limbs)
        limbs = min_limbs;
    if (!take_limbs(env, limbs, op) || !copy_fixed(env, array, len, op))
        return 0;
    if (public_value) {
        mp_size_t size = (mp_size_t)limbs;
        while (size > 0 && op->limbs[size - 1] == 0)
            size--;
        mpz_roinit_n(op->value, op->limbs, size);
    }
    return 1;
}

int jbigi_read_operand(JNIEnv *env, jbyteArray array, const char *name, struct jbigi_operand *op)
{
    /* Empty: what new BigInteger(new byte[0]) throws. */
    jsize len = checked_length(env, array, name, "java/lang/NumberFormatException", "Zero length BigInteger");
    if (len == 0)
        return 0;

    op->nlimbs = jbigi_limbs_for_bytes((size_t)len);
    op->limbs = op->stack;
    if (op->nlimbs > JBIGI_STACK_OPERAND_LIMBS) {
        op->limbs = malloc(op->nlimbs * sizeof(mp_limb_t));
        if (op->limbs == NULL) {
            jbigi_throw(env, "java/lang/OutOfMemoryError", "jbigi: no memory for an operand");
            return 0;
        }
    }
    /* Copied once, straight into the limb storage, and converted there. */
    (*env)->GetByteArrayRegion(env, array, 0, len, (jbyte *)jbigi_bytes_slot(op->limbs, (size_t)len));
    mpz_roinit_n(op->value, op->limbs, jbigi_bytes_to_limbs(op->limbs, (size_t)len));
    return 1;
}

jbyteArray jbigi_new_result(JNIEnv *env, const mpz_t value)
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
            jbigi_throw(env, "java/lang/OutOfMemoryError", "jbigi: no memory for a result copy");
            return NULL;
        }
    }
    jbigi_export(bytes, len, value);
    (*env)->SetByteArrayRegion(env, result, 0, (jsize)len, (const jbyte *)bytes);
    /* Results can be secrets too (a Diffie-Hellman shared key). */
    jbigi_secure_zero(bytes, len);
    if (bytes != stack_buffer)
        free(bytes);
    return result;
}

jbyteArray jbigi_new_result_fixed(JNIEnv *env, const mp_limb_t *limbs, size_t n)
{
    /* A zero byte, then the n limbs: room for the sign byte of any value. */
    const size_t staged = n * sizeof(mp_limb_t) + 1;
    uint8_t stack_buffer[STACK_BUFFER_BYTES];
    uint8_t *bytes = stack_buffer;
    if (staged > STACK_BUFFER_BYTES) {
        bytes = malloc(staged);
        if (bytes == NULL) {
            jbigi_throw(env, "java/lang/OutOfMemoryError", "jbigi: no memory for a result copy");
            return NULL;
        }
    }
    bytes[0] = 0;
    jbigi_limbs_to_unsigned(bytes + 1, staged - 1, limbs, n);
    const size_t len = jbigi_canonical_length(bytes, staged);
    jbyteArray result = (*env)->NewByteArray(env, (jsize)len);
    if (result != NULL)
        (*env)->SetByteArrayRegion(env, result, 0, (jsize)len, (const jbyte *)bytes + (staged - len));
    jbigi_secure_zero(bytes, staged);
    if (bytes != stack_buffer)
        free(bytes);
    return result;
}

jbyteArray jbigi_new_unsigned_result(JNIEnv *env, const mp_limb_t *limbs, size_t n, size_t len)
{
    uint8_t stack_buffer[STACK_BUFFER_BYTES];
    uint8_t *bytes = stack_buffer;
    if (len > STACK_BUFFER_BYTES) {
        bytes = malloc(len);
        if (bytes == NULL) {
            jbigi_throw(env, "java/lang/OutOfMemoryError", "jbigi: no memory for a result copy");
            return NULL;
        }
    }
    jbigi_limbs_to_unsigned(bytes, len, limbs, n);
    jbyteArray result = (*env)->NewByteArray(env, (jsize)len);
    if (result != NULL)
        (*env)->SetByteArrayRegion(env, result, 0, (jsize)len, (const jbyte *)bytes);
    jbigi_secure_zero(bytes, len);
    if (bytes != stack_buffer)
        free(bytes);
    return result;
}
