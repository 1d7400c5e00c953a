/*
 * wipe.h - GMP memory functions that zero every block before releasing it,
 * so exponents and intermediate powers of private-key operations do not stay
 * behind in freed heap memory.
 */
#ifndef JBIGI_WIPE_H
#define JBIGI_WIPE_H

#include "core/arith.h"

/*
 * Only where GMP is jbigi's own (JBIGI_PRIVATE_GMP: linked statically, its
 * symbols hidden) are its memory functions replaced.  GMP's memory functions
 * are process-wide, and a shared libgmp belongs to every user in the
 * process, whose allocation must not change under them.  So with a shared
 * libgmp (./build.sh dynamic) GMP's own heap blocks are not wiped and
 * exhausted memory aborts as GMP does; jbigi's operand, scratch and result
 * buffers are wiped either way.
 */
#ifdef JBIGI_PRIVATE_GMP
#define JBIGI_GMP_MEMORY_GUARDED 1
#else
#define JBIGI_GMP_MEMORY_GUARDED 0
#endif

/*
 * Makes GMP allocate through the wiping functions (no-op unless
 * JBIGI_GMP_MEMORY_GUARDED).  Call once, before any GMP value exists
 * (JNI_OnLoad).
 */
void jbigi_install_wiping_allocator(void);

/*
 * Runs fn(context) so that a block the wiping allocator cannot get, anywhere
 * inside it, makes it return JBIGI_NO_MEMORY instead of ending the process:
 * GMP has no way to report a failed allocation, so the allocator jumps back
 * here.  GMP's manual does not allow leaving an allocation function that
 * way; it is done only for the GMP linked into the library, the exact code
 * test_oom exercises (6.2.1 keeps no state that the jump could corrupt).
 * Whatever GMP had allocated for the interrupted call is lost - a leak after
 * an out-of-memory condition, never a crash - and, skipped by the jump,
 * those blocks are neither freed nor wiped.  Per thread; calls may nest.
 * Without JBIGI_GMP_MEMORY_GUARDED it only calls fn.
 */
typedef enum jbigi_status (*jbigi_guarded_fn)(void *context);
enum jbigi_status jbigi_run_guarded(jbigi_guarded_fn fn, void *context);

#endif
