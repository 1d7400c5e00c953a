/*
 * test_table_memory.c - the blocks that hold fixed-base tables: aligned,
 * zeroed, sized as asked, recognised by their own header only while alive,
 * refused when forged or out of range, wiped when freed, and a failed
 * allocation reported as NULL.  mmap and munmap are intercepted (linked
 * with --wrap) to see each block as it is unmapped and to make one mapping
 * fail.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "check.h"
#include "table_memory.h"

void *__real_mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset);
int __real_munmap(void *address, size_t length);
void *__wrap_mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset);
int __wrap_munmap(void *address, size_t length);

/* The block being watched, its size, and what was seen when it was unmapped. */
static void *watched;
static size_t watched_bytes;
static int watched_freed, watched_wiped, watched_whole;
static int fail_next_allocation;

void *__wrap_mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset)
{
    if (fail_next_allocation) {
        fail_next_allocation = 0;
        return MAP_FAILED;
    }
    return __real_mmap(address, length, prot, flags, fd, offset);
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
    unsigned char *block = jbigi_tm_alloc(table_bytes);
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

    watched = block;
    watched_bytes = bytes;
    watched_freed = watched_wiped = watched_whole = 0;
    jbigi_tm_free(block);
    CHECK(watched_freed, "block of %zu bytes not unmapped", table_bytes);
    CHECK(watched_wiped, "block of %zu bytes not wiped before it was unmapped", table_bytes);
    CHECK(watched_whole, "block of %zu bytes not unmapped whole", table_bytes);
}

int main(void)
{
    size_t sizes[] = {8, 56, 64, 72, 4096, 131072, 163840, 32768 + 8};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_size(sizes[i]);

    /* Out of range: nothing allocated. */
    CHECK(jbigi_tm_alloc(0) == NULL, "a 0-byte table got a block");
    CHECK(jbigi_tm_alloc(4) == NULL, "a 4-byte table got a block");
    CHECK(jbigi_tm_alloc(12) == NULL, "a table of 12 bytes (not whole limbs) got a block");
    CHECK(jbigi_tm_alloc(JBIGI_TM_MAX_TABLE_BYTES + 8) == NULL, "a table over the limit got a block");
    CHECK(jbigi_tm_alloc(SIZE_MAX) == NULL, "a table of SIZE_MAX bytes got a block");

    /* No memory: NULL, not an abort. */
    fail_next_allocation = 1;
    CHECK(jbigi_tm_alloc(4096) == NULL, "an allocation that failed did not give NULL");

    /* What is not a block: too short, misaligned, a header copied to
     * another address, a forged size. */
    uint64_t *fake = aligned_alloc(64, 256);
    memset(fake, 0, 256);
    CHECK(!jbigi_tm_is_block(NULL, 128), "NULL recognised as a block");
    CHECK(!jbigi_tm_is_block(fake, 256), "a zero buffer recognised as a block");
    CHECK(!jbigi_tm_is_block(fake, 8), "8 bytes recognised as a block");
    uint64_t *real = jbigi_tm_alloc(128);
    memcpy(fake, real, JBIGI_TM_HEADER_BYTES);
    CHECK(!jbigi_tm_is_block(fake, JBIGI_TM_HEADER_BYTES + 128), "a header copied elsewhere recognised");
    CHECK(!jbigi_tm_is_block((unsigned char *)real + 8, JBIGI_TM_HEADER_BYTES + 120),
          "a misaligned address recognised");
    real[1] = 64;
    CHECK(!jbigi_tm_is_block(real, JBIGI_TM_HEADER_BYTES + 128), "a forged table size recognised");
    real[1] = 128;
    CHECK(jbigi_tm_is_block(real, JBIGI_TM_HEADER_BYTES + 128), "the block not recognised again");
    /* Wiped, a block is no longer one. */
    jbigi_tm_wipe(real);
    CHECK(!jbigi_tm_is_block(real, JBIGI_TM_HEADER_BYTES + 128), "a wiped block recognised");
    memcpy(real, fake, JBIGI_TM_HEADER_BYTES); /* the header copied above, so that it can be freed */
    jbigi_tm_free(real);
    free(fake);
    return finish("test_table_memory");
}
