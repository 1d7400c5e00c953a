/*
 * fake_env.c - the JNI functions jbigi calls (grep src/jni for "(*env)->"),
 * each doing what HotSpot does for a correct call and, for an incorrect
 * one, what -Xcheck:jni does: the breach is recorded (fake_misuse) instead
 * of crashing or silently working.  Checked everywhere:
 *
 * - no call with an exception pending, except those JNI allows then
 *   (ExceptionCheck, ExceptionOccurred, ExceptionClear, the Release
 *   functions, DeleteLocalRef);
 * - no call inside a critical region but the critical functions;
 * - every handle is one this environment gave out, alive, of the right kind.
 *
 * Exceptions a JVM raises itself are raised here too, with its classes:
 * an out-of-bounds region (ArrayIndexOutOfBoundsException), a negative
 * length (NegativeArraySizeException), an unknown class
 * (NoClassDefFoundError), and the injected out-of-memory failures.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_env_internal.h"

enum { ANY_TIME = 1, IN_CRITICAL = 2 };

/* The state behind env, after checking the two rules on when a function
 * may be called (flags: which of them this function is exempt from). */
static struct fake_env *enter(JNIEnv *env, const char *function, int flags)
{
    struct fake_env *fe = fake_state(env);
    if (fe->pending != NULL && !(flags & ANY_TIME))
        fake_misuse(fe, "%s called with %s pending", function, fe->pending->text);
    if (fe->critical_depth > 0 && !(flags & IN_CRITICAL))
        fake_misuse(fe, "%s called inside a GetPrimitiveArrayCritical region", function);
    if (fe->hook != NULL)
        fe->hook(fe->hook_arg, function);
    return fe;
}

/* The classes the library may name: the exceptions jbigi throws and those
 * the JVM raises in these functions.  Any other name (a typo, dots instead
 * of slashes) is not found, as in a JVM. */
static const char *const known_classes[] = {
    "java/lang/ArithmeticException",
    "java/lang/ArrayIndexOutOfBoundsException",
    "java/lang/IllegalArgumentException",
    "java/lang/IllegalStateException",
    "java/lang/NegativeArraySizeException",
    "java/lang/NoClassDefFoundError",
    "java/lang/NullPointerException",
    "java/lang/NumberFormatException",
    "java/lang/OutOfMemoryError",
    "java/lang/UnsatisfiedLinkError",
};

static jclass JNICALL FindClass(JNIEnv *env, const char *name)
{
    struct fake_env *fe = enter(env, "FindClass", 0);
    if (name == NULL) {
        fake_misuse(fe, "FindClass(NULL)");
        return NULL;
    }
    if (fake_fault_fires(fe, FAKE_FAIL_FIND_CLASS)) {
        fake_throw(fe, "java/lang/NoClassDefFoundError", name);
        return NULL;
    }
    for (size_t i = 0; i < sizeof known_classes / sizeof known_classes[0]; i++) {
        if (strcmp(name, known_classes[i]) == 0)
            return fake_new_class(fe, name);
    }
    fake_throw(fe, "java/lang/NoClassDefFoundError", name);
    return NULL;
}

static jint JNICALL ThrowNew(JNIEnv *env, jclass clazz, const char *message)
{
    struct fake_env *fe = enter(env, "ThrowNew", 0);
    if (clazz == NULL) {
        fake_misuse(fe, "ThrowNew with a null class");
        return JNI_ERR;
    }
    struct fake_object *cls = fake_object_find(fe, clazz, FAKE_CLASS, "ThrowNew");
    if (cls == NULL)
        return JNI_ERR;
    fake_throw(fe, cls->text, message != NULL ? message : "");
    return JNI_OK;
}

static jthrowable JNICALL ExceptionOccurred(JNIEnv *env)
{
    struct fake_env *fe = enter(env, "ExceptionOccurred", ANY_TIME);
    return (jthrowable)(void *)fe->pending;
}

static void JNICALL ExceptionClear(JNIEnv *env)
{
    fake_clear_pending(enter(env, "ExceptionClear", ANY_TIME));
}

static jboolean JNICALL ExceptionCheck(JNIEnv *env)
{
    struct fake_env *fe = enter(env, "ExceptionCheck", ANY_TIME);
    return fe->pending != NULL ? JNI_TRUE : JNI_FALSE;
}

