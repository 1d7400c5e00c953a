/*
 * onload.c - JNI_OnLoad and jbigi_throw (see onload.h).
 *
 * Everything the library runs before its CPU check has passed lives here or
 * in src/cpu/ (the CPU_SOURCES); the Makefile compiles them for the baseline of the
 * architecture, without the user's CFLAGS (BASELINE_SOURCES), and
 * test/baseline/check-baseline.sh checks that they hold no instruction
 * beyond it.  Nothing here may call into the rest of the library before the
 * check has passed.
 */
#include "jni/onload.h"

#include <jni.h>

#include "core/wipe.h"
#include "cpu/cpu_check.h"

#ifdef JBIGI_RELEASE
/* The release this library comes from, in the file itself: the Java loader
 * reads it without loading the library (LibraryRelease.java) and passes over
 * a jbigi on java.library.path older than the one its jar carries. */
__attribute__((used)) static const char release_mark[] = "jbigi-release: " JBIGI_RELEASE;
#endif

/* Called once when the JVM loads the library, before any GMP value exists. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    char refusal[512];
    JNIEnv *env = NULL;
    jint version = JNI_ERR;
    (void)reserved;
    /* First: on a CPU without the instructions this variant was built for,
     * refuse rather than die of SIGILL in GMP.  The refusal is the message
     * of the UnsatisfiedLinkError that System.load throws (the JVM rethrows
     * an exception pending when JNI_OnLoad returns); nothing is printed. */
    if (jbigi_cpu_check(refusal, sizeof refusal) != 0) {
        if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) == JNI_OK && env != NULL)
            jbigi_throw(env, "java/lang/UnsatisfiedLinkError", refusal);
        goto done;
    }
    /* The rest of the library, compiled with the user's flags, from here on. */
    jbigi_install_wiping_allocator();
    version = JNI_VERSION_1_6;
done:
    return version;
}

void jbigi_throw(JNIEnv *env, const char *class_name, const char *message)
{
    jclass cls = (*env)->FindClass(env, class_name);
    /* If even the exception class cannot be found, FindClass has left a
     * NoClassDefFoundError pending, which is thrown instead. */
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, message);
        (*env)->DeleteLocalRef(env, cls);
    }
}
