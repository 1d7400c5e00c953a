/*
 * calls.h - one native call as a test sees it: the arguments made into
 * Java objects, the call, and its outcome (the value returned, or the
 * exception left pending), with everything the fake JNI noticed on the way
 * (breaches of JNI's rules, an argument array modified, a result that is
 * not in toByteArray() form).  Each call is its own frame: the objects it
 * made are freed when it ends.
 */
#ifndef JNI_HARNESS_CALLS_H
#define JNI_HARNESS_CALLS_H

#include <jni.h>

#include "bigbytes.h"
#include "fake_jni.h"
#include "format_check.h"
#include "natives.h"

/* What every test gets: the environment and the library's natives. */
struct harness {
    struct fake_env *fe;
    JNIEnv *env;
    struct natives n;
};

/* A byte[] argument: NULL for Java's null, else its bytes (len 0: empty). */
typedef const struct bytes *arg;

struct outcome {
    int returned_null;
    struct bytes value; /* a byte[] result (p NULL when none) */
    void *address; /* a direct buffer result */
    jlong capacity;
    jlong generation; /* a new table block's, from its header (call_allocate_table) */
    char text[256]; /* a String result */
    char thrown[96]; /* the pending exception's class, "" if none */
    char message[256];
    unsigned misuses; /* breaches of JNI's rules, the first one in misuse */
    char misuse[512];
    char why[1024]; /* set by the outcome_is_* checks when they fail */
};

void outcome_free(struct outcome *o);

/* ---- the calls ---- */

void call_power(struct harness *h, power_fn *fn, arg base, arg exponent, arg modulus, struct outcome *o);
void call_bounded_power(struct harness *h, arg base, arg exponent, arg modulus, jint bits, struct outcome *o);
void call_inverse(struct harness *h, arg value, arg modulus, struct outcome *o);
/* nativeJacobi: the symbol it returned into *symbol (0 when it threw). */
void call_jacobi(struct harness *h, arg a, arg n, jint *symbol, struct outcome *o);
/* The table natives take a table's buffer with its block's generation
 * (what nativeAllocateTable wrote into the fresh block's header: o->generation). */
void call_table_power(struct harness *h, jobject table, jlong generation, arg exponent, int constant_time,
                      struct outcome *o);
void call_table_bounded_power(struct harness *h, jobject table, jlong generation, arg exponent, jint bits,
                              struct outcome *o);
void call_build_table(struct harness *h, jobject table, jlong generation, arg base, arg modulus, jint rows,
                      jint blocks, jint max_exponent_bits, struct outcome *o);
void call_allocate_table(struct harness *h, jlong table_bytes, struct outcome *o);
void call_free_table(struct harness *h, jobject block, jlong generation, struct outcome *o);
void call_string(struct harness *h, string_fn *fn, struct outcome *o);

/* For natives without a wrapper: begin, call, then finish with what the
 * native returned (NULL for void). */
void call_begin(struct harness *h);
void call_finish(struct harness *h, jobject result, struct outcome *o);

/* ---- the checks: 1 if the outcome is as expected, else 0 and o->why ---- */

/* Returned exactly want, a byte[] in toByteArray() form, nothing pending. */
int outcome_is_value(struct outcome *o, const struct bytes *want);

/* Returned exactly the bytes want (the fixed-length form), nothing pending. */
int outcome_is_bytes(struct outcome *o, const struct bytes *want);

/* Returned normally with nothing pending, no breach (for void natives). */
int outcome_is_clean(struct outcome *o);

/* Returned NULL with class_name pending, whose message contains mention
 * (NULL: any message). */
int outcome_threw(struct outcome *o, const char *class_name, const char *mention);

/* Reports one check: ok, or not ok with o->why appended (": ..."); then
 * frees the outcome. */
void check_outcome(struct outcome *o, int ok, const char *format, ...) HARNESS_PRINTF(3, 4);

/* A one-line account of the outcome, for messages. */
const char *outcome_describe(const struct outcome *o, char *text, size_t size);

#endif
