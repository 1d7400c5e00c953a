/* version.h - reading GMP's run-time version string. */
#ifndef JBIGI_VERSION_H
#define JBIGI_VERSION_H

/*
 * Part index (0 major, 1 minor, 2 patch) of a version string such as
 * "6.2.1", "6.3" or "10.12.100".  A part that is missing or not a number
 * reads as 0; a number too large for an int reads as -1.
 */
int jbigi_gmp_version_part(const char *version, int index);

#endif
