/*
 * cpu_check.h - does this CPU have what a jbigi variant was built for?
 *
 * Each library is built for one row of src/cpu/variants.tsv; GMP's assembly and
 * the compiler's code for that row use instructions older CPUs lack.  Run
 * on such a CPU they would kill the JVM with SIGILL, so JNI_OnLoad asks this
 * file first.  It asks CPUID itself (and XGETBV for AVX and AVX-512: the OS
 * must save those registers), never /proc/cpuinfo, which a VM or an
 * emulator can contradict (a hypervisor was seen to list neither abm nor
 * sse4a there while CPUID reports both).
 *
 * This is the one rule for "this CPU has feature X": build.sh (through
 * src/cpu/cpu_probe.c), the Java loader (which lets each library's JNI_OnLoad
 * decide), the engines' CPU tests and the tests all ask it.  Compiled for
 * the baseline of the architecture, without GMP, so that it runs on any
 * CPU.
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

/*
 * 1 when jbigi_cpu_vendor() is "amd", 0 elsewhere.  The engine table (engines/registry.c) gives the
 * engines different sizes by vendor where they measured differently.
 */
int jbigi_cpu_is_amd(void);

/* CPUID's family (base family plus extended family, as Linux shows it:
 * 0x19 for Zen 3 and Zen 4, 0x1a for Zen 5); 0 off x86. */
unsigned jbigi_cpu_family(void);

/* The variant this library was built as ("skylake", "none", ...). */
const char *jbigi_cpu_variant(void);

#endif
