/*
 * jcpuid.c - the natives of I2P's freenet.support.CPUInformation.CPUID, so
 * that I2P's own loader can identify the CPU and pick a tuned jbigi from a
 * jar built by this project.  x86 only, and built without -march: it runs
 * before anything is known about the CPU.
 *
 * The contract, as I2P's class declares it:
 *   private static native CPUIDResult doCPUID(int function);
 *     CPUID with EAX = function, ECX = 0; returns
 *     new CPUIDResult(eax, ebx, ecx, edx) (the nested class
 *     CPUID$CPUIDResult, constructor (IIII)V).
 *   private static native int nativeJcpuidVersion();   3, I2P's current one
 */
#include <jni.h>

#if !defined(__x86_64__) && !defined(__i386__)
#error "jcpuid is for x86 only"
#endif
#include <cpuid.h>

#define JCPUID_VERSION 3
#define RESULT_CLASS "freenet/support/CPUInformation/CPUID$CPUIDResult"

JNIEXPORT jobject JNICALL Java_freenet_support_CPUInformation_CPUID_doCPUID(JNIEnv *env, jclass cls, jint function);
JNIEXPORT jint JNICALL Java_freenet_support_CPUInformation_CPUID_nativeJcpuidVersion(JNIEnv *env, jclass cls);

JNIEXPORT jobject JNICALL Java_freenet_support_CPUInformation_CPUID_doCPUID(JNIEnv *env, jclass cls, jint function)
{
    unsigned a, b, c, d;
    jclass type;
    jmethodID constructor;
    jobject result = NULL;
    (void)cls;
    /* No check against the highest leaf: CPUID itself answers any EAX, as I2P's does. */
    __cpuid_count((unsigned)function, 0u, a, b, c, d);
    /* Looked up through the calling class's loader (the one that loaded CPUID). */
    type = (*env)->FindClass(env, RESULT_CLASS);
    if (type == NULL)
        goto done; /* NoClassDefFoundError pending */
    constructor = (*env)->GetMethodID(env, type, "<init>", "(IIII)V");
    if (constructor != NULL)
        result = (*env)->NewObject(env, type, constructor, (jint)a, (jint)b, (jint)c, (jint)d);
    (*env)->DeleteLocalRef(env, type);
done:
    return result;
}

JNIEXPORT jint JNICALL Java_freenet_support_CPUInformation_CPUID_nativeJcpuidVersion(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return JCPUID_VERSION;
}
