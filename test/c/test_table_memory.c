/*
 * test_table_memory.c - the blocks that hold fixed-base tables: aligned,
 * zeroed, sized as asked, recognised by their own header only while alive,
 * refused when forged or out of range, wiped when freed, and a failed
 * allocation reported as NULL; the record of live blocks: a block is freed
 * once, never while a call holds it, and neither a second free nor a call
 * on a freed block reads its unmapped pages; a stale handle (the generation
 * of a freed block whose address a new block took) is refused, and cannot
 * free the new block; the header written between free's check and its wipe
 * changes nothing (the wipe's length is the record's).  mmap and munmap are
 * intercepted (linked with --wrap) to see each block as it is unmapped, to
 * make one mapping fail and to map a guard page after one block;
 * jbigi_process_unlock, to write a block's header the moment free lets go
 * of the lock.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "check.h"
#include "platform/platform.h"
#include "platform/table_memory.h"

void *__real_mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset);
int __real_munmap(void *address, size_t length);
void *__wrap_mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset);
int __wrap_munmap(void *address, size_t length);
void __real_jbigi_process_unlock(void);
void __wrap_jbigi_process_unlock(void);

/* The block being watched, its size, and what was seen when it was unmapped. */
static void *watched;
static size_t watched_bytes;
static int watched_freed, watched_wiped, watched_whole;
static int fail_next_allocation;

/* The next mapping gets one more page after it, filled with GUARD_BYTE, at
 * guard (guarded_mapping: the length asked). */
#define GUARD_BYTE 0xa7
static int guard_next_allocation;
static unsigned char *guard;
static size_t guarded_mapping;

void *__wrap_mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset)
{
    if (fail_next_allocation) {
        fail_next_allocation = 0;
        return MAP_FAILED;
    }
    if (guard_next_allocation) {
        guard_next_allocation = 0;
        const size_t page = jbigi_page_size();
        unsigned char *p = __real_mmap(address, length + page, prot, flags, fd, offset);
        if (p != MAP_FAILED) {
            guard = p + length;
            guarded_mapping = length;
            memset(guard, GUARD_BYTE, page);
        }
        return p;
    }
    return __real_mmap(address, length, prot, flags, fd, offset);
}

/* When set, the next unlock of the process lock then writes this value into
 * this header word: Java writing the header while jbigi_tm_free runs. */
static uint64_t *write_after_unlock;
static uint64_t written_after_unlock;

void __wrap_jbigi_process_unlock(void)
{
    __real_jbigi_process_unlock();
    if (write_after_unlock != NULL) {
        *write_after_unlock = written_after_unlock;
        write_after_unlock = NULL;
    }
}

int __wrap_munmap(void *address, size_t length)
{
    if (address != NULL && address == watched) {
        const unsigned char *bytes = address;
        watched_wiped = 1;
        for (size_t i = 0; i < watched_bytes; i++)
            watched_wiped &= bytes[i] == 0;
        watched_whole = length >= watched_bytes;
        watched_freed = 1;
        watched = NULL;
    }
    return __real_munmap(address, length);
}

