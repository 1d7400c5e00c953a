/*
 * test_prime_certificates.c - the primes of modPow's Euler shortcut
 * (core/euler.c) are prime: every certificate of
 * test/certificates/prime-certificates.txt checked with exact arithmetic
 * (Pocklington's theorem, down to primes below 2^32 proved by trial
 * division; no probable-prime test anywhere), every row of the table
 * equal to a number proved there, and forged certificates refused (a
 * composite, a wrong witness, a factor that does not divide N - 1, too
 * little of N - 1 factored, an unproved factor).
 */
#include <stdio.h>
#include <string.h>
#include <gmp.h>

#include "check.h"
#include "core/euler.h"

#define MAX_LINES 64
#define MAX_FACTORS 16

struct certificate {
    mpz_t n, a;
    mpz_t q[MAX_FACTORS];
    int nq;
};

static struct certificate lines[MAX_LINES];
static int nlines;

/* 1 if q < 2^32 is prime, by trial division. */
static int small_prime(const mpz_t q)
{
    if (mpz_cmp_ui(q, 2) < 0 || mpz_sizeinbase(q, 2) > 32)
        return 0;
    const unsigned long v = mpz_get_ui(q);
    for (unsigned long d = 2; d * d <= v; d++)
        if (v % d == 0)
            return 0;
    return 1;
}

static int proved(const mpz_t n, int depth);

/* 1 if line c proves c->n prime by Pocklington, its factors proved in turn. */
static int pocklington(const struct certificate *c, int depth)
{
    mpz_t n1, f, rest, t, g;
    mpz_inits(n1, f, rest, t, g, NULL);
    int ok = mpz_cmp_ui(c->n, 3) > 0 && mpz_odd_p(c->n) && c->nq > 0;
    mpz_sub_ui(n1, c->n, 1);
    mpz_set(rest, n1);
    mpz_set_ui(f, 1);
    for (int i = 0; ok && i < c->nq; i++) {
        ok = mpz_cmp_ui(c->q[i], 1) > 0 && mpz_divisible_p(rest, c->q[i]);
        while (ok && mpz_divisible_p(rest, c->q[i])) { /* q's full power */
            mpz_divexact(rest, rest, c->q[i]);
            mpz_mul(f, f, c->q[i]);
        }
    }
    mpz_mul(t, f, f);
    ok = ok && mpz_cmp(t, c->n) > 0;              /* F^2 > N */
    mpz_powm(t, c->a, n1, c->n);
    ok = ok && mpz_cmp_ui(t, 1) == 0;              /* a^(N-1) = 1 */
    for (int i = 0; ok && i < c->nq; i++) {
        mpz_divexact(t, n1, c->q[i]);
        mpz_powm(t, c->a, t, c->n);
        mpz_sub_ui(t, t, 1);
        mpz_gcd(g, t, c->n);
        ok = mpz_cmp_ui(g, 1) == 0;                /* gcd(a^((N-1)/q) - 1, N) = 1 */
        ok = ok && proved(c->q[i], depth + 1);      /* q prime */
    }
    mpz_clears(n1, f, rest, t, g, NULL);
    return ok;
}

/* 1 if n is prime: below 2^32 by trial division, else by its line. */
static int proved(const mpz_t n, int depth)
{
    if (mpz_sizeinbase(n, 2) <= 32)
        return small_prime(n);
    if (depth > MAX_LINES)
        return 0;
    for (int i = 0; i < nlines; i++)
        if (mpz_cmp(lines[i].n, n) == 0)
            return pocklington(&lines[i], depth);
    return 0;
}

/* Adds a certificate line "N a q..." (decimal); 0 if it does not parse. */
static int add_line(const char *text)
{
    if (nlines == MAX_LINES)
        return 0;
    struct certificate *c = &lines[nlines];
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", text);
    int field = 0, ok = 1;
    mpz_inits(c->n, c->a, NULL);
    c->nq = 0;
    for (char *tok = strtok(buf, " \t\r\n"); tok && ok; tok = strtok(NULL, " \t\r\n"), field++) {
        if (field == 0)
            ok = mpz_set_str(c->n, tok, 10) == 0;
        else if (field == 1)
            ok = mpz_set_str(c->a, tok, 10) == 0;
        else if (c->nq < MAX_FACTORS) {
            mpz_init(c->q[c->nq]);
            ok = mpz_set_str(c->q[c->nq++], tok, 10) == 0;
        } else
            ok = 0;
    }
    nlines++;
    return ok && field >= 3;
}

