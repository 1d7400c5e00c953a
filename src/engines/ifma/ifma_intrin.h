/*
 * ifma_intrin.h - where the IFMA code's AVX-512 intrinsics come from.
 *
 * In the library: the compiler's <immintrin.h>, on x86-64 with GCC or clang;
 * the vector functions carry target attributes (JBIGI_AVX512_TARGET), so the
 * files compile with plain flags and run nothing of AVX-512 until the CPU
 * check allowed it.  Elsewhere JBIGI_AVX512_CODE is 0 and the engine
 * compiles to stubs.
 *
 * In test builds with JBIGI_IFMA_MODEL (and -Itest/model): the portable C
 * model of test/model/avx512_model.h, on any CPU and architecture, so that
 * the engine's own code runs where the instructions do not exist.  There
 * the barriers that steer the compiler's register allocation
 * (JBIGI_VECTOR_OPAQUE) do nothing: they never change a value.
 */
#ifndef JBIGI_IFMA_INTRIN_H
#define JBIGI_IFMA_INTRIN_H

#if defined(JBIGI_IFMA_MODEL)
#include "avx512_model.h"
#define JBIGI_AVX512_CODE 1
#define JBIGI_AVX512_TARGET(features)
#define JBIGI_VECTOR_OPAQUE(x) ((void)0)
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define JBIGI_AVX512_CODE 1
#define JBIGI_AVX512_TARGET(features) __attribute__((target(features)))
/* x's value is unknown to the compiler from here on: it can neither fold
 * x's computation into its uses nor move it across this point.  The vector
 * form of opaque.h's JBIGI_OPAQUE, kept here because it depends on where
 * the vector types come from (a no-op on the model's above). */
#define JBIGI_VECTOR_OPAQUE(x) __asm__("" : "+v"(x))
#else
#define JBIGI_AVX512_CODE 0
#endif

#endif
