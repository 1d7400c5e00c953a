/*
 * test_wipe.c - once jbigi_install_wiping_allocator() is in place, every
 * block GMP frees is all zero by the time it reaches free().
 *
 * Link with -Wl,--wrap= each of malloc, calloc, aligned_alloc, realloc and
 * free.  The linker then
 * sends every call to those functions made from this program's own objects
 * (wipe.c among them, and GMP too when it is a static libgmp.a) to the
 * __wrap_ functions below, which remember each block's size and, at free,
 * look at whether the whole block is zero.  A shared libgmp calls its default
 * malloc unseen, but with the wiping allocator installed GMP allocates
 * through wipe.c, whose malloc and free are seen with either kind of libgmp.
 *
 * Every step runs twice: first under a control allocator that is wipe.c
 * without the wiping, where the step must leave the test pattern in some
 * freed block (so the detector demonstrably can fail on that step), then
 * under the wiping allocator, where nothing it frees may be non-zero.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "core/arith.h"
#include "check.h"
#include "core/convert.h"
#include "core/wipe.h"

void *__real_malloc(size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);

/* ---- the detector ---- */

/* Live blocks and their sizes.  A plain array: GMP keeps few blocks alive at
 * once, and the detector itself must not allocate. */
#define MAX_BLOCKS 4096
static struct block {
    void *p;
    size_t size;
} blocks[MAX_BLOCKS];
static size_t live_blocks;

static struct free_counts {
    unsigned long seen;     /* frees of blocks the wrapped malloc handed out */
    unsigned long dirty;    /* ... of which not all zero */
    unsigned long unknown;  /* frees of blocks it never saw */
    unsigned long reallocs; /* blocks given to the C library's realloc, which cannot wipe */
    size_t largest;         /* the largest block freed */
} counts;

static void remember(void *p, size_t size)
{
    if (p == NULL)
        return;
    if (live_blocks == MAX_BLOCKS) {
        fputs("test_wipe: block table full\n", stderr);
        abort();
    }
    blocks[live_blocks].p = p;
    blocks[live_blocks].size = size;
    live_blocks++;
}

/* Removes p from the table; returns 0 if it was never there. */
static int forget(void *p, size_t *size)
{
    for (size_t i = live_blocks; i-- > 0;) {
        if (blocks[i].p == p) {
            *size = blocks[i].size;
            blocks[i] = blocks[--live_blocks];
            return 1;
        }
    }
    return 0;
}

static int all_zero(const unsigned char *p, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (p[i] != 0)
            return 0;
    return 1;
}

void *__wrap_malloc(size_t size)
{
    void *p = __real_malloc(size);
    remember(p, size);
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *p = __real_calloc(count, size);
    remember(p, count * size);
    return p;
}

/* The IFMA engine's 64-byte aligned working memory. */
void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    void *p = __real_aligned_alloc(alignment, size);
    remember(p, size);
    return p;
}

void *__wrap_realloc(void *old, size_t size)
{
    size_t old_size;
    if (old != NULL) {
        if (forget(old, &old_size))
            counts.reallocs++;
        else
            counts.unknown++;
    }
    void *p = __real_realloc(old, size);
    remember(p, size);
    return p;
}

void __wrap_free(void *p)
{
    size_t size;
    if (p == NULL)
        return;
    if (!forget(p, &size)) {
        counts.unknown++;
    } else {
        counts.seen++;
        if (!all_zero(p, size))
            counts.dirty++;
        if (size > counts.largest)
            counts.largest = size;
    }
    __real_free(p);
}

/* ---- the control allocator ---- */

/* wipe.c's functions without the wiping.  realloc is allocate, copy, free
 * here too, so the block it moves away from passes the detector. */
static void *plain_alloc(size_t size)
{
    void *p = malloc(size);
    if (p == NULL)
        abort();
    return p;
}

static void *plain_realloc(void *old, size_t old_size, size_t new_size)
{
    void *p = plain_alloc(new_size);
    memcpy(p, old, old_size < new_size ? old_size : new_size);
    free(old);
    return p;
}

static void plain_free(void *p, size_t size)
{
    (void)size;
    free(p);
}

