/*
 * table_memory.c - blocks for fixed-base tables, see table_memory.h.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include "table_memory.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TM_MAGIC ((uint64_t)0x4a4254424c4f434bULL) /* "JBTBLOCK" */

enum { TM_WORD_MAGIC, TM_WORD_TABLE_BYTES };

static uint64_t magic_at(const void *block)
{
    return TM_MAGIC ^ (uint64_t)(uintptr_t)block;
}

/* Bytes mapped for a table of table_bytes bytes: whole pages. */
static size_t mapped_bytes(size_t table_bytes)
{
    long page_size = sysconf(_SC_PAGESIZE);
    size_t page = page_size > 0 ? (size_t)page_size : 4096;
    return (JBIGI_TM_HEADER_BYTES + table_bytes + page - 1) / page * page;
}

/*
 * Blocks are mapped pages of their own, not heap blocks: unmapped, they
 * leave the process at once.  Tables of 100 KiB and more freed into the C
 * heap stay resident as free space the heap seldom gives back; with a few
 * hundred tables made and evicted in turn, resident memory grew to twice
 * what the tables held.
 */
void *jbigi_tm_alloc(size_t table_bytes)
{
    if (table_bytes < 8 || table_bytes > JBIGI_TM_MAX_TABLE_BYTES || table_bytes % 8 != 0)
        return NULL;
    /* Fresh anonymous pages are zero (and page-aligned, so 64-byte aligned). */
    uint64_t *block = mmap(NULL, mapped_bytes(table_bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                           -1, 0);
    if (block == MAP_FAILED)
        return NULL;
    block[TM_WORD_MAGIC] = magic_at(block);
    block[TM_WORD_TABLE_BYTES] = table_bytes;
    return block;
}

int jbigi_tm_is_block(const void *block, size_t block_bytes)
{
    if (block == NULL || (uintptr_t)block % 64 != 0 || block_bytes < JBIGI_TM_HEADER_BYTES + 8)
        return 0;
    const uint64_t *header = block;
    return header[TM_WORD_MAGIC] == magic_at(block) &&
           header[TM_WORD_TABLE_BYTES] == block_bytes - JBIGI_TM_HEADER_BYTES;
}

void jbigi_tm_wipe(void *block)
{
    uint64_t *header = block;
    /* Tables hold only powers of a public base, but they are wiped as every
     * other block jbigi gives back is: what is freed holds nothing, whatever
     * the system does with the pages (core dumps, swap). */
    explicit_bzero(block, mapped_bytes((size_t)header[TM_WORD_TABLE_BYTES]));
}

void jbigi_tm_free(void *block)
{
    size_t bytes = mapped_bytes((size_t)((uint64_t *)block)[TM_WORD_TABLE_BYTES]);
    jbigi_tm_wipe(block);
    munmap(block, bytes);
}
