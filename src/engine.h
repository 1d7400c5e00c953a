/*
 * engine.h - which code raises to a power: GMP, or the AVX-512 IFMA engine
 * (ifma.h) where the CPU has it and the modulus is a size where it wins.
 * The choice is per call and never changes a result.
 */
#ifndef JBIGI_ENGINE_H
#define JBIGI_ENGINE_H

#include <gmp.h>

/* Forces GMP for every call from now on (-Djbigi.engine=gmp), or lets the
 * choice be made per call again (auto).  Set once, at load. */
void jbigi_engine_force_gmp(int force);

/* 1 if a modulus of n limbs goes to the IFMA engine. */
int jbigi_engine_ifma_takes(mp_size_t n);

/* The engine modPow uses for large moduli here: "avx512-ifma" or "gmp". */
const char *jbigi_engine_name(void);

/* What a user should know about the engines beyond the name: why an engine
 * this CPU has is not used (its self-test failed), or "" when nothing. */
const char *jbigi_engine_note(void);

#endif