/* ---- the steps ---- */

/* Set per phase: whether the steps expect wiped or unwiped frees. */
static int wiping;

/* Checks the frees of one step: under the control allocator at least one
 * must still hold data; under the wiping one at least min_frees must have
 * been seen, all of them zero. */
static void check_step(const char *what, unsigned long min_frees, const struct free_counts *before)
{
    unsigned long seen = counts.seen - before->seen;
    unsigned long dirty = counts.dirty - before->dirty;
    if (wiping) {
        CHECK(seen >= min_frees, "%s: %lu blocks freed, want at least %lu", what, seen, min_frees);
        CHECK(dirty == 0, "%s: %lu of %lu freed blocks not wiped", what, dirty, seen);
        CHECK(counts.reallocs == before->reallocs,
              "%s: a block went to the C library's realloc, which leaves a moved block unwiped", what);
        CHECK(counts.unknown == before->unknown, "%s: freed a block the detector never saw", what);
    } else {
        CHECK(dirty > 0, "control %s: no data left in its %lu freed blocks, so this step cannot fail",
              what, seen);
    }
}

#define STEP(what, min_frees, statement)               \
    do {                                               \
        struct free_counts before_ = counts;           \
        statement;                                     \
        check_step(what, min_frees, &before_);         \
    } while (0)

/* A recognisable non-zero value of limbs limbs, different for each salt,
 * with its lowest bit set so it can serve as an odd modulus. */
static void set_pattern(mpz_t v, size_t limbs, unsigned salt)
{
    mp_limb_t *d = mpz_limbs_write(v, (mp_size_t)limbs);
    for (size_t i = 0; i < limbs; i++)
        d[i] = (mp_limb_t)(0xa5c3a5c3a5c3a5c3ULL ^ ((i + salt) * 0x0101010101010101ULL));
    d[0] |= 1;
    mpz_limbs_finish(v, (mp_size_t)limbs);
}

/* r as a fresh one-limb value: the next result stored in r grows it, which
 * frees this block. */
static void small_result(mpz_t r)
{
    mpz_clear(r);
    mpz_init(r);
    set_pattern(r, 1, 7);
}

/*
 * The same mpz work under whichever allocator is installed: growth by
 * realloc, growth by allocate-and-free, temporaries of mpz_powm above GMP's
 * alloca limit (0x7f00 bytes; larger ones come from the allocator), jbigi's
 * own operations, a string GMP hands out, and clears.
 */
