/*
 * onload.h - what runs when the JVM loads the library (onload.c): the CPU
 * check in JNI_OnLoad, and jbigi_throw, which the refusal uses and every
 * entry point shares.  onload.c is compiled for the architecture's
 * baseline, as cpu_check.c is, since it runs before the CPU is known to run
 * the rest of the library.
 */
#ifndef JBIGI_ONLOAD_H
#define JBIGI_ONLOAD_H

#include <jni.h>

/* Throws a new class_name (a JNI class name) with message. */
void jbigi_throw(JNIEnv *env, const char *class_name, const char *message);

#endif