static void check_size(size_t table_bytes)
{
    uint64_t generation;
    unsigned char *block = jbigi_tm_alloc(table_bytes, &generation);
    CHECK(block != NULL, "no block for %zu bytes", table_bytes);
    if (block == NULL)
        return;
    size_t bytes = JBIGI_TM_HEADER_BYTES + table_bytes;
    CHECK((uintptr_t)block % 64 == 0, "block for %zu bytes not 64-byte aligned", table_bytes);
    CHECK(jbigi_tm_is_block(block, bytes), "fresh block of %zu bytes not recognised", table_bytes);
    CHECK(!jbigi_tm_is_block(block, bytes - 8) && !jbigi_tm_is_block(block, bytes + 8),
          "block of %zu bytes recognised with another length", table_bytes);
    int zero = 1;
    for (size_t i = JBIGI_TM_HEADER_BYTES; i < bytes; i++)
        zero &= block[i] == 0;
    CHECK(zero, "table of %zu bytes not zeroed", table_bytes);
    /* The whole table is writable. */
    memset(block + JBIGI_TM_HEADER_BYTES, 0xa5, table_bytes);
    CHECK(jbigi_tm_is_block(block, bytes), "block of %zu bytes not recognised after its table was written",
          table_bytes);

    /* Held by a call: not freed. */
    uint64_t in_header;
    memcpy(&in_header, block + 8 * JBIGI_TM_GENERATION_WORD, sizeof in_header);
    CHECK(generation != 0 && in_header == generation, "block of %zu bytes: generation %llu, %llu in its header",
          table_bytes, (unsigned long long)generation, (unsigned long long)in_header);
    void *held = jbigi_tm_acquire(block + JBIGI_TM_HEADER_BYTES, table_bytes, generation);
    CHECK(held == block, "the table of a block of %zu bytes not acquired", table_bytes);
    CHECK(jbigi_tm_acquire(block + JBIGI_TM_HEADER_BYTES, table_bytes, generation + 1) == NULL &&
              jbigi_tm_acquire(block + JBIGI_TM_HEADER_BYTES, table_bytes, 0) == NULL,
          "the table of a block of %zu bytes acquired under another generation", table_bytes);
    CHECK(jbigi_tm_free(block, bytes, generation) == JBIGI_TM_IN_USE, "a held block of %zu bytes freed", table_bytes);
    jbigi_tm_release(held);
    CHECK(jbigi_tm_free(block, bytes, generation + 1) == JBIGI_TM_NOT_LIVE,
          "a block of %zu bytes freed under another generation", table_bytes);

    watched = block;
    watched_bytes = bytes;
    watched_freed = watched_wiped = watched_whole = 0;
    CHECK(jbigi_tm_free(block, bytes - 8, generation) == JBIGI_TM_NOT_LIVE,
          "a block of %zu bytes freed by a shorter view", table_bytes);
    CHECK(!watched_freed, "a shorter view unmapped a block of %zu bytes", table_bytes);
    CHECK(jbigi_tm_free(block, bytes, generation) == JBIGI_TM_FREED, "block of %zu bytes not freed", table_bytes);
    CHECK(watched_freed, "block of %zu bytes not unmapped", table_bytes);
    CHECK(watched_wiped, "block of %zu bytes not wiped before it was unmapped", table_bytes);
    CHECK(watched_whole, "block of %zu bytes not unmapped whole", table_bytes);
    /* Freed: refused again, and its table is no longer handed out; neither
     * reads the unmapped pages (that would kill the process here). */
    CHECK(jbigi_tm_free(block, bytes, generation) == JBIGI_TM_NOT_LIVE, "a block of %zu bytes freed twice",
          table_bytes);
    CHECK(jbigi_tm_acquire(block + JBIGI_TM_HEADER_BYTES, table_bytes, generation) == NULL,
          "the table of a freed block of %zu bytes acquired", table_bytes);
}

/* What a block holds for a call: any bytes inside it, nothing that reaches
 * past it or lies outside every block; a freed block nothing. */
