/*
 * java_exceptions.h - the exception classes the checks expect, in JNI's
 * form (what FindClass is given, and what the fake JNI records).
 */
#ifndef JNI_HARNESS_JAVA_EXCEPTIONS_H
#define JNI_HARNESS_JAVA_EXCEPTIONS_H

#define AE "java/lang/ArithmeticException"
#define IAE "java/lang/IllegalArgumentException"
#define NFE "java/lang/NumberFormatException"
#define NPE "java/lang/NullPointerException"
#define OOM "java/lang/OutOfMemoryError"

#endif
