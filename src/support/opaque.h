/*
 * opaque.h - hiding a scalar's value from the compiler: the one helper the
 * constant-time code uses for it.
 *
 * JBIGI_OPAQUE(x) for an integer variable x (a mask made from secret bits,
 * a loop's secret index): from that point the compiler knows nothing of
 * x's value, so it cannot turn a computation made of masks back into a
 * branch or a conditional move on the secret.  It emits no instruction.
 *
 * The vector form stays with the vector code, because what it may constrain
 * depends on where the vector types come from: adx_select.c's AVX2 select
 * always uses the compiler's own types (its OPAQUE, an "x" register), while
 * the IFMA engine's (JBIGI_VECTOR_OPAQUE in ifma_intrin.h) are the portable
 * model's structs in test builds, where the barrier must compile to nothing.
 */
#ifndef JBIGI_OPAQUE_H
#define JBIGI_OPAQUE_H

#if defined(__GNUC__) || defined(__clang__)
#define JBIGI_OPAQUE(x) __asm__("" : "+r"(x))
#else
#error "JBIGI_OPAQUE needs GCC or clang inline assembly"
#endif

#endif
