/*
 * natives.h - the library's exported functions as typed pointers: JNI_OnLoad
 * and every Java_* native of include/jbigi.h.  natives.c checks at compile
 * time that each pointer's type is the prototype's in include/jbigi.h, so
 * the harness calls exactly the ABI the Java side declares.
 */
#ifndef JNI_HARNESS_NATIVES_H
#define JNI_HARNESS_NATIVES_H

#include <jni.h>

#include "loader.h"

/* The natives' types, one per signature. */
typedef jint(JNICALL on_load_fn)(JavaVM *, void *);
typedef jbyteArray(JNICALL power_fn)(JNIEnv *, jclass, jbyteArray, jbyteArray, jbyteArray);
typedef jbyteArray(JNICALL bounded_power_fn)(JNIEnv *, jclass, jbyteArray, jbyteArray, jbyteArray, jint);
typedef jbyteArray(JNICALL inverse_fn)(JNIEnv *, jclass, jbyteArray, jbyteArray);
typedef jint(JNICALL jacobi_fn)(JNIEnv *, jclass, jbyteArray, jbyteArray);
typedef jint(JNICALL int_fn)(JNIEnv *, jclass);
typedef jlong(JNICALL table_bytes_fn)(JNIEnv *, jclass, jint, jint, jint);
typedef jobject(JNICALL allocate_table_fn)(JNIEnv *, jclass, jlong);
typedef void(JNICALL free_table_fn)(JNIEnv *, jclass, jobject, jlong);
typedef void(JNICALL build_table_fn)(JNIEnv *, jclass, jobject, jlong, jbyteArray, jbyteArray, jint, jint, jint);
typedef jbyteArray(JNICALL table_power_fn)(JNIEnv *, jclass, jobject, jlong, jbyteArray, jboolean);
typedef jbyteArray(JNICALL table_bounded_power_fn)(JNIEnv *, jclass, jobject, jlong, jbyteArray, jint);
typedef void(JNICALL force_gmp_fn)(JNIEnv *, jclass, jboolean);
typedef jboolean(JNICALL force_fn)(JNIEnv *, jclass, jstring);
typedef jstring(JNICALL string_fn)(JNIEnv *, jclass);

struct natives {
    on_load_fn *on_load;

    /* net.i2p.util.NativeBigInteger */
    power_fn *mod_pow;
    power_fn *mod_pow_ct;
    bounded_power_fn *mod_pow_ct_bound;
    power_fn *mod_pow_ct_fixed;
    inverse_fn *mod_inverse;
    jacobi_fn *jacobi;
    int_fn *jbigi_version;
    int_fn *gmp_major;
    int_fn *gmp_minor;
    int_fn *gmp_patch;

    /* net.i2p.util.FixedBase */
    table_bytes_fn *table_bytes;
    allocate_table_fn *allocate_table;
    free_table_fn *free_table;
    build_table_fn *build_table;
    table_power_fn *table_mod_pow;
    table_bounded_power_fn *table_mod_pow_ct_bound;

    /* net.i2p.util.Engine */
    force_gmp_fn *force_gmp;
    force_fn *force;
    string_fn *name;
    string_fn *note;
    string_fn *variant;

    /* The classes the natives are static methods of (their jclass argument). */
    jclass native_big_integer, fixed_base, engine;

    /* The names of the symbols not found, space-separated. */
    char missing[1024];
};

/*
 * Finds every symbol in lib.  Returns how many are missing, named in
 * n->missing (their pointers are NULL: no native may be called then).
 */
int natives_resolve(struct natives *n, struct loader_library *lib);

#endif
