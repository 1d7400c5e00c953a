/*
 * jni_md.h for Windows targets (x86-64, LLP64), for cross-building the
 * DLLs with mingw-w64: the JDK on this machine carries only its own
 * platform's header.  The types are the JNI specification's: jint 32 bits,
 * jlong 64, jbyte a signed 8-bit type; exported functions are marked for
 * the DLL's export table, and JNICALL is the platform's (ignored on x86-64,
 * which has one calling convention).
 */
#ifndef JBIGI_WIN32_JNI_MD_H
#define JBIGI_WIN32_JNI_MD_H

#define JNIEXPORT __declspec(dllexport)
#define JNIIMPORT __declspec(dllimport)
#define JNICALL __stdcall

typedef int jint;
typedef long long jlong;
typedef signed char jbyte;

#endif
