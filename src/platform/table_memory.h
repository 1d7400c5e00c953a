/*
 * table_memory.h - the memory of fixed-base tables, allocated and freed by
 * jbigi itself rather than by the JVM's garbage collector, so that a table's
 * memory is given back the moment FixedBase lets go of it.  No JNI here.
 *
 * A block is whole pages of its own (so 64-byte aligned): a 64-byte header,
 * then the table, then zeros to the end of the last page.
 *
 *     [0] JBIGI_TM_MAGIC xor the block's address   [1] the table's bytes
 *     [2] the block's generation (for Java, see below)   [3..8) zero
 *
 * Java holds the whole block as one direct buffer (and the table as a slice
 * of it).  Java's own count of a table's users (NativeTable) is not what
 * keeps native code off freed memory: this file keeps a record of the live
 * blocks (address, length, generation, and how many calls hold each), under
 * a mutex, and nothing is read from a buffer it is handed before that record
 * says the buffer lies inside a live block of the generation the caller
 * names.  A buffer over a freed block, freed again or read by a call, is
 * refused without a byte of it touched; a block a call holds is not freed.
 *
 * Generations.  The system hands a freed block's address out again (a new
 * mapping often lands where an old one was), so an address alone does not
 * name a block: a stale buffer of a freed table would read, or free, the
 * block that now lives there.  Each block gets a generation when it is
 * allocated, unique in the process (a 64-bit count, never 0), kept in the
 * record; every call names the block by address and generation, and a block
 * whose generation differs is refused as a stale or freed one.  The
 * generation is handed to Java in header word [2] of the fresh block, which
 * Java reads once, at allocation, and keeps beside the buffer.  Native code
 * never reads it back from the header: the header is memory Java can write,
 * and a stale buffer at a reused address would read the new block's.
 *
 * The rule for memory Java can write (the header, the table): every field
 * is read once, into a local, and only the local is used afterwards; a
 * size, shape or count is never read twice, so a thread writing the buffer
 * meanwhile cannot make one read check a value and another use a different
 * one.  Sizes for wiping and unmapping come from the record, never from the
 * header.  The header is still checked (the magic is tied to the address: a
 * header copied elsewhere is not a block), and freeing wipes the whole
 * block and unmaps it.
 */
#ifndef JBIGI_TABLE_MEMORY_H
#define JBIGI_TABLE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#define JBIGI_TM_HEADER_BYTES 64

/* The header word (64-bit, in the CPU's byte order) that holds a fresh
 * block's generation: bytes 16 to 24 of the block. */
#define JBIGI_TM_GENERATION_WORD 2

/* Largest table a block holds: 128 MiB, far above any sensible comb shape. */
#define JBIGI_TM_MAX_TABLE_BYTES ((size_t)128 * 1024 * 1024)

/*
 * A new zeroed block for a table of table_bytes bytes (a multiple of 8, from
 * 8 to JBIGI_TM_MAX_TABLE_BYTES), JBIGI_TM_HEADER_BYTES + table_bytes bytes
 * long, its generation in *generation (and in header word
 * JBIGI_TM_GENERATION_WORD); NULL if table_bytes is out of range or there is
 * no memory.
 */
void *jbigi_tm_alloc(size_t table_bytes, uint64_t *generation);

/*
 * Whether the block_bytes bytes at block are a block from jbigi_tm_alloc,
 * whole and not yet freed, as far as its own bytes tell (each header word
 * read once).  Reads nothing outside them, so only for memory known to be
 * mapped (a live block).
 */
int jbigi_tm_is_block(const void *block, size_t block_bytes);

/* Zeroes the block_bytes bytes of a block (its length as allocated, header
 * included) to the end of its last page: it is then no longer a block.  The
 * first step of freeing; the length is the caller's, never the header's. */
void jbigi_tm_wipe(void *block, size_t block_bytes);

/* What jbigi_tm_free returns. */
#define JBIGI_TM_FREED 0
/* Not a live block of block_bytes bytes of that generation: never allocated
 * here, freed already (or a stale handle of a block freed since, whose
 * address a new block took), a view of another length or offset, or a
 * damaged header. */
#define JBIGI_TM_NOT_LIVE (-1)
/* A call holds it (jbigi_tm_acquire): not freed. */
#define JBIGI_TM_IN_USE (-2)

/*
 * Wipes and unmaps the block at block if it is a live block of block_bytes
 * bytes and of that generation that no call holds, and forgets it; refuses
 * anything else, reading nothing of memory that is not such a block.
 */
int jbigi_tm_free(void *block, size_t block_bytes, uint64_t generation);

/*
 * The live block of that generation that holds all bytes bytes at address
 * (bytes >= 1), held for the caller until jbigi_tm_release: it cannot be
 * freed meanwhile.  NULL if no live block holds them or the one that does
 * has another generation (memory this file did not allocate, a block freed
 * already, a stale handle): the caller must not read them then.
 */
void *jbigi_tm_acquire(const void *address, size_t bytes, uint64_t generation);

/* Lets go of a block from jbigi_tm_acquire. */
void jbigi_tm_release(void *block);

/* Live blocks now, for the tests. */
size_t jbigi_tm_live_blocks(void);

#endif
