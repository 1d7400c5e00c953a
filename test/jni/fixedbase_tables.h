/*
 * fixedbase_tables.h - fixed-base tables as FixedBase.java and
 * NativeTable.java hold them, for the fixed-base checks: a block from
 * nativeAllocateTable (a 64-byte header, then the table), the direct buffer
 * over the whole block (what nativeFreeTable gets) and the one over its
 * table (what the other natives get), and the value a power must have.
 */
#ifndef JNI_HARNESS_FIXEDBASE_TABLES_H
#define JNI_HARNESS_FIXEDBASE_TABLES_H

#include <stdint.h>

#include "calls.h"

/* NativeTable.HEADER_BYTES, JBIGI_TM_HEADER_BYTES. */
#define HEADER_BYTES 64

/* A block from nativeAllocateTable and the buffers Java would hold on it. */
struct table {
    unsigned char *block;
    jlong block_bytes;
    jlong table_bytes;
    jlong generation; /* read once from the fresh header, passed with either buffer */
    jobject block_buffer; /* what nativeFreeTable gets */
    jobject table_buffer; /* the slice the other natives get */
};

/*
 * A new block for a table of table_bytes bytes, checked as FixedBase
 * expects it (its size, 64-byte aligned, the table zero), with both
 * buffers pinned; 0 after a failed check (what names it in the message).
 */
int table_allocate(struct harness *h, jlong table_bytes, struct table *t, const char *what);

/* Frees t's block as NativeTable.free does; 0 after a failed check. */
int table_release(struct harness *h, struct table *t);

/* Word i of t's table (host order): the header is words 0 to 5. */
uint64_t table_word(const struct table *t, size_t i);

/* A direct buffer over capacity bytes at address, kept across calls. */
jobject table_pinned_buffer(struct harness *h, void *address, jlong capacity);

/* The value base^exponent mod modulus must have: GMP's, or nativeModPow's;
 * 0 if there is none (it throws). */
int table_reference(struct harness *h, const struct bytes *base, const struct bytes *exponent,
                    const struct bytes *modulus, struct bytes *want);

#endif
