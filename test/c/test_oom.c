/*
 * test_oom.c - memory that cannot be had, inside GMP, becomes JBIGI_NO_MEMORY
 * from jbigi_run_guarded instead of an abort, and the process carries on.
 *
 * Linked with -Wl,--wrap=malloc: once the wiping allocator is installed GMP
 * allocates through wipe.c, whose malloc calls land in __wrap_malloc below,
 * which refuses blocks over a limit the test sets.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "arith.h"
#include "check.h"
#include "wipe.h"

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static size_t refuse_above = (size_t)-1;
static unsigned long refused;

void *__wrap_malloc(size_t size)
{
    if (size > refuse_above) {
        refused++;
        return NULL;
    }
    return __real_malloc(size);
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
    gmp_randclear(state);
    mpz_clears(b, e, m, r, want, NULL);
    return finish("test_oom");
}
