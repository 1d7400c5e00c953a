/*
 * fixedbase.h - g^e mod m for a base g that repeats, from a table of powers
 * of g prepared once (Lim-Lee comb, Montgomery arithmetic on GMP's mpn layer).
 *
 * Diffie-Hellman, ElGamal and DSA raise the same generator to fresh
 * exponents.  mpz_powm starts from nothing each time: about one squaring
 * per exponent bit.  With the table, an exponent of E bits costs
 * E / (rows * blocks) squarings and E / rows multiplications.
 *
 * The table is one flat array of limbs (a direct ByteBuffer of FixedBase's
 * in practice): a header, the modulus, then blocks x 2^rows entries of n
 * limbs in Montgomery form.  No JNI here.
 */
#ifndef JBIGI_FIXEDBASE_H
#define JBIGI_FIXEDBASE_H

#include <stddef.h>
#include <gmp.h>

#include "core/arith.h"

/* Limits on the comb's shape: tables stay small and shifts stay defined. */
#define JBIGI_FB_MAX_ROWS 10
#define JBIGI_FB_MAX_BLOCKS 64

/*
 * Limbs needed for the table of an n-limb modulus, or 0 if the shape is out
 * of range or the size would overflow.
 */
size_t jbigi_fb_table_limbs(size_t modulus_limbs, unsigned rows, unsigned blocks);

/*
 * 1 if table_limbs is the size of a table in a format this process can
 * build and read for that shape (GMP's, or the IFMA engine's where it
 * runs), whichever engine is chosen or forced now: what jbigi_fb_build
 * takes.
 */
int jbigi_fb_table_limbs_fit(size_t modulus_limbs, unsigned rows, unsigned blocks, size_t table_limbs);

/*
 * Fills table (table_limbs limbs, as jbigi_fb_table_limbs says) for base mod
 * m, for exponents of up to max_exponent_bits bits, at most m's width in
 * limbs.  m must be odd and > 1.  Any base; it is reduced mod m.  The build
 * runs in variable time over the base: tables are for public bases.
 */
enum jbigi_status jbigi_fb_build(mp_limb_t *table, size_t table_limbs, const mpz_t base, const mpz_t m,
                                 unsigned rows, unsigned blocks, size_t max_exponent_bits);

/*
 * A table's header as read once (jbigi_fb_read).  A table lives in memory
 * Java can write (a direct buffer), so the rule of table_memory.h holds
 * here: every header field is read once, into this struct, and only the
 * struct is used afterwards, never the header again; a thread that writes
 * the header during a call changes nothing the call does.  The modulus is
 * copied here too, once, checked on the copy, and the engine is prepared
 * from that copy; the entries are values only (any limbs give some number,
 * and are read only within the shape read here).
 *
 * What reads a header and then uses the table is one call with one such
 * struct (the JNI layer sizes its result from modulus_limbs and passes the
 * struct down); reading the header again for the same call is the flaw this
 * rule forbids.
 */
struct jbigi_table_format;
typedef struct {
    const mp_limb_t *table;              /* the table read from: modulus and entries */
    size_t table_limbs;                  /* its length (the caller's, not the header's) */
    size_t modulus_limbs;                /* n */
    unsigned rows, blocks;
    size_t block_bits;                   /* b */
    mp_limb_t *modulus;                  /* a private copy of its n limbs (jbigi_fb_release frees it) */
    const struct jbigi_table_format *format;
} jbigi_fb_header;

/*
 * Reads and checks table's header, length (table_limbs limbs) and modulus:
 * JBIGI_OK with *h filled (give it back with jbigi_fb_release), or
 * JBIGI_BAD_TABLE if the table is malformed (a format no engine here
 * reads, a shape out of range, a length that does not match it, a reach
 * wider than the modulus, a modulus even, with a zero top limb or not the
 * one whose inverse the header holds), or JBIGI_NO_MEMORY for the copy;
 * *h then holds nothing to give back.  The copy is jbigi's own memory, not
 * GMP's: read outside jbigi_run_guarded (whose jump out of a failed GMP
 * allocation would leave it behind), and powers run from *h under it.
 */
enum jbigi_status jbigi_fb_read(jbigi_fb_header *h, const mp_limb_t *table, size_t table_limbs);

/* Frees what jbigi_fb_read took (the modulus' copy); again: nothing. */
void jbigi_fb_release(jbigi_fb_header *h);

/* The largest exponent bit length a table read by jbigi_fb_read covers,
 * and that in limbs (the most limbs an exponent it takes can need). */
size_t jbigi_fb_reach_bits(const jbigi_fb_header *h);
size_t jbigi_fb_reach_limbs(const jbigi_fb_header *h);

/* The largest exponent bit length the table covers, or 0 if its header is
 * malformed. */
size_t jbigi_fb_max_exponent_bits(const mp_limb_t *table, size_t table_limbs);

/*
 * r = base^exp mod m from the table.  exp must be >= 0 and within the
 * table's reach (JBIGI_EXPONENT_TOO_LONG otherwise: use mpz_powm).  The
 * comb runs only the steps exp's limb count needs (comb_driver.h).
 * constant_time: every table read scans all entries of the rows used
 * under masks, every digit multiplies (zero digits by one), products are
 * the engine's side-channel-silent ones, and the final subtraction is
 * masked; time and memory accesses then depend only on the table's shape
 * and exp's limb count.  Otherwise the fastest path: zero digits skipped,
 * the engine's fastest multiplication.
 * jbigi_fb_powm reads the table itself (once: not under
 * jbigi_run_guarded, see jbigi_fb_read); jbigi_fb_powm_read takes one read
 * already, and may run under it.  A malformed table gives JBIGI_BAD_TABLE.
 */
enum jbigi_status jbigi_fb_powm(mpz_t r, const mp_limb_t *table, size_t table_limbs, const mpz_t exp,
                                int constant_time);
enum jbigi_status jbigi_fb_powm_read(mpz_t r, const jbigi_fb_header *h, const mpz_t exp, int constant_time);

/*
 * The constant-time path on a fixed-width exponent, for callers that read
 * the secret at a public width themselves (the JNI layer: its own limb
 * count or a stated bound): out (h->modulus_limbs limbs) = base^e mod m, e
 * of e_limbs limbs, 1 to jbigi_fb_reach_limbs, zero above the reach
 * (JBIGI_EXPONENT_TOO_LONG otherwise).  Every copy and loop follows the
 * shape in h and e_limbs alone.
 */
enum jbigi_status jbigi_fb_powm_ct_limbs(mp_limb_t *out, const jbigi_fb_header *h, const mp_limb_t *e,
                                         size_t e_limbs);

#endif