static void JNICALL DeleteLocalRef(JNIEnv *env, jobject handle)
{
    struct fake_env *fe = enter(env, "DeleteLocalRef", ANY_TIME);
    if (handle == NULL)
        return;
    struct fake_object *obj = fake_object_lookup(fe, handle);
    if (obj == NULL || obj->deleted) {
        fake_misuse(fe, "DeleteLocalRef of %s", obj == NULL ? "a reference never handed out" : "a deleted reference");
        return;
    }
    /* A pinned object is the harness's (a global reference): deleting the
     * library's local reference to it leaves the object alive. */
    if (!obj->pinned && obj != fe->pending)
        obj->deleted = 1;
}

static struct fake_object *byte_array(struct fake_env *fe, jarray array, const char *function)
{
    if (array == NULL) {
        fake_misuse(fe, "%s on a null array (a JVM crashes)", function);
        return NULL;
    }
    return fake_object_find(fe, array, FAKE_BYTE_ARRAY, function);
}

static jsize JNICALL GetArrayLength(JNIEnv *env, jarray array)
{
    struct fake_env *fe = enter(env, "GetArrayLength", 0);
    struct fake_object *obj = byte_array(fe, array, "GetArrayLength");
    return obj != NULL ? obj->length : 0;
}

static jbyteArray JNICALL NewByteArray(JNIEnv *env, jsize length)
{
    struct fake_env *fe = enter(env, "NewByteArray", 0);
    if (length < 0) {
        fake_throw(fe, "java/lang/NegativeArraySizeException", "negative array length");
        return NULL;
    }
    if (fake_fault_fires(fe, FAKE_FAIL_NEW_BYTE_ARRAY)) {
        fake_throw(fe, "java/lang/OutOfMemoryError", "Java heap space (injected by jni_harness)");
        return NULL;
    }
    return fake_new_byte_array(fe, NULL, (size_t)length);
}

/* Whether [start, start + length) lies in obj; throws as a JVM does if not. */
static int region_fits(struct fake_env *fe, const struct fake_object *obj, jsize start, jsize length)
{
    if (start < 0 || length < 0 || (int64_t)start + length > obj->length) {
        fake_throw(fe, "java/lang/ArrayIndexOutOfBoundsException", "array region out of bounds");
        return 0;
    }
    return 1;
}

static void JNICALL GetByteArrayRegion(JNIEnv *env, jbyteArray array, jsize start, jsize length, jbyte *buffer)
{
    struct fake_env *fe = enter(env, "GetByteArrayRegion", 0);
    struct fake_object *obj = byte_array(fe, array, "GetByteArrayRegion");
    if (obj == NULL || !region_fits(fe, obj, start, length))
        return;
    if (length > 0 && buffer == NULL) {
        fake_misuse(fe, "GetByteArrayRegion into a null buffer");
        return;
    }
    if (length > 0)
        memcpy(buffer, obj->bytes + start, (size_t)length);
}

static void JNICALL SetByteArrayRegion(JNIEnv *env, jbyteArray array, jsize start, jsize length,
                                       const jbyte *buffer)
{
    struct fake_env *fe = enter(env, "SetByteArrayRegion", 0);
    struct fake_object *obj = byte_array(fe, array, "SetByteArrayRegion");
    if (obj == NULL || !region_fits(fe, obj, start, length))
        return;
    if (length > 0 && buffer == NULL) {
        fake_misuse(fe, "SetByteArrayRegion from a null buffer");
        return;
    }
    if (length > 0)
        memcpy(obj->bytes + start, buffer, (size_t)length);
}

/*
 * The library gets a copy, of exactly the array's length, as a JVM may give
 * (isCopy true): valgrind sees reads past it, and what the mode says is
 * done with it on release (written back or dropped).
 */
static void *JNICALL GetPrimitiveArrayCritical(JNIEnv *env, jarray array, jboolean *is_copy)
{
    struct fake_env *fe = enter(env, "GetPrimitiveArrayCritical", IN_CRITICAL);
    struct fake_object *obj = byte_array(fe, array, "GetPrimitiveArrayCritical");
    if (obj == NULL)
        return NULL;
    if (fake_fault_fires(fe, FAKE_FAIL_CRITICAL))
        return NULL;
    if (fe->critical_depth == FAKE_MAX_LOANS) {
        fake_misuse(fe, "more than %d nested critical regions", FAKE_MAX_LOANS);
        return NULL;
    }
    const size_t size = (size_t)obj->length;
    void *copy = malloc(size > 0 ? size : 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, obj->bytes, size);
    fe->critical[fe->critical_depth++] = (struct fake_loan){obj, copy, size};
    if (is_copy != NULL)
        *is_copy = JNI_TRUE;
    return copy;
}