static void check_record(void)
{
    const size_t live = jbigi_tm_live_blocks();
    uint64_t ga, gb;
    unsigned char *a = jbigi_tm_alloc(4096, &ga), *b = jbigi_tm_alloc(64, &gb);
    CHECK(a != NULL && b != NULL, "no blocks");
    if (a == NULL || b == NULL)
        return;
    CHECK(jbigi_tm_live_blocks() == live + 2, "%zu live blocks, want %zu", jbigi_tm_live_blocks(), live + 2);
    const size_t a_bytes = JBIGI_TM_HEADER_BYTES + 4096, b_bytes = JBIGI_TM_HEADER_BYTES + 64;
    CHECK(jbigi_tm_acquire(a, a_bytes, ga) == a, "the whole block not held");
    CHECK(jbigi_tm_acquire(a + 8, 8, ga) == a, "eight bytes inside not held");
    CHECK(jbigi_tm_acquire(a + a_bytes - 8, 8, ga) == a, "its last eight bytes not held");
    CHECK(jbigi_tm_acquire(a + a_bytes - 8, 16, ga) == NULL, "bytes reaching past the block held");
    CHECK(jbigi_tm_acquire(a + a_bytes, 8, ga) == NULL, "the bytes just past the block held");
    CHECK(jbigi_tm_acquire(a - 8, 16, ga) == NULL, "bytes starting before the block held");
    CHECK(jbigi_tm_acquire(a, SIZE_MAX, ga) == NULL, "SIZE_MAX bytes held");
    CHECK(jbigi_tm_acquire(a, 0, ga) == NULL && jbigi_tm_acquire(NULL, 8, ga) == NULL, "nothing held");
    uint64_t outside[8];
    CHECK(jbigi_tm_acquire(outside, sizeof outside, ga) == NULL, "memory of no block held");
    CHECK(jbigi_tm_acquire(b + JBIGI_TM_HEADER_BYTES, 64, gb) == b, "the other block's table not held");
    /* a is held three times, b once: neither is freed until each is let go. */
    for (int i = 0; i < 2; i++) {
        CHECK(jbigi_tm_free(a, a_bytes, ga) == JBIGI_TM_IN_USE, "a held block freed (%d holds left)", 3 - i);
        jbigi_tm_release(a);
    }
    CHECK(jbigi_tm_free(a, a_bytes, ga) == JBIGI_TM_IN_USE, "a held block freed (1 hold left)");
    jbigi_tm_release(a);
    jbigi_tm_release(a); /* one release too many: nothing */
    CHECK(jbigi_tm_free(b, b_bytes, gb) == JBIGI_TM_IN_USE, "the other held block freed");
    jbigi_tm_release(b);
    CHECK(jbigi_tm_free(a, a_bytes, ga) == JBIGI_TM_FREED, "a block let go not freed");
    CHECK(jbigi_tm_free(a, a_bytes, ga) == JBIGI_TM_NOT_LIVE, "a block freed twice");
    CHECK(jbigi_tm_acquire(a + JBIGI_TM_HEADER_BYTES, 8, ga) == NULL, "a freed block held");
    CHECK(jbigi_tm_free(b + 64, b_bytes - 64, gb) == JBIGI_TM_NOT_LIVE, "a view of a block freed");
    CHECK(jbigi_tm_free(outside, sizeof outside, ga) == JBIGI_TM_NOT_LIVE, "memory of no block freed");
    CHECK(jbigi_tm_free(b, b_bytes, gb) == JBIGI_TM_FREED, "the other block not freed");
    CHECK(jbigi_tm_live_blocks() == live, "%zu live blocks after freeing, want %zu", jbigi_tm_live_blocks(), live);

    /* Many blocks at once: each found among the others. */
    enum { MANY = 300 };
    static unsigned char *many[MANY];
    static uint64_t generations[MANY];
    for (int i = 0; i < MANY; i++)
        many[i] = jbigi_tm_alloc(8 * (size_t)(1 + i % 7), &generations[i]);
    int found = 1;
    for (int i = 0; i < MANY; i++) {
        void *h = many[i] ? jbigi_tm_acquire(many[i] + JBIGI_TM_HEADER_BYTES, 8, generations[i]) : NULL;
        found &= h == many[i];
        if (h != NULL)
            jbigi_tm_release(h);
    }
    CHECK(found, "a block among %d not found", MANY);
    for (int i = MANY - 1; i >= 0; i -= 2)
        CHECK(jbigi_tm_free(many[i], JBIGI_TM_HEADER_BYTES + 8 * (size_t)(1 + i % 7), generations[i]) == JBIGI_TM_FREED,
              "block %d of %d not freed", i, MANY);
    for (int i = 0; i < MANY; i += 2)
        CHECK(jbigi_tm_free(many[i], JBIGI_TM_HEADER_BYTES + 8 * (size_t)(1 + i % 7), generations[i]) == JBIGI_TM_FREED,
              "block %d of %d not freed", i, MANY);
    CHECK(jbigi_tm_live_blocks() == live, "%zu live blocks after freeing many, want %zu", jbigi_tm_live_blocks(),
          live);
}

