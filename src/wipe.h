/*
 * wipe.h - GMP memory functions that zero every block before releasing it,
 * so exponents and intermediate powers of private-key operations do not stay
 * behind in freed heap memory.
 */
#ifndef JBIGI_WIPE_H
#define JBIGI_WIPE_H

/*
 * Makes GMP allocate through the wiping functions.  GMP's memory functions
 * are process-wide: call once, before any GMP value exists (JNI_OnLoad).
 * In a static build they belong to jbigi's private copy of GMP; with a
 * shared libgmp they also wipe for everyone else in the process, which
 * costs them a little time and nothing else.
 */
void jbigi_install_wiping_allocator(void);

#endif