static void JNICALL ReleasePrimitiveArrayCritical(JNIEnv *env, jarray array, void *carray, jint mode)
{
    struct fake_env *fe = enter(env, "ReleasePrimitiveArrayCritical", ANY_TIME | IN_CRITICAL);
    unsigned i = 0;
    while (i < fe->critical_depth && fe->critical[i].copy != carray)
        i++;
    if (i == fe->critical_depth) {
        fake_misuse(fe, "ReleasePrimitiveArrayCritical of a pointer no GetPrimitiveArrayCritical gave");
        return;
    }
    struct fake_loan loan = fe->critical[i];
    if ((jobject)(void *)loan.object != array)
        fake_misuse(fe, "ReleasePrimitiveArrayCritical names another array than the one the region is of");
    if (mode != JNI_ABORT)
        memcpy(loan.object->bytes, loan.copy, loan.size);
    if (mode == JNI_COMMIT)
        return; /* still held */
    if (mode != 0 && mode != JNI_ABORT)
        fake_misuse(fe, "ReleasePrimitiveArrayCritical with mode %ld", (long)mode);
    free(loan.copy);
    memmove(&fe->critical[i], &fe->critical[i + 1], (fe->critical_depth - i - 1) * sizeof loan);
    fe->critical_depth--;
}

static jobject JNICALL NewDirectByteBuffer(JNIEnv *env, void *address, jlong capacity)
{
    struct fake_env *fe = enter(env, "NewDirectByteBuffer", 0);
    if (address == NULL || capacity < 0) {
        fake_misuse(fe, "NewDirectByteBuffer(%p, %lld)", address, (long long)capacity);
        return NULL;
    }
    if (capacity > INT32_MAX) { /* a ByteBuffer's capacity is an int */
        fake_throw(fe, "java/lang/IllegalArgumentException", "capacity > Integer.MAX_VALUE");
        return NULL;
    }
    if (fake_fault_fires(fe, FAKE_FAIL_NEW_DIRECT_BUFFER)) {
        fake_throw(fe, "java/lang/OutOfMemoryError", "Direct buffer memory (injected by jni_harness)");
        return NULL;
    }
    return fake_new_direct_buffer(fe, address, capacity);
}

/* The buffer behind handle (a direct or a heap ByteBuffer), or NULL. */
static struct fake_object *buffer(struct fake_env *fe, jobject handle, const char *function)
{
    if (handle == NULL) {
        fake_misuse(fe, "%s(NULL)", function);
        return NULL;
    }
    struct fake_object *obj = fake_object_lookup(fe, handle);
    if (obj != NULL && !obj->deleted && obj->kind == FAKE_HEAP_BUFFER)
        return obj;
    return fake_object_find(fe, handle, FAKE_DIRECT_BUFFER, function);
}

static void *JNICALL GetDirectBufferAddress(JNIEnv *env, jobject handle)
{
    struct fake_env *fe = enter(env, "GetDirectBufferAddress", 0);
    struct fake_object *obj = buffer(fe, handle, "GetDirectBufferAddress");
    return obj != NULL && obj->kind == FAKE_DIRECT_BUFFER ? obj->address : NULL;
}

static jlong JNICALL GetDirectBufferCapacity(JNIEnv *env, jobject handle)
{
    struct fake_env *fe = enter(env, "GetDirectBufferCapacity", 0);
    struct fake_object *obj = buffer(fe, handle, "GetDirectBufferCapacity");
    return obj != NULL && obj->kind == FAKE_DIRECT_BUFFER ? obj->capacity : -1;
}

