/*
 * test_oom.c - memory that cannot be had, inside GMP, becomes JBIGI_NO_MEMORY
 * from jbigi_run_guarded instead of an abort, and the process carries on;
 * and the fixed-base comb reports every allocation of its own that fails.
 *
 * Linked with -Wl,--wrap=malloc (and calloc, aligned_alloc): once the
 * wiping allocator is installed GMP allocates through wipe.c, whose malloc
 * calls land in __wrap_malloc below, which refuses blocks over a limit the
 * test sets, or the one allocation it is told to refuse.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "engines/adx/adx.h"
#include "core/arith.h"
#include "check.h"
#include "engines/engine.h"
#include "core/fixedbase.h"
#include "engines/ifma/ifma.h"
#include "core/wipe.h"

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);

static size_t refuse_above = (size_t)-1;
static unsigned long refused;
/* Allocations to let through before refusing one; -1: none refused. */
static long refuse_after = -1;

static int refuse(size_t size)
{
    if (refuse_after == 0) {
        refuse_after = -1;
        refused++;
        return 1;
    }
    if (refuse_after > 0)
        refuse_after--;
    if (size > refuse_above) {
        refused++;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size)
{
    return refuse(size) ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return refuse(count * size) ? NULL : __real_calloc(count, size);
}

void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    return refuse(size) ? NULL : __real_aligned_alloc(alignment, size);
}

struct call {
    mpz_ptr r;
    mpz_srcptr b, e, m;
};

static enum jbigi_status powm(void *context)
{
    struct call *c = context;
    return jbigi_modpow(c->r, c->b, c->e, c->m);
}

static enum jbigi_status nested(void *context)
{
    /* An inner guard catches its own failure; the outer one sees success. */
    enum jbigi_status inner = jbigi_run_guarded(powm, context);
    return inner == JBIGI_NO_MEMORY ? JBIGI_OK : JBIGI_MODULUS_EVEN;
}

struct pow_call {
    mpz_ptr r;
    mpz_srcptr b, e, m;
    int constant_time;
};

static enum jbigi_status pow_either(void *context)
{
    struct pow_call *c = context;
    return c->constant_time ? jbigi_modpow_ct(c->r, c->b, c->e, c->m) : jbigi_modpow(c->r, c->b, c->e, c->m);
}

/* The base 2 at 2048 bits on each engine this CPU runs, each on its
 * base-2 path (GMP's engine on mpn_mont.c, whose scratch is its own): the
 * first, second, ... allocation refused gives JBIGI_NO_MEMORY, and the
 * first run with none refused the right result. */
static void check_base_two(gmp_randstate_t state)
{
    mpz_t two, e, m, r, want;
    mpz_inits(two, e, m, r, want, NULL);
    mpz_set_ui(two, 2);
    mpz_urandomb(m, state, 2048);
    mpz_setbit(m, 2047);
    mpz_setbit(m, 0);
    mpz_urandomb(e, state, 2000);
    mpz_powm(want, two, e, m);
    /* The engines' self-tests' allocations, first. */
    (void)jbigi_ifma_available();
    (void)jbigi_adx_available();
    static const char *const engines[] = {"gmp", "adx", "ifma"};
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
        if (jbigi_engine_force(engines[i]) != 0)
            continue;
        for (int ct = 0; ct <= 1; ct++) {
            struct pow_call c = {r, two, e, m, ct};
            long k = 0;
            for (;; k++) {
                refuse_after = k;
                const enum jbigi_status status = jbigi_run_guarded(pow_either, &c);
                const int hit = refuse_after == -1;
                refuse_after = -1;
                if (!hit) {
                    CHECK(status == JBIGI_OK && mpz_cmp(r, want) == 0,
                          "base 2 (engine %s, ct %d): status %d or a wrong result with nothing refused", engines[i],
                          ct, (int)status);
                    break;
                }
                CHECK(status == JBIGI_NO_MEMORY, "base 2 (engine %s, ct %d): allocation %ld refused gave %d",
                      engines[i], ct, k, (int)status);
            }
            CHECK(k > 0, "base 2 (engine %s, ct %d): allocates nothing", engines[i], ct);
        }
    }
    jbigi_engine_force("auto");
    mpz_clears(two, e, m, r, want, NULL);
}

/* The fixed-base tables exist where GMP's limbs are 64 bits (the Makefile's
 * LIMB32_OMITTED leaves them out elsewhere). */
#if GMP_LIMB_BITS == 64
struct fb_call {
    mpz_ptr r;
    mpz_srcptr g, e, m;
    mp_limb_t *table;
    size_t table_limbs;
    const jbigi_fb_header *header; /* the table as read, outside the guard, as the JNI layer reads it */
    int constant_time;
};

static enum jbigi_status fb_build(void *context)
{
    struct fb_call *c = context;
    return jbigi_fb_build(c->table, c->table_limbs, c->g, c->m, 6, 2, mpz_sizeinbase(c->m, 2));
}

static enum jbigi_status fb_powm(void *context)
{
    struct fb_call *c = context;
    return jbigi_fb_powm_read(c->r, c->header, c->e, c->constant_time);
}

/* Refuses the first, second, ... allocation of fn until one run needs no
 * more than were let through: each refusal must give JBIGI_NO_MEMORY, and
 * the run after them the right answer (checked by the caller). */
