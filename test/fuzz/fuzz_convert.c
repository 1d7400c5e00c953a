/*
 * fuzz_convert.c - libFuzzer target for convert.c.
 *
 * Every non-empty byte string is a BigInteger in big-endian two's
 * complement.  jbigi_import must read the value a byte-at-a-time reference
 * reads, and jbigi_encoded_length + jbigi_export must give back the
 * canonical encoding (what BigInteger.toByteArray() returns): the input
 * without its redundant leading sign bytes.  The in-place path the JNI
 * layer uses (jbigi_bytes_slot, jbigi_bytes_to_limbs, mpz_roinit_n) must
 * read the same value.  Any mismatch aborts, which libFuzzer reports as a
 * crash and saves the input.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/convert.h"
#include "reference.h"
#include "core/wipe.h"

#define FUZZ_TARGET_NAME "fuzz_convert"
#include "fuzz.h"

/*
 * Where the canonical encoding starts: a leading 0x00 is redundant while the
 * next byte's top bit is clear (the value stays non-negative without it), a
 * leading 0xff while it is set (the value stays negative).
 */
static size_t canonical_start(const uint8_t *bytes, size_t len)
{
    size_t i = 0;
    while (i + 1 < len && ((bytes[i] == 0x00 && !(bytes[i + 1] & 0x80)) ||
                           (bytes[i] == 0xff && (bytes[i + 1] & 0x80))))
        i++;
    return i;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An empty array is not a number: jbigi.c refuses it before import. */
    if (size == 0)
        return 0;

    mpz_t got, want, reused;
    mpz_inits(got, want, reused, NULL);

    jbigi_import(got, data, size);
    reference_import(want, data, size);
    REQUIRE(mpz_cmp(got, want) == 0, "jbigi_import differs from the byte-at-a-time reference (input of %zu bytes)", size);

    /* The JNI layer's path: the bytes copied into exactly enough limbs
     * (heap, so AddressSanitizer sees any access past them), converted in
     * place, read through a read-only mpz_t. */
    const size_t n = jbigi_limbs_for_bytes(size);
    mp_limb_t *limbs = malloc(n * sizeof *limbs);
    unsigned char *slot = jbigi_bytes_slot(limbs, size);
    REQUIRE(slot + size == (unsigned char *)(limbs + n), "the bytes' slot does not end the buffer (input of %zu bytes)", size);
    memcpy(slot, data, size);
    mp_size_t signed_size = jbigi_bytes_to_limbs(limbs, size);
    mp_size_t abs_size = signed_size < 0 ? -signed_size : signed_size;
    REQUIRE((size_t)abs_size <= n, "jbigi_bytes_to_limbs gave more limbs than the buffer has (input of %zu bytes)", size);
    REQUIRE(abs_size == 0 || limbs[abs_size - 1] != 0, "jbigi_bytes_to_limbs gave an unnormalized size (input of %zu bytes)", size);
    mpz_t view;
    mpz_roinit_n(view, limbs, signed_size);
    REQUIRE(mpz_cmp(view, want) == 0, "the in-place conversion differs from the reference (input of %zu bytes)", size);
    free(limbs);

    /* A target that already holds a longer value must not keep any of it. */
    mpz_setbit(reused, 8 * size + 100);
    mpz_neg(reused, reused);
    jbigi_import(reused, data, size);
    REQUIRE(mpz_cmp(reused, want) == 0, "jbigi_import into a used mpz_t kept stale limbs (input of %zu bytes)", size);

    const size_t start = canonical_start(data, size);
    const size_t len = size - start;
    REQUIRE(jbigi_encoded_length(got) == len, "jbigi_encoded_length is not the canonical length (input of %zu bytes)", size);

    /* Exactly len bytes, so AddressSanitizer sees any write past them. */
    uint8_t *out = malloc(len);
    jbigi_export(out, len, got);
    REQUIRE(memcmp(out, data + start, len) == 0, "jbigi_export is not the canonical encoding (input of %zu bytes)", size);
    free(out);

    /* A longer output is the same bytes after sign extension; the padding
     * length varies with the input so limb boundaries are crossed. */
    const size_t pad = 1 + data[size - 1] % 17;
    const uint8_t sign_byte = (data[0] & 0x80) ? 0xff : 0x00;
    out = malloc(len + pad);
    jbigi_export(out, len + pad, got);
    for (size_t i = 0; i < pad; i++)
        REQUIRE(out[i] == sign_byte, "sign extension of a padded export (input of %zu bytes)", size);
    REQUIRE(memcmp(out + pad, data + start, len) == 0, "a padded export differs after the padding (input of %zu bytes)", size);
    free(out);

    mpz_clears(got, want, reused, NULL);
    return 0;
}
