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
 * of it).  Java's own count of a table's users (NativeTable) is not what
 * keeps native code off freed memory: this file keeps a record of the live
 * blocks (address and length, and how many calls hold each), under a
 * mutex, and nothing is read from a buffer it is handed before that record
 * says the buffer lies inside a live block.  A buffer over a freed block,
 * freed again or read by a call, is refused without a byte of it touched;
 * a block a call holds is not freed.  The header is checked as well (the
 * magic is tied to the address: a header copied elsewhere is not a block).
 * Freeing wipes the whole block and unmaps it.
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
 * outside them, so only for memory known to be mapped (a live block).
 */
int jbigi_tm_is_block(const void *block, size_t block_bytes);

/* Zeroes a block that jbigi_tm_is_block accepts, header included (it is
 * then no longer a block): the first step of freeing. */
void jbigi_tm_wipe(void *block);

/* What jbigi_tm_free returns. */
#define JBIGI_TM_FREED 0
/* Not a live block of block_bytes bytes: never allocated here, freed
 * already, a view of another length or offset, or a damaged header. */
#define JBIGI_TM_NOT_LIVE (-1)
/* A call holds it (jbigi_tm_acquire): not freed. */
#define JBIGI_TM_IN_USE (-2)

/*
 * Wipes and unmaps the block at block if it is a live block of block_bytes
 * bytes that no call holds, and forgets it; refuses anything else, reading
 * nothing of memory that is not a live block.
 */
int jbigi_tm_free(void *block, size_t block_bytes);

/*
 * The live block that holds all bytes bytes at address (bytes >= 1), held
 * for the caller until jbigi_tm_release: it cannot be freed meanwhile.
 * NULL if no live block holds them (memory this file did not allocate, or
 * a block freed already): the caller must not read them then.
 */
void *jbigi_tm_acquire(const void *address, size_t bytes);

/* Lets go of a block from jbigi_tm_acquire. */
void jbigi_tm_release(void *block);

/* Live blocks now, for the tests. */
size_t jbigi_tm_live_blocks(void);

#endif
