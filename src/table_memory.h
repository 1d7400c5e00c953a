/*
 * table_memory.h - the memory of fixed-base tables, allocated and freed by
 * jbigi itself rather than by the JVM's garbage collector, so that a table's
 * memory is given back the moment FixedBase lets go of it.  No JNI here.
 *
 * A block is whole pages of its own (so 64-byte aligned): a 64-byte header,
 * then the table, then zeros to the end of the last page.
 *
 *     [0] JBIGI_TM_MAGIC xor the block's address   [1] the table's bytes   [2..8) zero
 *
 * Java holds the whole block as one direct buffer (and the table as a slice
 * of it), so jbigi_tm_is_block can check a buffer it is handed reading only
 * bytes inside that buffer.  The magic is tied to the address: a header
 * copied elsewhere is not a block.  Freeing wipes the whole block and
 * unmaps it.
 */
#ifndef JBIGI_TABLE_MEMORY_H
#define JBIGI_TABLE_MEMORY_H

#include <stddef.h>

#define JBIGI_TM_HEADER_BYTES 64

/* Largest table a block holds: 128 MiB, far above any sensible comb shape. */
#define JBIGI_TM_MAX_TABLE_BYTES ((size_t)128 * 1024 * 1024)

/*
 * A new zeroed block for a table of table_bytes bytes (a multiple of 8, from
 * 8 to JBIGI_TM_MAX_TABLE_BYTES), JBIGI_TM_HEADER_BYTES + table_bytes bytes
 * long; NULL if table_bytes is out of range or there is no memory.
 */
void *jbigi_tm_alloc(size_t table_bytes);

/*
 * Whether the block_bytes bytes at block are a block from jbigi_tm_alloc,
 * whole and not yet freed, as far as its own bytes tell.  Reads nothing
 * outside them.
 */
int jbigi_tm_is_block(const void *block, size_t block_bytes);

/* Zeroes a block that jbigi_tm_is_block accepts, header included (it is
 * then no longer a block): the first step of jbigi_tm_free. */
void jbigi_tm_wipe(void *block);

/* Wipes and unmaps a block that jbigi_tm_is_block accepts. */
void jbigi_tm_free(void *block);

#endif
