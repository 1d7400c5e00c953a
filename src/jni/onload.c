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
#include "platform/platform.h"

#ifdef JBIGI_RELEASE
/* The release this library comes from, in the file itself: the Java loader
 * reads it without loading the library (LibraryRelease.java) and passes over
 * a jbigi on java.library.path older than the one its jar carries. */
__attribute__((used)) static const char release_mark[] = "jbigi-release: " JBIGI_RELEASE;
#endif

/* Nonzero when this CPU lacks what the variant was built for: the refusal is
 * then pending as the message of an UnsatisfiedLinkError, which the JVM
 * rethrows from System.load; nothing is printed.  A function of its own,
 * so that its buffer's canary is checked before JNI_OnLoad sets the
 * canary's value. */
__attribute__((noinline)) static int cpu_refused(JavaVM *vm)
{
    char refusal[512];
    JNIEnv *env = NULL;
    if (jbigi_cpu_check(refusal, sizeof refusal) == 0)
        return 0;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) == JNI_OK && env != NULL)
        jbigi_throw(env, "java/lang/UnsatisfiedLinkError", refusal);
    return 1;
}

/* Called once when the JVM loads the library, before any GMP value exists.
 * First, on a CPU without the instructions this variant was built for,
 * refuse rather than die of SIGILL in GMP.  Without a canary of its own: it
 * sets the canary's value (jbigi_seed_stack_guard) while its frame is live. */
JBIGI_NO_STACK_PROTECTOR JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    jint version = JNI_ERR;
    (void)reserved;
    if (!cpu_refused(vm)) {
        /* The rest of the library, compiled with the user's flags, from here on. */
        jbigi_seed_stack_guard();
        jbigi_install_wiping_allocator();
        version = JNI_VERSION_1_6;
    }
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
