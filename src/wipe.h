/*
 * wipe.h - GMP memory functions that zero every block before releasing it,
 * so exponents and intermediate powers of private-key operations do not stay
 * behind in freed heap memory.
 */
#ifndef JBIGI_WIPE_H
#define JBIGI_WIPE_H

#include "arith.h"

/*
 * Makes GMP allocate through the wiping functions.  GMP's memory functions
 * are process-wide: call once, before any GMP value exists (JNI_OnLoad).
 * In a static build they belong to jbigi's private copy of GMP; with a
 * shared libgmp they also wipe for everyone else in the process, which
 * costs them a little time and nothing else.
 */
void jbigi_install_wiping_allocator(void);

/*
 * Runs fn(context) so that a block the wiping allocator cannot get, anywhere
 * inside it, makes it return JBIGI_NO_MEMORY instead of ending the process:
 * GMP has no way to report a failed allocation, so the allocator jumps back
 * here.  Whatever GMP had allocated for the interrupted call is lost - a
 * leak after an out-of-memory condition, never a crash - and, skipped by the
 * jump, those blocks are neither freed nor wiped.  Per thread; calls may
 * nest.
 */
typedef enum jbigi_status (*jbigi_guarded_fn)(void *context);
enum jbigi_status jbigi_run_guarded(jbigi_guarded_fn fn, void *context);

#endif
