/*
 * operands.c - random test operands from rng.c.
 */
#include "operands.h"

#include "rng.h"

/* A random non-negative number of exactly bits bits (bits >= 1), in
 * toByteArray() form; odd if odd. */
struct bytes operand_exact_bits(unsigned bits, int odd)
{
    const size_t n = bits / 8 + 1; /* room for the sign byte */
    struct bytes b = bytes_zeros(n);
    rng_fill(b.p + 1, n - 1);
    b.p[0] = 0;
    const unsigned top_bit = (bits - 1) % 8; /* in byte n - 1 - (bits - 1) / 8 */
    const size_t top = n - 1 - (bits - 1) / 8;
    b.p[top] &= (unsigned char)((2u << top_bit) - 1);
    b.p[top] |= (unsigned char)(1u << top_bit);
    if (odd)
        b.p[n - 1] |= 1;
    struct bytes canonical = bytes_canonicalize(b.p, b.len);
    bytes_free(&b);
    return canonical;
}

/*
 * A random signed number of about bits bits: random bytes, often with a
 * boundary top byte (0x7f, 0x80, 0xff: largest positive, smallest
 * negative, -1 prefix), sometimes 0 or +-1.
 */
struct bytes operand_random(unsigned bits, int allow_negative)
{
    const unsigned choice = (unsigned)rng_below(16);
    if (choice == 0) {
        const unsigned char small[] = {0, 1, 0xff};
        const size_t pick = (size_t)rng_below(allow_negative ? 3 : 2);
        return bytes_copy(&small[pick], 1);
    }
    const size_t n = (bits + 7) / 8 > 0 ? (bits + 7) / 8 : 1;
    struct bytes b = bytes_zeros(n);
    rng_fill(b.p, n);
    if (choice == 1)
        b.p[0] = 0x7f;
    else if (choice == 2)
        b.p[0] = 0x80;
    else if (choice == 3)
        b.p[0] = 0xff;
    if (!allow_negative)
        b.p[0] &= 0x7f;
    struct bytes canonical = bytes_canonicalize(b.p, b.len);
    bytes_free(&b);
    return canonical;
}
