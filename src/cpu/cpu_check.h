/*
 * cpu_check.h - does this CPU have what a jbigi variant was built for?
 *
 * Each library is built for one row of src/cpu/variants.tsv; GMP's assembly and
 * the compiler's code for that row use instructions older CPUs lack.  Run
 * on such a CPU they would kill the JVM with SIGILL, so JNI_OnLoad asks this
 * file first.  It answers from this CPU's facts (cpu_facts.h: CPUID, and
 * XGETBV for AVX and AVX-512, since the OS must save those registers),
 * never from /proc/cpuinfo, which a VM or an emulator can contradict (a
 * hypervisor was seen to list neither abm nor sse4a there while CPUID
 * reports both).
 *
 * This is the one rule for "this CPU has feature X" by name: build.sh
 * (through src/cpu/cpu_probe.c), the Java loader (which lets each library's
 * JNI_OnLoad decide) and the tests ask it; the engines ask the facts'
 * bits.  Compiled for the baseline of the architecture, without GMP, so
 * that it runs on any CPU.
 */
#ifndef JBIGI_CPU_CHECK_H
#define JBIGI_CPU_CHECK_H

#include <stddef.h>

/* 1 if the CPU has the feature (named as /proc/cpuinfo names it: "adx",
 * "bmi2", "pni", ...), 0 if not, -1 if the name is unknown here. */
int jbigi_cpu_has(const char *name);

/* The i-th feature name the check knows (i from 0), or NULL past the last:
 * what a probe lists (src/cpu/cpu_probe.c). */
const char *jbigi_cpu_feature_name(size_t i);

/* "intel", "amd" (AuthenticAMD, or HygonGenuine: AMD's Zen 1 made under
 * licence) or "other", from CPUID's vendor string; "other" off x86.  The
 * vendor column of src/cpu/variants.tsv uses these names. */
const char *jbigi_cpu_vendor(void);

/*
 * Checks a space-separated feature list ("-" or "" for none).  Returns 0
 * when the CPU has them all; otherwise writes "lacks adx bmi2" (the missing
 * and unknown names) to message and returns -1.
 */
int jbigi_cpu_check_list(const char *features, char *message, size_t size);

/*
 * Checks the features this library was built for (JBIGI_FEATURES, from its
 * row of src/cpu/variants.tsv).  Returns 0 when they are all there; otherwise
 * writes a one-line explanation naming the variant and what is missing to
 * message and returns -1.
 */
int jbigi_cpu_check(char *message, size_t size);

/* The variant this library was built as ("skylake", "none", ...). */
const char *jbigi_cpu_variant(void);

#endif
