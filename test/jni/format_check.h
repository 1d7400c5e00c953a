/*
 * format_check.h - lets the compiler check the printf-style formats of the
 * harness' own functions.  mingw-w64 must be told which printf it checks
 * against: its C99 one (gnu_printf, which knows %zu and %lld), which is
 * the one in use under -std=c11 (__USE_MINGW_ANSI_STDIO), not msvcrt's.
 */
#ifndef JNI_HARNESS_FORMAT_CHECK_H
#define JNI_HARNESS_FORMAT_CHECK_H

#include <stdio.h> /* on mingw-w64, defines __MINGW_PRINTF_FORMAT */

#if defined(__MINGW32__) && defined(__MINGW_PRINTF_FORMAT)
#define HARNESS_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__)
#define HARNESS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HARNESS_PRINTF(f, a)
#endif

#endif