/*
 * A freed block's address taken by a new block: the stale handle (the old
 * generation) is refused by acquire and by free, and the new block stays
 * alive and whole.  The system hands a freed mapping's address out again
 * readily; if no new block lands there within a bounded number of tries,
 * the check is counted as skipped, never passed.
 */
static void check_stale_handles(void)
{
    enum { TRIES = 64, TABLE = 4096 };
    const size_t bytes = JBIGI_TM_HEADER_BYTES + TABLE;
    uint64_t old_generation;
    unsigned char *old = jbigi_tm_alloc(TABLE, &old_generation);
    CHECK(old != NULL, "no block for the stale-handle check");
    if (old == NULL)
        return;
    CHECK(jbigi_tm_free(old, bytes, old_generation) == JBIGI_TM_FREED, "the first block not freed");
    unsigned char *tried[TRIES];
    uint64_t generations[TRIES];
    int n = 0, reused = -1;
    while (n < TRIES && reused < 0) {
        tried[n] = jbigi_tm_alloc(TABLE, &generations[n]);
        if (tried[n] == NULL)
            break;
        if (tried[n] == old)
            reused = n;
        n++;
    }
    if (reused < 0) {
        SKIP(5, "stale handles: no new block landed at the freed block's address in %d allocations", n);
    } else {
        const uint64_t generation = generations[reused];
        CHECK(generation != old_generation, "the new block at a freed block's address has its generation");
        CHECK(jbigi_tm_acquire(old + JBIGI_TM_HEADER_BYTES, TABLE, old_generation) == NULL,
              "a stale handle acquired the block now at its address");
        watched = old;
        watched_bytes = bytes;
        watched_freed = 0;
        CHECK(jbigi_tm_free(old, bytes, old_generation) == JBIGI_TM_NOT_LIVE,
              "a stale handle freed the block now at its address");
        CHECK(!watched_freed, "a stale handle unmapped the block now at its address");
        watched = NULL;
        void *held = jbigi_tm_acquire(old + JBIGI_TM_HEADER_BYTES, TABLE, generation);
        CHECK(held == old && jbigi_tm_is_block(old, bytes), "the new block not live and whole after the stale calls");
        if (held != NULL)
            jbigi_tm_release(held);
    }
    for (int i = 0; i < n; i++)
        CHECK(jbigi_tm_free(tried[i], bytes, generations[i]) == JBIGI_TM_FREED, "block %d of the stale check not freed",
              i);
}

/*
 * The header's table size written after free's check and before its wipe
 * (the moment free lets go of the lock, as a Java thread may write it):
 * the wipe keeps to the block as recorded.  A guard page mapped right after
 * the block shows a wipe that runs past the block's end.
 */
