/*
 * fuzz_fixedbase.c - libFuzzer target for the validation of fixed-base
 * tables: a forged or damaged table must be refused or evaluated within its
 * bounds, never read outside them.
 *
 * FixedBase keeps tables in direct ByteBuffers that only it writes, but the
 * natives take any buffer, so fixedbase.c checks every header field against
 * the buffer's length before it reads an entry.  This target builds a real
 * table from fuzzer-chosen operands and shape, then overwrites fuzzer-chosen
 * limbs (header, modulus or entries) and may shorten the length it reports,
 * and evaluates it in both variants.  The table sits alone on the heap, so
 * AddressSanitizer catches any read past it.
 *
 * Input: rows, blocks, modulus length, base length, exponent length (one
 * byte each), a count of mutations, then per mutation one byte of limb
 * index and eight bytes of new value, then one byte by which the length is
 * shortened, then the operands' bytes (big-endian magnitudes).
 *
 * An undamaged table must give exactly mpz_powm's result; a damaged one
 * may give JBIGI_BAD_TABLE, JBIGI_EXPONENT_TOO_LONG or some value, but must
 * end, quickly, without touching memory it does not own.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fixedbase.h"
#include "core/wipe.h"

#define FUZZ_TARGET_NAME "fuzz_fixedbase"
#include "fuzz.h"

/* Takes n bytes from the input, fewer if it ends. */
static const uint8_t *take(const uint8_t **data, size_t *size, size_t n, size_t *got)
{
    const uint8_t *p = *data;
    *got = n < *size ? n : *size;
    *data += *got;
    *size -= *got;
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6)
        return 0;
    unsigned rows = 1 + data[0] % 5, blocks = 1 + data[1] % 3;
    /* Moduli up to 20 limbs: tables in GMP's format and, from 16 limbs where
     * the IFMA engine runs, in its format. */
    size_t mod_len = 1 + data[2] % 160, base_len = data[3] % 64, exp_len = data[4] % 64;
    unsigned mutations = data[5] % 8;
    data += 6;
    size -= 6;
    if (size < mutations * 9u + 1)
        return 0;
    const uint8_t *mutation = data;
    data += mutations * 9u;
    size -= mutations * 9u;
    unsigned shorten = data[0] % 8;
    data++;
    size--;

    size_t got;
    mpz_t m, base, exp, r, want;
    mpz_inits(m, base, exp, r, want, NULL);
    const uint8_t *p = take(&data, &size, mod_len, &got);
    mpz_import(m, got, 1, 1, 1, 0, p);
    p = take(&data, &size, base_len, &got);
    mpz_import(base, got, 1, 1, 1, 0, p);
    p = take(&data, &size, exp_len, &got);
    mpz_import(exp, got, 1, 1, 1, 0, p);
    mpz_setbit(m, 0);
    if (mpz_cmp_ui(m, 1) == 0)
        mpz_set_ui(m, 3);

    size_t bits = mpz_sizeinbase(m, 2);
    size_t limbs = jbigi_fb_table_limbs(mpz_size(m), rows, blocks);
    REQUIRE(limbs > 0, "no table size for %zu limbs", mpz_size(m));
    mp_limb_t *table = malloc(limbs * sizeof(mp_limb_t));
    REQUIRE(jbigi_fb_build(table, limbs, base, m, rows, blocks, bits) == JBIGI_OK, "build failed");

    for (unsigned i = 0; i < mutations; i++) {
        mp_limb_t value;
        memcpy(&value, mutation + 9 * i + 1, sizeof value);
        table[mutation[9 * i] % limbs] = value;
    }
    size_t told = limbs > shorten ? limbs - shorten : 0;
    /* Only the exponent's width within the modulus' is meaningful here. */
    if (mpz_sizeinbase(exp, 2) > bits)
        mpz_fdiv_r_2exp(exp, exp, bits);
    for (int ct = 0; ct <= 1; ct++) {
        enum jbigi_status st = jbigi_fb_powm(r, table, told, exp, ct);
        if (mutations == 0 && shorten == 0) {
            mpz_powm(want, base, exp, m);
            REQUIRE(st == JBIGI_OK && mpz_cmp(r, want) == 0, "intact table, ct=%d: status %d or wrong value", ct,
                    st);
        } else {
            REQUIRE(st == JBIGI_OK || st == JBIGI_BAD_TABLE || st == JBIGI_EXPONENT_TOO_LONG,
                    "damaged table, ct=%d: unexpected status %d", ct, st);
        }
    }
    free(table);
    mpz_clears(m, base, exp, r, want, NULL);
    return 0;
}