static const char *JNICALL GetStringUTFChars(JNIEnv *env, jstring string, jboolean *is_copy)
{
    struct fake_env *fe = enter(env, "GetStringUTFChars", 0);
    if (string == NULL) {
        fake_misuse(fe, "GetStringUTFChars(NULL) (a JVM crashes)");
        return NULL;
    }
    struct fake_object *obj = fake_object_find(fe, string, FAKE_STRING, "GetStringUTFChars");
    if (obj == NULL)
        return NULL;
    if (fake_fault_fires(fe, FAKE_FAIL_STRING_UTF_CHARS)) {
        fake_throw(fe, "java/lang/OutOfMemoryError", "no memory for UTF chars (injected by jni_harness)");
        return NULL;
    }
    if (fe->utf_held == FAKE_MAX_LOANS) {
        fake_misuse(fe, "more than %d UTF strings held at once", FAKE_MAX_LOANS);
        return NULL;
    }
    const size_t size = strlen(obj->text) + 1;
    char *copy = malloc(size);
    if (copy == NULL)
        return NULL;
    memcpy(copy, obj->text, size);
    fe->utf[fe->utf_held++] = (struct fake_loan){obj, copy, size};
    if (is_copy != NULL)
        *is_copy = JNI_TRUE;
    return copy;
}

static void JNICALL ReleaseStringUTFChars(JNIEnv *env, jstring string, const char *chars)
{
    struct fake_env *fe = enter(env, "ReleaseStringUTFChars", ANY_TIME);
    unsigned i = 0;
    while (i < fe->utf_held && fe->utf[i].copy != (const void *)chars)
        i++;
    if (i == fe->utf_held) {
        fake_misuse(fe, "ReleaseStringUTFChars of chars no GetStringUTFChars gave");
        return;
    }
    if ((jobject)(void *)fe->utf[i].object != string)
        fake_misuse(fe, "ReleaseStringUTFChars names another string than the chars are of");
    free(fe->utf[i].copy);
    memmove(&fe->utf[i], &fe->utf[i + 1], (fe->utf_held - i - 1) * sizeof fe->utf[0]);
    fe->utf_held--;
}

static jstring JNICALL NewStringUTF(JNIEnv *env, const char *utf)
{
    struct fake_env *fe = enter(env, "NewStringUTF", 0);
    if (utf == NULL)
        return NULL; /* as HotSpot: no string, nothing thrown */
    if (fake_fault_fires(fe, FAKE_FAIL_NEW_STRING)) {
        fake_throw(fe, "java/lang/OutOfMemoryError", "Java heap space (injected by jni_harness)");
        return NULL;
    }
    return fake_new_string(fe, utf);
}

/* The JavaVM's GetEnv: the one environment, for the versions a JVM of
 * Java 8 to 25 accepts. */
static jint JNICALL GetEnv(JavaVM *vm, void **penv, jint version)
{
    struct fake_env *fe = (struct fake_env *)(void *)((char *)vm - offsetof(struct fake_env, vm_functions));
    if (penv == NULL)
        return JNI_ERR;
    *penv = NULL;
    switch (version) {
    case JNI_VERSION_1_1:
    case JNI_VERSION_1_2:
    case JNI_VERSION_1_4:
    case JNI_VERSION_1_6:
    case JNI_VERSION_1_8:
    case 0x00090000: /* JNI_VERSION_9 */
    case 0x000a0000: /* JNI_VERSION_10 */
        *penv = fake_env_jni(fe);
        return JNI_OK;
    default:
        return JNI_EVERSION;
    }
}

void fake_install_functions(struct JNINativeInterface_ *t, struct JNIInvokeInterface_ *vm)
{
    t->FindClass = FindClass;
    t->ThrowNew = ThrowNew;
    t->ExceptionOccurred = ExceptionOccurred;
    t->ExceptionClear = ExceptionClear;
    t->ExceptionCheck = ExceptionCheck;
    t->DeleteLocalRef = DeleteLocalRef;
    t->GetArrayLength = GetArrayLength;
    t->NewByteArray = NewByteArray;
    t->GetByteArrayRegion = GetByteArrayRegion;
    t->SetByteArrayRegion = SetByteArrayRegion;
    t->GetPrimitiveArrayCritical = GetPrimitiveArrayCritical;
    t->ReleasePrimitiveArrayCritical = ReleasePrimitiveArrayCritical;
    t->NewDirectByteBuffer = NewDirectByteBuffer;
    t->GetDirectBufferAddress = GetDirectBufferAddress;
    t->GetDirectBufferCapacity = GetDirectBufferCapacity;
    t->GetStringUTFChars = GetStringUTFChars;
    t->ReleaseStringUTFChars = ReleaseStringUTFChars;
    t->NewStringUTF = NewStringUTF;
    vm->GetEnv = GetEnv;
}
