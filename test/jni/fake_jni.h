/*
 * fake_jni.h - a JavaVM and a JNIEnv without a JVM, enough to call jbigi's
 * natives from C and see what a JVM would see: the objects they return, the
 * exception they leave pending, and any breach of JNI's rules that
 * -Xcheck:jni would report (a call with an exception pending or inside a
 * critical region, a stale or foreign reference, a region out of bounds).
 *
 * Objects are the harness's own structs behind JNI's opaque handles: a byte
 * array (length and bytes), a direct buffer (address and capacity), a heap
 * buffer (a ByteBuffer that is not direct), a string, a class (its name), a
 * throwable.  Every object is recorded; fake_env_pop_frame frees those made
 * since the last pop, as a JVM drops a native frame's local references, and
 * fake_env_destroy frees everything, so a run is clean under valgrind.
 *
 * Single-threaded, like the harness.  The harness side uses only this
 * header; fake_env_internal.h is for the files that implement it.
 */
#ifndef JNI_HARNESS_FAKE_JNI_H
#define JNI_HARNESS_FAKE_JNI_H

#include <jni.h>
#include <stddef.h>

#include "format_check.h"

struct fake_env;

struct fake_env *fake_env_create(void);
void fake_env_destroy(struct fake_env *fe);

/* The JNIEnv the natives get, and the JavaVM JNI_OnLoad gets (its GetEnv
 * hands out that JNIEnv). */
JNIEnv *fake_env_jni(struct fake_env *fe);
JavaVM *fake_env_vm(struct fake_env *fe);

/* ---- objects the harness makes and reads ---- */

/* A new byte[] holding len bytes (bytes NULL: zeros).  NULL only when out
 * of memory, which the harness treats as fatal. */
jbyteArray fake_new_byte_array(struct fake_env *fe, const void *bytes, size_t len);

/* The bytes and length of a byte[] the harness holds, or NULL (and *len 0)
 * if array is not a live byte[]. */
const unsigned char *fake_byte_array(struct fake_env *fe, jbyteArray array, size_t *len);

/* A direct ByteBuffer over capacity bytes at address, which the harness
 * keeps alive; and a heap (non-direct) ByteBuffer, whose address JNI
 * reports as NULL and capacity as -1. */
jobject fake_new_direct_buffer(struct fake_env *fe, void *address, jlong capacity);
jobject fake_new_heap_buffer(struct fake_env *fe);

/* The address and capacity of a direct buffer (e.g. one a native returned);
 * 0 if buffer is not a live direct buffer. */
int fake_direct_buffer(struct fake_env *fe, jobject buffer, void **address, jlong *capacity);

jstring fake_new_string(struct fake_env *fe, const char *utf);

/* The UTF-8 text of a live string, or NULL. */
const char *fake_string(struct fake_env *fe, jstring string);

/* A class object named name (JNI form, "net/i2p/util/FixedBase"). */
jclass fake_new_class(struct fake_env *fe, const char *name);

/* Keeps obj across fake_env_pop_frame (a global reference, in JVM terms):
 * for the class objects and the tables a test holds over many calls. */
void fake_pin(struct fake_env *fe, jobject obj);

/* Frees every object made since the last pop that is not pinned. */
void fake_env_pop_frame(struct fake_env *fe);

/* Objects alive now, pinned ones included. */
size_t fake_live_objects(const struct fake_env *fe);

/* ---- the pending exception ---- */

/* The pending exception's class name (JNI form) and message, or NULL when
 * none is pending.  The message is "" for a throwable without one. */
const char *fake_pending_class(const struct fake_env *fe);
const char *fake_pending_message(const struct fake_env *fe);
void fake_clear_pending(struct fake_env *fe);

/* ---- breaches of JNI's rules ---- */

/* Records a breach (printf-style description): by the JNI functions, and
 * by the harness for what only it can see (a result of the wrong type). */
void fake_misuse(struct fake_env *fe, const char *format, ...) HARNESS_PRINTF(2, 3);

/* How many breaches since the last fake_take_misuse, the first one's
 * description copied to text (text_size bytes); the count is reset. */
unsigned fake_take_misuse(struct fake_env *fe, char *text, size_t text_size);

/* Checks what must hold between two native calls: no critical region and
 * no UTF chars still held.  Counts a breach for each and releases them. */
void fake_check_call_end(struct fake_env *fe);

/* ---- injected failures, for the natives' out-of-memory paths ---- */

enum fake_fault {
    FAKE_FAIL_NEW_BYTE_ARRAY, /* NULL, OutOfMemoryError pending */
    FAKE_FAIL_CRITICAL, /* GetPrimitiveArrayCritical: NULL, nothing pending (JNI allows it) */
    FAKE_FAIL_STRING_UTF_CHARS, /* GetStringUTFChars: NULL, OutOfMemoryError pending */
    FAKE_FAIL_NEW_STRING, /* NewStringUTF: NULL, OutOfMemoryError pending */
    FAKE_FAIL_NEW_DIRECT_BUFFER, /* NewDirectByteBuffer: NULL, OutOfMemoryError pending */
    FAKE_FAIL_FIND_CLASS, /* FindClass: NULL, NoClassDefFoundError pending */
    FAKE_FAULTS
};

/* The nth call from now (1: the next one) of that function fails as
 * described; 0 disarms it. */
void fake_fail_call(struct fake_env *fe, enum fake_fault fault, unsigned nth);

/* Whether an armed fault has not fired yet (the native never got there). */
int fake_fault_armed(const struct fake_env *fe, enum fake_fault fault);

/* ---- a hook: what another thread could do while a native runs ---- */

/*
 * hook(arg, function) runs as each JNI function the library calls begins
 * (function: its name, "GetByteArrayRegion"), until fake_set_hook(fe,
 * NULL, NULL): a test writes a direct buffer there as another Java thread
 * could between two reads of a native.
 */
typedef void fake_hook_fn(void *arg, const char *function);
void fake_set_hook(struct fake_env *fe, fake_hook_fn *hook, void *arg);

#endif
