/*
 * fake_env_internal.h - the state behind the fake JNIEnv, shared by the
 * files that implement it: fake_objects.c (the objects and their record),
 * fake_env.c (the JNI functions jbigi calls), fake_traps.c (every other
 * slot).  The harness does not include this.
 */
#ifndef JNI_HARNESS_FAKE_ENV_INTERNAL_H
#define JNI_HARNESS_FAKE_ENV_INTERNAL_H

#include <jni.h>
#include <stddef.h>

#include "fake_jni.h"

enum fake_kind { FAKE_BYTE_ARRAY, FAKE_DIRECT_BUFFER, FAKE_HEAP_BUFFER, FAKE_STRING, FAKE_CLASS, FAKE_THROWABLE };

/*
 * One object.  Handles given out are pointers to these, cast to jobject:
 * they are only ever looked up in the record (fake_object_find), never
 * dereferenced on trust, so a stale or invented handle from the library
 * is reported instead of followed.
 */
struct fake_object {
    struct fake_object *next;
    enum fake_kind kind;
    int pinned;
    int deleted; /* DeleteLocalRef was called: any later use is a breach */
    /* byte[]: bytes (exactly length of them, so valgrind sees overreads) */
    jsize length;
    unsigned char *bytes;
    /* direct buffer */
    void *address;
    jlong capacity;
    /* string, class name; for a throwable the class name and message */
    char *text;
    char *message;
};

/* A critical region or UTF chars handed out and not yet given back. */
struct fake_loan {
    struct fake_object *object;
    void *copy; /* what the library got: a copy, compared on release */
    size_t size;
};

#define FAKE_MAX_LOANS 8

/*
 * The environment.  functions must stay the first member: a JNIEnv * is a
 * pointer to it, and the JNI functions get back to the whole struct by
 * casting that pointer (fake_state).  vm_functions is the JavaVM's table
 * pointer; GetEnv finds the struct from it by its offset.
 */
struct fake_env {
    const struct JNINativeInterface_ *functions;
    const struct JNIInvokeInterface_ *vm_functions;
    struct JNINativeInterface_ table;
    struct JNIInvokeInterface_ vm_table;

    struct fake_object *objects; /* newest first */
    size_t live;

    struct fake_object *pending; /* a FAKE_THROWABLE, or NULL */

    struct fake_loan critical[FAKE_MAX_LOANS];
    unsigned critical_depth;
    struct fake_loan utf[FAKE_MAX_LOANS];
    unsigned utf_held;

    unsigned misuses;
    char first_misuse[512];

    unsigned fault_countdown[FAKE_FAULTS];

    fake_hook_fn *hook; /* fake_set_hook */
    void *hook_arg;
};

static inline struct fake_env *fake_state(JNIEnv *env)
{
    return (struct fake_env *)(void *)env;
}

/* A new recorded object of kind, zeroed; NULL when out of memory. */
struct fake_object *fake_object_new(struct fake_env *fe, enum fake_kind kind);

/*
 * The live object of kind behind handle, or NULL after recording a breach
 * (what names the call in the message): a handle not in the record, one
 * deleted, or of another kind.  NULL handles are the caller's to check.
 */
struct fake_object *fake_object_find(struct fake_env *fe, jobject handle, enum fake_kind kind, const char *what);

/* Any live object behind handle, whatever its kind, or NULL (no breach). */
struct fake_object *fake_object_lookup(struct fake_env *fe, jobject handle);

/* Makes obj the pending exception (a throwable of class_name, message). */
void fake_throw(struct fake_env *fe, const char *class_name, const char *message);

/* Whether the countdown of fault has reached this call (and disarms it). */
int fake_fault_fires(struct fake_env *fe, enum fake_fault fault);

/* Installs a trap in every slot of the two tables (fake_traps.c). */
void fake_install_traps(struct JNINativeInterface_ *env_table, struct JNIInvokeInterface_ *vm_table);

/* Installs the implemented functions over the traps (fake_env.c). */
void fake_install_functions(struct JNINativeInterface_ *env_table, struct JNIInvokeInterface_ *vm_table);

/* Frees one object and what it owns (not unlinking it). */
void fake_object_free(struct fake_object *obj);

#endif