static void refuse_each(enum jbigi_status (*fn)(void *), struct fb_call *c, const char *what)
{
    long k = 0;
    for (;; k++) {
        refuse_after = k;
        enum jbigi_status status = jbigi_run_guarded(fn, c);
        const int hit = refuse_after == -1;
        refuse_after = -1;
        if (!hit) {
            CHECK(status == JBIGI_OK, "%s (engine %s, ct %d): %d with nothing refused", what, jbigi_engine_name(),
                  c->constant_time, (int)status);
            break;
        }
        CHECK(status == JBIGI_NO_MEMORY, "%s (engine %s, ct %d): allocation %ld refused gave %d", what,
              jbigi_engine_name(), c->constant_time, k, (int)status);
    }
    CHECK(k > 0, "%s: allocates nothing", what);
}

/* The comb on each engine this CPU runs, at a size the MULX/ADX engine and
 * the IFMA engine both take. */
static void check_fixed_base(gmp_randstate_t state)
{
    mpz_t g, e, m, r, want;
    mpz_inits(g, e, m, r, want, NULL);
    mpz_urandomb(m, state, 1024);
    mpz_setbit(m, 1023);
    mpz_setbit(m, 0);
    mpz_urandomb(g, state, 1024);
    mpz_urandomb(e, state, 1000);
    mpz_powm(want, g, e, m);
    /* The engines' self-tests allocate on their first call, and a refusal
     * there only postpones them: done first, so that what is refused is the
     * comb's. */
    (void)jbigi_ifma_available();
    (void)jbigi_adx_available();
    static const char *const engines[] = {"gmp", "adx", "auto"};
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
        if (jbigi_engine_force(engines[i]) != 0)
            continue;
        const size_t table_limbs = jbigi_fb_table_limbs(mpz_size(m), 6, 2);
        mp_limb_t *table = calloc(table_limbs, sizeof(mp_limb_t));
        CHECK(table != NULL, "no memory for the table");
        if (table == NULL)
            break;
        struct fb_call c = {r, g, e, m, table, table_limbs, NULL, 0};
        refuse_each(fb_build, &c, "fixed-base build");
        jbigi_fb_header header;
        /* The read's copy of the modulus refused: JBIGI_NO_MEMORY, nothing held. */
        refuse_after = 0;
        const enum jbigi_status refused_read = jbigi_fb_read(&header, table, table_limbs);
        CHECK(refuse_after == -1 && refused_read == JBIGI_NO_MEMORY && header.modulus == NULL,
              "fixed-base read (engine %s) with its copy refused: %d", engines[i], (int)refused_read);
        refuse_after = -1;
        const int read = jbigi_fb_read(&header, table, table_limbs) == JBIGI_OK;
        CHECK(read, "the table built (engine %s) not read", engines[i]);
        c.header = &header;
        for (c.constant_time = 0; read && c.constant_time <= 1; c.constant_time++) {
            refuse_each(fb_powm, &c, "fixed-base powm");
            CHECK(mpz_cmp(r, want) == 0, "fixed-base powm (engine %s, ct %d): wrong result after the refusals",
                  engines[i], c.constant_time);
        }
        if (read)
            jbigi_fb_release(&header);
        free(table);
    }
    jbigi_engine_force("auto");
    mpz_clears(g, e, m, r, want, NULL);
}
#endif

int main(void)
{
    if (!JBIGI_GMP_MEMORY_GUARDED) {
        /* A shared libgmp's memory functions are left alone (wipe.h). */
        printf("# test_oom: skipped: the out-of-memory guard is only built with GMP linked in (JBIGI_PRIVATE_GMP)\n");
        printf("0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    test_seed("test_oom");
    jbigi_install_wiping_allocator();
    mpz_t b, e, m, r, want;
    mpz_inits(b, e, m, r, want, NULL);
    gmp_randstate_t state;
    gmp_randinit_default(state);
    mpz_urandomb(m, state, 1 << 16);
    mpz_setbit(m, 0);
    mpz_urandomb(b, state, 1 << 16);
    mpz_urandomb(e, state, 64);
    struct call c = {r, b, e, m};

    for (int round = 0; round < 3; round++) {
        refuse_above = 4096; /* far less than a 64-Kbit powm needs */
        unsigned long before = refused;
        CHECK(jbigi_run_guarded(powm, &c) == JBIGI_NO_MEMORY, "round %d: refusal not reported", round);
        CHECK(refused > before, "round %d: no allocation was refused", round);
        CHECK(jbigi_run_guarded(nested, &c) == JBIGI_OK, "round %d: nested guard", round);
        refuse_above = (size_t)-1;
        /* Afterwards everything works as before, r included. */
        CHECK(jbigi_run_guarded(powm, &c) == JBIGI_OK, "round %d: recovery", round);
        mpz_powm(want, b, e, m);
        CHECK(mpz_cmp(r, want) == 0, "round %d: result after recovery", round);
    }
    check_base_two(state);
#if GMP_LIMB_BITS == 64
    check_fixed_base(state);
#endif
    gmp_randclear(state);
    mpz_clears(b, e, m, r, want, NULL);
    return finish("test_oom");
}