static void clear_lines(void)
{
    for (int i = 0; i < nlines; i++) {
        for (int j = 0; j < lines[i].nq; j++)
            mpz_clear(lines[i].q[j]);
        mpz_clears(lines[i].n, lines[i].a, NULL);
    }
    nlines = 0;
}

/* Reads the certificates; 0 if the file is missing or a line is bad. */
static int read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char line[4096];
    int ok = 1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n' || line[0] == '\r')
            continue;
        ok &= add_line(line);
    }
    fclose(f);
    return ok;
}

/* The row's prime as an mpz. */
static void row_value(mpz_t p, const struct jbigi_known_prime *row)
{
    mpz_set_ui(p, 0);
    for (int i = JBIGI_KNOWN_PRIME_WORDS - 1; i >= 0; i--) {
        mpz_mul_2exp(p, p, 32);
        mpz_add_ui(p, p, (unsigned long)(row->words[i] >> 32));
        mpz_mul_2exp(p, p, 32);
        mpz_add_ui(p, p, (unsigned long)(row->words[i] & 0xffffffffu));
    }
}

/* A one-line certificate on its own, checked: 1 if it proves its N. */
static int forged(const char *text)
{
    clear_lines();
    add_line(text);
    const int r = nlines == 1 && proved(lines[0].n, 0);
    clear_lines();
    return r;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "test/certificates/prime-certificates.txt";
    const int read = read_file(path);
    CHECK(read && nlines > 0, "%s: missing, empty or a line that does not parse", path);

    /* every certificate in the file proves its number */
    for (int i = 0; i < nlines; i++)
        CHECK(proved(lines[i].n, 0), "line %d of %s does not prove its number prime", i + 1, path);

    /* every row of the table is a number proved by the file */
    mpz_t p;
    mpz_init(p);
    CHECK(jbigi_known_prime_count > 0, "the table of known primes is empty");
    for (size_t k = 0; k < jbigi_known_prime_count; k++) {
        row_value(p, &jbigi_known_primes[k]);
        CHECK(mpz_sizeinbase(p, 2) == jbigi_known_primes[k].bits, "row %zu: its length is not its bits", k);
        int found = 0;
        for (int i = 0; i < nlines; i++)
            found |= mpz_cmp(lines[i].n, p) == 0;
        CHECK(found && proved(p, 0), "row %zu of the table has no certificate that proves it", k);
    }
    /* the table's first row is 2^255 - 19, as the comment beside it says */
    mpz_t q;
    mpz_init(q);
    mpz_ui_pow_ui(q, 2, 255);
    mpz_sub_ui(q, q, 19);
    row_value(p, &jbigi_known_primes[0]);
    CHECK(mpz_cmp(p, q) == 0, "row 0 is not 2^255 - 19");
    mpz_clears(p, q, NULL);
    clear_lines();

    /* forged certificates are refused; true ones on their own are
     * accepted (8589934609 - 1 = 2^4 * 3 * 59 * 3033169, above 2^32 so that
     * trial division does not prove it instead) */
    CHECK(forged("8589934609 19 2 3 59 3033169"), "a true certificate of 8589934609 refused");
    CHECK(forged("8589934609 19 3033169"), "a true certificate with the one factor it needs refused");
    CHECK(!forged("4295229443 2 7 306802103"), "a composite (65537 * 65539) accepted");
    CHECK(!forged("4295229443 2 306802103"), "a composite with one factor accepted");
    CHECK(!forged("8589934609 1 3033169"), "the witness 1 accepted");
    CHECK(!forged("8589934609 2 2 3 59 3033169"), "a witness that fails for one factor (2) accepted");
    CHECK(!forged("8589934609 19 7"), "a factor that does not divide N - 1 accepted");
    CHECK(!forged("8589934609 19 2 3"), "too little of N - 1 factored accepted");
    CHECK(!forged("8589934609 19 3033169 1"), "the factor 1 accepted");
    /* a factor above 2^32 with no line of its own */
    CHECK(!forged("57896044618658097711785492504343953926634992332820282019728792003956564819949 2 "
                  "74058212732561358302231226437062788676166966415465897661863160754340907"),
          "a factor above 2^32 without a certificate accepted");
    return finish("test_prime_certificates");
}