static void run_steps(void)
{
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);

    mpz_t x, b, e, m, r, g;
    mpz_init2(x, 64);
    mpz_inits(b, e, m, r, g, NULL);
    set_pattern(x, 1, 0);
    set_pattern(e, 32, 1);
    set_pattern(m, 64, 2);
    /* The inverse steps need gcd(b, m) = 1. */
    set_pattern(b, 64, 3);
    for (mpz_gcd(g, b, m); mpz_cmp_ui(g, 1) != 0; mpz_gcd(g, b, m))
        mpz_add_ui(b, b, 1);

    STEP("mpz_realloc2 growth", 1, mpz_realloc2(x, 1 << 16));
    set_pattern(x, (1 << 16) / GMP_LIMB_BITS, 4);
    STEP("mpz_mul_2exp growth", 1, mpz_mul_2exp(x, x, 1 << 18));
    STEP("mpz_mul in place", 1, mpz_mul(x, x, x));
    STEP("mpz_realloc2 shrink", 1, mpz_realloc2(x, 4096));

    small_result(r);
    STEP("mpz_powm 4096-bit", 1, mpz_powm(r, b, e, m));
    /* A 131072-bit modulus with a one-limb exponent: big enough for heap
     * temporaries with any GMP tuning, quick enough for valgrind.  r is
     * already large enough, so whatever this step frees is a temporary. */
    mpz_t m_big, e_small;
    mpz_inits(m_big, e_small, NULL);
    set_pattern(m_big, 2048, 5);
    set_pattern(e_small, 1, 6);
    mpz_realloc2(r, 2048 * GMP_LIMB_BITS);
    STEP("mpz_powm 131072-bit temporaries", 1, mpz_powm(r, b, e_small, m_big));
    mpz_clears(m_big, e_small, NULL);

    small_result(r);
    STEP("jbigi_modpow", 1, CHECK(jbigi_modpow(r, b, e, m) == JBIGI_OK, "jbigi_modpow"));
    small_result(r);
    mpz_neg(e, e);
    STEP("jbigi_modpow negative exponent", 1,
         CHECK(jbigi_modpow(r, b, e, m) == JBIGI_OK, "jbigi_modpow negative exponent"));
    mpz_neg(e, e);
    small_result(r);
    STEP("jbigi_modpow_ct", 1, CHECK(jbigi_modpow_ct(r, b, e, m) == JBIGI_OK, "jbigi_modpow_ct"));
    small_result(r);
    STEP("jbigi_modinverse", 1, CHECK(jbigi_modinverse(r, b, m) == JBIGI_OK, "jbigi_modinverse"));

    /* jbigi_import grows its target; jbigi_export of a negative value goes
     * through a temporary. */
    uint8_t bytes[600];
    memset(bytes, 0xa5, sizeof bytes);
    small_result(r);
    STEP("jbigi_import growth", 1, jbigi_import(r, bytes, sizeof bytes));
    STEP("jbigi_export negative", 1, jbigi_export(bytes, sizeof bytes, r));

    STEP("string from mpz_get_str", 1, {
        char *s = mpz_get_str(NULL, 16, b);
        gmp_free(s, strlen(s) + 1);
    });
    STEP("mpz_clears", 6, mpz_clears(x, b, e, m, r, g, NULL));
}

/* Called through volatile pointers so the compiler cannot drop a
 * malloc/free pair whose block is never read. */
static void *(*volatile direct_malloc)(size_t) = malloc;
static void (*volatile direct_free)(void *) = free;

/* Frees a 100-byte block, all zero but for the byte at index at (none if
 * at >= 100); says whether the detector called it not wiped. */
static int detected_dirty(size_t at)
{
    struct free_counts before = counts;
    unsigned char *p = direct_malloc(100);
    memset(p, 0, 100);
    if (at < 100)
        p[at] = 0x5a;
    direct_free(p);
    CHECK(counts.seen - before.seen == 1, "a malloc'd block freed directly was not seen");
    return counts.dirty != before.dirty;
}

int main(void)
{
    if (!JBIGI_GMP_MEMORY_GUARDED) {
        /* A shared libgmp's memory functions are left alone (wipe.h). */
        printf("# test_wipe: skipped: the wiping GMP allocator is only built with GMP linked in (JBIGI_PRIVATE_GMP)\n");
        printf("0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    printf("# test_wipe: GMP %s\n", gmp_version);

    /* The detector itself: a zero block passes, one non-zero byte at either
     * end is caught. */
    CHECK(!detected_dirty(100), "a freed zero block was reported as not wiped");
    CHECK(detected_dirty(0), "a non-zero first byte was not detected");
    CHECK(detected_dirty(99), "a non-zero last byte was not detected");

    /* GMP's default allocator is seen only with a static libgmp: informative. */
    struct free_counts before = counts;
    mpz_t a;
    mpz_init(a);
    set_pattern(a, 100, 6);
    mpz_mul_2exp(a, a, 1 << 16);
    mpz_clear(a);
    printf("# GMP's default allocator: %lu frees seen (none with a shared libgmp), %lu not wiped\n",
           counts.seen - before.seen, counts.dirty - before.dirty);

    wiping = 0;
    mp_set_memory_functions(plain_alloc, plain_realloc, plain_free);
    run_steps();

    wiping = 1;
    before = counts;
    counts.largest = 0;
    jbigi_install_wiping_allocator();
    run_steps();
    printf("# wiping allocator: %lu blocks freed, %lu not wiped, largest %zu bytes\n",
           counts.seen - before.seen, counts.dirty - before.dirty, counts.largest);
    CHECK(counts.largest > 0x7f00, "no block above GMP's alloca limit was freed");
    return finish("test_wipe");
}