static void check_header_written_during_free(void)
{
    const size_t page = jbigi_page_size();
    const size_t table = page - JBIGI_TM_HEADER_BYTES; /* a block of one page */
    uint64_t generation;
    guard = NULL;
    guard_next_allocation = 1;
    uint64_t *block = jbigi_tm_alloc(table, &generation);
    guard_next_allocation = 0;
    CHECK(block != NULL && guard == (unsigned char *)block + page && guarded_mapping == page,
          "no block of one page with a guard page after it");
    if (block == NULL || guard != (unsigned char *)block + page) {
        if (block != NULL)
            jbigi_tm_free(block, JBIGI_TM_HEADER_BYTES + table, generation);
        return;
    }
    write_after_unlock = &block[1];
    written_after_unlock = table + page; /* read again, it would size a wipe of two pages */
    CHECK(jbigi_tm_free(block, JBIGI_TM_HEADER_BYTES + table, generation) == JBIGI_TM_FREED,
          "the guarded block not freed");
    CHECK(write_after_unlock == NULL, "the header was not written while free ran");
    int intact = 1;
    for (size_t i = 0; i < page; i++)
        intact &= guard[i] == GUARD_BYTE;
    CHECK(intact, "free wiped past the block (the header's size, written after the check, read again)");
    __real_munmap(guard, page);
    guard = NULL;
}

int main(void)
{
    size_t sizes[] = {8, 56, 64, 72, 4096, 131072, 163840, 32768 + 8};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_size(sizes[i]);
    check_record();
    check_stale_handles();
    check_header_written_during_free();
    uint64_t generation;

    /* Out of range: nothing allocated. */
    CHECK(jbigi_tm_alloc(0, &generation) == NULL, "a 0-byte table got a block");
    CHECK(jbigi_tm_alloc(4, &generation) == NULL, "a 4-byte table got a block");
    CHECK(jbigi_tm_alloc(12, &generation) == NULL, "a table of 12 bytes (not whole limbs) got a block");
    CHECK(jbigi_tm_alloc(JBIGI_TM_MAX_TABLE_BYTES + 8, &generation) == NULL, "a table over the limit got a block");
    CHECK(jbigi_tm_alloc(SIZE_MAX, &generation) == NULL, "a table of SIZE_MAX bytes got a block");

    /* No memory: NULL, not an abort. */
    fail_next_allocation = 1;
    CHECK(jbigi_tm_alloc(4096, &generation) == NULL, "an allocation that failed did not give NULL");

    /* What is not a block: too short, misaligned, a header copied to
     * another address, a forged size. */
    uint64_t *fake = aligned_alloc(64, 256);
    memset(fake, 0, 256);
    CHECK(!jbigi_tm_is_block(NULL, 128), "NULL recognised as a block");
    CHECK(!jbigi_tm_is_block(fake, 256), "a zero buffer recognised as a block");
    CHECK(!jbigi_tm_is_block(fake, 8), "8 bytes recognised as a block");
    uint64_t *real = jbigi_tm_alloc(128, &generation);
    memcpy(fake, real, JBIGI_TM_HEADER_BYTES);
    CHECK(!jbigi_tm_is_block(fake, JBIGI_TM_HEADER_BYTES + 128), "a header copied elsewhere recognised");
    CHECK(!jbigi_tm_is_block((unsigned char *)real + 8, JBIGI_TM_HEADER_BYTES + 120),
          "a misaligned address recognised");
    real[1] = 64;
    CHECK(!jbigi_tm_is_block(real, JBIGI_TM_HEADER_BYTES + 128), "a forged table size recognised");
    real[1] = 128;
    CHECK(jbigi_tm_is_block(real, JBIGI_TM_HEADER_BYTES + 128), "the block not recognised again");
    /* Wiped, a block is no longer one. */
    jbigi_tm_wipe(real, JBIGI_TM_HEADER_BYTES + 128);
    CHECK(!jbigi_tm_is_block(real, JBIGI_TM_HEADER_BYTES + 128), "a wiped block recognised");
    CHECK(jbigi_tm_free(real, JBIGI_TM_HEADER_BYTES + 128, generation) == JBIGI_TM_NOT_LIVE, "a block with a wiped header freed");
    memcpy(real, fake, JBIGI_TM_HEADER_BYTES); /* the header copied above, so that it can be freed */
    CHECK(jbigi_tm_free(real, JBIGI_TM_HEADER_BYTES + 128, generation) == JBIGI_TM_FREED, "the block not freed");
    free(fake);
    return finish("test_table_memory");
}
