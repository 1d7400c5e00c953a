/*
 * table_memory.c - blocks for fixed-base tables, see table_memory.h.
 */
#include "platform/table_memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

#define TM_MAGIC ((uint64_t)0x4a4254424c4f434bULL) /* "JBTBLOCK" */

enum { TM_WORD_MAGIC, TM_WORD_TABLE_BYTES, TM_WORD_GENERATION };
_Static_assert(TM_WORD_GENERATION == JBIGI_TM_GENERATION_WORD, "the generation's header word");

/* One read of a word Java can write: a volatile load, so that the compiler
 * neither repeats it nor reloads the local it went into (table_memory.h). */
static uint64_t read_once(const uint64_t *word)
{
    return *(const volatile uint64_t *)word;
}

static uint64_t magic_at(const void *block)
{
    return TM_MAGIC ^ (uint64_t)(uintptr_t)block;
}

/* Bytes mapped for a table of table_bytes bytes: whole pages. */
static size_t mapped_bytes(size_t table_bytes)
{
    const size_t page = jbigi_page_size();
    return (JBIGI_TM_HEADER_BYTES + table_bytes + page - 1) / page * page;
}

/* ---- the record of live blocks ---- */

/* One live block: its address, its length (header and table), its
 * generation, and how many calls hold it. */
struct live_block {
    uintptr_t start;
    size_t bytes;
    uint64_t generation;
    size_t users;
};

/* Sorted by start; blocks never overlap (each is its own mapping).  A few
 * thousand at most (TransparentTables bounds the bytes they hold). */
static struct live_block *record;
static size_t record_count, record_capacity;

/* The last generation given out (under the lock); the first is 1.  At one
 * block a nanosecond, 64 bits last for centuries: never reused. */
static uint64_t last_generation;

/* Index of the first block whose start is above address (under the lock). */
static size_t first_above(uintptr_t address)
{
    size_t lo = 0, hi = record_count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (record[mid].start <= address)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The live block holding [address, address + bytes), or NULL (under the lock). */
static struct live_block *holding(uintptr_t address, size_t bytes)
{
    const size_t i = first_above(address);
    if (i == 0)
        return NULL;
    struct live_block *b = &record[i - 1];
    if (address - b->start > b->bytes || bytes > b->bytes - (address - b->start))
        return NULL;
    return b;
}

/* Records a new block under a new generation (in *generation); 0, or -1
 * when memory ran out. */
static int remember(void *block, size_t bytes, uint64_t *generation)
{
    int rc = 0;
    jbigi_process_lock();
    if (record_count == record_capacity) {
        const size_t capacity = record_capacity ? 2 * record_capacity : 64;
        struct live_block *grown = realloc(record, capacity * sizeof *grown);
        if (grown == NULL) {
            rc = -1;
            goto done;
        }
        record = grown;
        record_capacity = capacity;
    }
    const size_t i = first_above((uintptr_t)block);
    memmove(record + i + 1, record + i, (record_count - i) * sizeof *record);
    *generation = ++last_generation;
    record[i] = (struct live_block){(uintptr_t)block, bytes, *generation, 0};
    record_count++;
done:
    jbigi_process_unlock();
    return rc;
}

void *jbigi_tm_acquire(const void *address, size_t bytes, uint64_t generation)
{
    if (address == NULL || bytes == 0)
        return NULL;
    void *block = NULL;
    jbigi_process_lock();
    struct live_block *b = holding((uintptr_t)address, bytes);
    if (b != NULL && b->generation == generation) {
        b->users++;
        block = (void *)b->start;
    }
    jbigi_process_unlock();
    return block;
}

void jbigi_tm_release(void *block)
{
    jbigi_process_lock();
    struct live_block *b = holding((uintptr_t)block, 1);
    if (b != NULL && b->start == (uintptr_t)block && b->users > 0)
        b->users--;
    jbigi_process_unlock();
}

size_t jbigi_tm_live_blocks(void)
{
    jbigi_process_lock();
    const size_t n = record_count;
    jbigi_process_unlock();
    return n;
}

/* ---- blocks ---- */

/*
 * Blocks are mapped pages of their own, not heap blocks: unmapped, they
 * leave the process at once.  Tables of 100 KiB and more freed into the C
 * heap stay resident as free space the heap seldom gives back; with a few
 * hundred tables made and evicted in turn, resident memory grew to twice
 * what the tables held.
 */
void *jbigi_tm_alloc(size_t table_bytes, uint64_t *generation)
{
    if (table_bytes < 8 || table_bytes > JBIGI_TM_MAX_TABLE_BYTES || table_bytes % 8 != 0)
        return NULL;
    /* Fresh anonymous pages are zero (and page-aligned, so 64-byte aligned). */
    uint64_t *block = jbigi_pages_alloc(mapped_bytes(table_bytes));
    if (block == NULL)
        return NULL;
    uint64_t fresh;
    if (remember(block, JBIGI_TM_HEADER_BYTES + table_bytes, &fresh) != 0) {
        jbigi_pages_free(block, mapped_bytes(table_bytes));
        return NULL;
    }
    /* No one else has the block yet: the header is written before anyone
     * can acquire it by a generation. */
    block[TM_WORD_MAGIC] = magic_at(block);
    block[TM_WORD_TABLE_BYTES] = table_bytes;
    block[TM_WORD_GENERATION] = fresh;
    *generation = fresh;
    return block;
}

int jbigi_tm_is_block(const void *block, size_t block_bytes)
{
    if (block == NULL || (uintptr_t)block % 64 != 0 || block_bytes < JBIGI_TM_HEADER_BYTES + 8)
        return 0;
    const uint64_t *header = block;
    const uint64_t magic = read_once(&header[TM_WORD_MAGIC]);
    const uint64_t table_bytes = read_once(&header[TM_WORD_TABLE_BYTES]);
    return magic == magic_at(block) && table_bytes == block_bytes - JBIGI_TM_HEADER_BYTES;
}

void jbigi_tm_wipe(void *block, size_t block_bytes)
{
    /* Tables hold only powers of a public base, but they are wiped as every
     * other block jbigi gives back is: what is freed holds nothing, whatever
     * the system does with the pages (core dumps, swap). */
    jbigi_secure_zero(block, mapped_bytes(block_bytes - JBIGI_TM_HEADER_BYTES));
}

int jbigi_tm_free(void *block, size_t block_bytes, uint64_t generation)
{
    jbigi_process_lock();
    struct live_block *b = holding((uintptr_t)block, 1);
    int rc = JBIGI_TM_FREED;
    if (b == NULL || b->start != (uintptr_t)block || b->bytes != block_bytes || b->generation != generation ||
        !jbigi_tm_is_block(block, block_bytes))
        rc = JBIGI_TM_NOT_LIVE;
    else if (b->users > 0)
        rc = JBIGI_TM_IN_USE;
    else {
        const size_t i = (size_t)(b - record);
        memmove(record + i, record + i + 1, (record_count - i - 1) * sizeof *record);
        record_count--;
    }
    jbigi_process_unlock();
    if (rc != JBIGI_TM_FREED)
        return rc;
    /* Forgotten: no call can acquire it any more, none holds it.  Its
     * length is the record's (block_bytes matched it), not the header's:
     * Java may have written the header since it was checked. */
    jbigi_tm_wipe(block, block_bytes);
    jbigi_pages_free(block, mapped_bytes(block_bytes - JBIGI_TM_HEADER_BYTES));
    return JBIGI_TM_FREED;
}
