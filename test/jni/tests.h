/*
 * tests.h - the groups of checks, one file each, all run by jni_harness.c
 * on the library once its JNI_OnLoad has accepted the CPU.
 */
#ifndef JNI_HARNESS_TESTS_H
#define JNI_HARNESS_TESTS_H

#include "calls.h"

/* Engine natives and the version queries (test_engine.c); also returns, in
 * engines (up to max), the engine names nativeForce accepts here, "auto"
 * first, for the other groups to run under each. */
size_t test_engine(struct harness *h, const char **engines, size_t max);

/* Forces engine (a name nativeForce accepted); 1 if it still accepts it. */
int force_engine(struct harness *h, const char *engine);

/* Every line of a test/vectors/ file through the natives (test_vectors.c). */
void test_vectors(struct harness *h, const char *path, const char *engine);

/* Random operands of 1 to 4096 bits: the natives against each other, and
 * against GMP when compiled in (test_random.c). */
void test_random(struct harness *h, const char *engine);

/* Bad arguments one at a time (test_bad_inputs.c), and crossed
 * (test_bad_matrix.c). */
void test_bad_inputs(struct harness *h);
void test_bad_matrix(struct harness *h);

/* The fixed-base natives: tables of many sizes and shapes and their
 * powers, under each engine (test_fixedbase.c); sizes, shapes and
 * arguments refused (test_fixedbase_rules.c); a table freed, forged,
 * damaged (test_fixedbase_life.c); its header written during a call, and
 * a stale table at a reused address (test_fixedbase_races.c). */
void test_fixedbase(struct harness *h, const char *engine);
void test_fixedbase_rules(struct harness *h);
void test_fixedbase_life(struct harness *h);
void test_fixedbase_races(struct harness *h);

/* The natives when a JNI function fails (injected out-of-memory and
 * class-not-found) (test_jni_faults.c). */
void test_jni_faults(struct harness *h);

#endif
