/*
 * fixedbase_tables.c - the blocks and buffers of fixed-base tables.
 */
#include "fixedbase_tables.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gmp_ref.h"
#include "report.h"

uint64_t table_word(const struct table *t, size_t i)
{
    uint64_t w;
    memcpy(&w, t->block + HEADER_BYTES + 8 * i, sizeof w);
    return w;
}

int table_release(struct harness *h, struct table *t)
{
    struct outcome o;
    call_free_table(h, t->block_buffer, t->generation, &o);
    const int ok = outcome_is_clean(&o);
    if (!ok)
        check_outcome(&o, 0, "nativeFreeTable");
    else
        outcome_free(&o);
    return ok;
}

int table_allocate(struct harness *h, jlong table_bytes, struct table *t, const char *what)
{
    struct outcome o;
    memset(t, 0, sizeof *t);
    call_allocate_table(h, table_bytes, &o);
    int ok = outcome_is_clean(&o) && o.address != NULL;
    if (ok && (o.capacity != HEADER_BYTES + table_bytes || (uintptr_t)o.address % 64 != 0)) {
        snprintf(o.why, sizeof o.why, "a block of %lld bytes at %p: expected %lld bytes, 64-byte aligned",
                 (long long)o.capacity, o.address, (long long)(HEADER_BYTES + table_bytes));
        ok = 0;
    }
    if (ok) {
        t->block = o.address;
        t->block_bytes = o.capacity;
        t->generation = o.generation;
        t->table_bytes = table_bytes;
        for (jlong i = 0; i < table_bytes && ok; i++)
            ok = t->block[HEADER_BYTES + i] == 0;
        if (!ok)
            snprintf(o.why, sizeof o.why, "the new table is not all zero");
        t->block_buffer = fake_new_direct_buffer(h->fe, t->block, t->block_bytes);
        t->table_buffer = fake_new_direct_buffer(h->fe, t->block + HEADER_BYTES, table_bytes);
        fake_pin(h->fe, t->block_buffer);
        fake_pin(h->fe, t->table_buffer);
    }
    if (!ok) {
        char text[128];
        snprintf(text, sizeof text, "nativeAllocateTable(%lld) for %s", (long long)table_bytes, what);
        check_outcome(&o, 0, "%s", text);
        if (o.address != NULL && t->block == NULL) { /* allocated, but not as it should be: given back */
            struct outcome freed;
            call_free_table(h, fake_new_direct_buffer(h->fe, o.address, o.capacity), o.generation, &freed);
            outcome_free(&freed);
        }
        if (t->block != NULL)
            table_release(h, t);
        t->block = NULL;
        return 0;
    }
    outcome_free(&o);
    return 1;
}

int table_reference(struct harness *h, const struct bytes *b, const struct bytes *e, const struct bytes *m,
                    struct bytes *want)
{
    if (gmp_ref_available())
        return gmp_ref_mod_pow(b, e, m, want);
    struct outcome o;
    call_power(h, h->n.mod_pow, b, e, m, &o);
    const int ok = o.thrown[0] == '\0' && o.value.p != NULL;
    if (ok)
        *want = bytes_copy(o.value.p, o.value.len);
    outcome_free(&o);
    return ok;
}

jobject table_pinned_buffer(struct harness *h, void *address, jlong capacity)
{
    jobject buffer = fake_new_direct_buffer(h->fe, address, capacity);
    fake_pin(h->fe, buffer);
    return buffer;
}
