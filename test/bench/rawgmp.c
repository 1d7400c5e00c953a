/*
 * rawgmp: GMP called directly, on the benchmark's own inputs, so Bench can
 * show how much of NativeBigInteger's time is the JNI path rather than GMP,
 * and what jbigi's wiping memory functions cost GMP.
 *
 * It is a small timing server driven by Bench over stdin/stdout, so that its
 * samples are interleaved with the Java samples of the same case: drift on a
 * noisy machine then hits the raw-C figure and the JNI figure alike, which a
 * separate run before or after the JVM would not give.
 *
 *   rawgmp INPUTS
 *
 * INPUTS (written by Bench), one input per line, numbers in hex:
 *   pow SET BASE EXPONENT MODULUS
 *   inv SET VALUE MODULUS
 * Lines starting with '#' are comments.  All lines of a SET have one kind.
 *
 * Once INPUTS is read it prints one line
 *   ready GMP_VERSION LIMB_BITS GMP_CFLAGS
 * and then answers one line per command:
 *   time OP SET N FIRST [ALLOC]  ->  ok NANOSECONDS
 *                           N operations on inputs FIRST, FIRST+1, ... of SET,
 *                           wrapping around (samples continue where the last
 *                           one stopped, so the whole set gets used)
 *   check OP SET [ALLOC]  ->  one "result HEX" line per input, then "end"
 *   count OP SET    ->  ok BLOCKS BYTES
 *                           each input once, as "time ... wiping" runs it:
 *                           the blocks the wiping functions cleared, and
 *                           their bytes, in all
 *   quit
 *   openssl         ->  ok OPENSSL_VERSION, or error when built without it
 * OP is powm, powm_sec, openssl_powm, openssl_powm_sec (pow sets; the
 * last two OpenSSL's BN_mod_exp_mont and BN_mod_exp_mont_consttime, see
 * rawgmp_openssl.h), legendre (pow sets of a prime modulus p and the
 * exponent (p-1)/2: mpz_jacobi, its answer given as the power gives it,
 * 1, p-1 or 0), or invert and openssl_invert (inv sets; the latter
 * OpenSSL's BN_mod_inverse).  A bad command gets "error MESSAGE"; a bad
 * INPUTS file ends the program with status 1.
 *
 * time and check take an optional last word ALLOC, default or wiping, for
 * the cost of jbigi's wiping memory functions (src/core/wipe.c, linked in):
 * GMP then allocates through ALLOC's functions for the duration of the
 * command, and each operation gets a result variable of its own, created
 * and cleared around it as a jbigi call does.  Without ALLOC the result
 * variable is reused and GMP's default functions are used.
 *
 * GMP's memory functions are process-wide, so they are switched only
 * between commands, when no value GMP allocated is alive: the inputs are
 * read-only views (mpz_roinit_n) of limbs this program allocates itself,
 * as jbigi reads its operands, and never pass through GMP's allocator.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h> /* before gmp.h, which then declares mpz_out_str */

#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rawgmp_openssl.h"
#include "core/wipe.h"

enum { MAX_SETS = 64, MAX_NAME = 48 };

struct input {
    mpz_t a, b, c; /* base, exponent, modulus; or value, modulus (c unused) */
};

enum alloc { ALLOC_NONE, ALLOC_DEFAULT, ALLOC_WIPING, ALLOC_BAD };

struct set {
    char name[MAX_NAME];
    int is_pow;
    size_t count;
    struct input *inputs;
};

static struct set sets[MAX_SETS];
static size_t set_count;

/* Written after every timed loop so the compiler must keep the results. */
static volatile mp_limb_t sink;

static void die(const char *what, const char *detail, size_t line)
{
    fprintf(stderr, "rawgmp: %s%s%s (inputs line %zu)\n", what, detail ? ": " : "", detail ? detail : "", line);
    exit(1);
}

static struct set *find_set(const char *name)
{
    for (size_t i = 0; i < set_count; i++)
        if (strcmp(sets[i].name, name) == 0)
            return &sets[i];
    return NULL;
}

static struct set *find_or_add_set(const char *name, int is_pow, size_t line)
{
    struct set *s = find_set(name);
    if (s == NULL) {
        if (set_count == MAX_SETS)
            die("too many input sets", name, line);
        if (strlen(name) >= MAX_NAME)
            die("set name too long", name, line);
        s = &sets[set_count++];
        strcpy(s->name, name);
        s->is_pow = is_pow;
    } else if (s->is_pow != is_pow) {
        die("set mixes pow and inv inputs", name, line);
    }
    return s;
}

/* x becomes a read-only view of limbs of our own (see the top comment). */
static void parse_number(mpz_t x, const char *hex, size_t line)
{
    mpz_t parsed;
    mpz_init(parsed);
    if (hex == NULL || mpz_set_str(parsed, hex, 16) != 0)
        die("bad hex number", hex, line);
    size_t n = mpz_size(parsed);
    mp_limb_t *limbs = malloc((n > 0 ? n : 1) * sizeof *limbs);
    if (limbs == NULL)
        die("out of memory", NULL, line);
    if (n > 0)
        mpn_copyi(limbs, mpz_limbs_read(parsed), (mp_size_t)n);
    mpz_roinit_n(x, limbs, mpz_sgn(parsed) < 0 ? -(mp_size_t)n : (mp_size_t)n);
    mpz_clear(parsed);
}

static void read_inputs(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        die("cannot open", path, 0);
    char *buf = NULL;
    size_t cap = 0;
    size_t line = 0;
    while (getline(&buf, &cap, f) != -1) {
        line++;
        char *kind = strtok(buf, " \t\r\n");
        if (kind == NULL || kind[0] == '#')
            continue;
        int is_pow = strcmp(kind, "pow") == 0;
        if (!is_pow && strcmp(kind, "inv") != 0)
            die("unknown input kind", kind, line);
        const char *name = strtok(NULL, " \t\r\n");
        if (name == NULL)
            die("missing set name", NULL, line);
        struct set *s = find_or_add_set(name, is_pow, line);
        struct input *grown = realloc(s->inputs, (s->count + 1) * sizeof *grown);
        if (grown == NULL)
            die("out of memory", NULL, line);
        s->inputs = grown;
        struct input *in = &s->inputs[s->count++];
        parse_number(in->a, strtok(NULL, " \t\r\n"), line);
        parse_number(in->b, strtok(NULL, " \t\r\n"), line);
        if (is_pow)
            parse_number(in->c, strtok(NULL, " \t\r\n"), line);
        if (strtok(NULL, " \t\r\n") != NULL)
            die("extra fields", NULL, line);
    }
    free(buf);
    fclose(f);
    if (set_count == 0)
        die("no inputs in", path, line);
}

enum op { POWM, POWM_SEC, OPENSSL_POWM, OPENSSL_POWM_SEC, LEGENDRE, INVERT, OPENSSL_INVERT, BAD_OP };

static enum op parse_op(const char *name)
{
    if (name == NULL)
        return BAD_OP;
    if (strcmp(name, "powm") == 0)
        return POWM;
    if (strcmp(name, "powm_sec") == 0)
        return POWM_SEC;
    if (strcmp(name, "invert") == 0)
        return INVERT;
    if (strcmp(name, "legendre") == 0)
        return LEGENDRE;
    if (bench_openssl_version() != NULL && strcmp(name, "openssl_invert") == 0)
        return OPENSSL_INVERT;
    if (bench_openssl_version() != NULL && strcmp(name, "openssl_powm") == 0)
        return OPENSSL_POWM;
    if (bench_openssl_version() != NULL && strcmp(name, "openssl_powm_sec") == 0)
        return OPENSSL_POWM_SEC;
    return BAD_OP;
}

/* One operation into r.  The set's kind was checked against op already. */
static void run_op(enum op op, mpz_t r, const struct input *in)
{
    switch (op) {
    case POWM:
        mpz_powm(r, in->a, in->b, in->c);
        break;
    case POWM_SEC:
        mpz_powm_sec(r, in->a, in->b, in->c);
        break;
    case OPENSSL_POWM:
    case OPENSSL_POWM_SEC:
        /* A failure leaves r alone; Bench's check of the results sees it. */
        bench_openssl_powm(r, in->a, in->b, in->c, op == OPENSSL_POWM_SEC);
        break;
    case LEGENDRE:
        /* The symbol as b^((p-1)/2) mod p gives it: -1 is p-1. */
        switch (mpz_jacobi(in->a, in->c)) {
        case 1:
            mpz_set_ui(r, 1);
            break;
        case -1:
            mpz_sub_ui(r, in->c, 1);
            break;
        default:
            mpz_set_ui(r, 0);
            break;
        }
        break;
    case INVERT:
        /* Bench checks invertibility before timing; 0 here cannot happen. */
        mpz_invert(r, in->a, in->b);
        break;
    case OPENSSL_INVERT:
        bench_openssl_invert(r, in->a, in->b);
        break;
    case BAD_OP:
        break;
    }
}

static enum alloc parse_alloc(const char *name)
{
    if (name == NULL)
        return ALLOC_NONE;
    if (strcmp(name, "default") == 0)
        return ALLOC_DEFAULT;
    if (strcmp(name, "wiping") == 0)
        return ALLOC_WIPING;
    return ALLOC_BAD;
}

/* Called only between commands: no value GMP allocated is alive then. */
static void use_alloc(enum alloc alloc)
{
    if (alloc == ALLOC_WIPING)
        jbigi_install_wiping_allocator();
    else
        mp_set_memory_functions(NULL, NULL, NULL); /* GMP's own */
}

/* What the wiping functions were asked to clear, counted by wrappers around them. */
static void *(*wiping_alloc)(size_t);
static void *(*wiping_realloc)(void *, size_t, size_t);
static void (*wiping_free)(void *, size_t);
static unsigned long long wiped_blocks, wiped_bytes;

static void *counting_realloc(void *p, size_t old_size, size_t new_size)
{
    wiped_blocks++;
    wiped_bytes += old_size;
    return wiping_realloc(p, old_size, new_size);
}

static void counting_free(void *p, size_t size)
{
    wiped_blocks++;
    wiped_bytes += size;
    wiping_free(p, size);
}

/* One operation on a result variable of its own, as a jbigi call runs it. */
static mp_limb_t run_op_fresh(enum op op, const struct input *in)
{
    mpz_t r;
    mpz_init(r);
    run_op(op, r, in);
    mp_limb_t low = mpz_getlimbn(r, 0);
    mpz_clear(r);
    return low;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Times n operations.  Without alloc, r is allocated once, as a C caller
 * reusing its result variable would: what is left is GMP's own cost. */
static void time_op(enum op op, const struct set *s, unsigned long n, unsigned long first, enum alloc alloc)
{
    use_alloc(alloc);
    mpz_t r;
    mpz_init(r);
    mp_limb_t acc = 0;
    size_t k = first % s->count;
    uint64_t start = now_ns();
    for (unsigned long i = 0; i < n; i++) {
        if (alloc == ALLOC_NONE) {
            run_op(op, r, &s->inputs[k]);
            acc ^= mpz_getlimbn(r, 0);
        } else {
            acc ^= run_op_fresh(op, &s->inputs[k]);
        }
        if (++k == s->count)
            k = 0;
    }
    uint64_t elapsed = now_ns() - start;
    sink ^= acc;
    mpz_clear(r);
    use_alloc(ALLOC_NONE);
    printf("ok %llu\n", (unsigned long long)elapsed);
}

/* Results computed as time_op computes them, with the same memory functions. */
static void check_op(enum op op, const struct set *s, enum alloc alloc)
{
    use_alloc(alloc);
    mpz_t r;
    for (size_t i = 0; i < s->count; i++) {
        mpz_init(r);
        run_op(op, r, &s->inputs[i]);
        /* mpz_out_str, not gmp_printf: the GMP jbigi builds leaves out the printf family. */
        fputs("result ", stdout);
        mpz_out_str(stdout, 16, r);
        putchar('\n');
        mpz_clear(r);
    }
    use_alloc(ALLOC_NONE);
    printf("end\n");
}

static void count_op(enum op op, const struct set *s)
{
    jbigi_install_wiping_allocator();
    mp_get_memory_functions(&wiping_alloc, &wiping_realloc, &wiping_free);
    mp_set_memory_functions(wiping_alloc, counting_realloc, counting_free);
    wiped_blocks = 0;
    wiped_bytes = 0;
    mp_limb_t acc = 0;
    for (size_t i = 0; i < s->count; i++)
        acc ^= run_op_fresh(op, &s->inputs[i]);
    sink ^= acc;
    use_alloc(ALLOC_NONE);
    printf("ok %llu %llu\n", wiped_blocks, wiped_bytes);
}

static int parse_count(const char *text, unsigned long *value)
{
    char *end = NULL;
    if (text == NULL || text[0] < '0' || text[0] > '9')
        return 0;
    *value = strtoul(text, &end, 10);
    return *end == '\0';
}

/* Answers one command line; returns 0 on "quit". */
static int serve(char *command)
{
    const char *verb = strtok(command, " \t\r\n");
    if (verb == NULL)
        return 1;
    if (strcmp(verb, "quit") == 0)
        return 0;
    if (strcmp(verb, "openssl") == 0) {
        const char *version = bench_openssl_version();
        if (version == NULL)
            printf("error built without OpenSSL\n");
        else
            printf("ok %s\n", version);
        return 1;
    }
    int timing = strcmp(verb, "time") == 0;
    int counting = strcmp(verb, "count") == 0;
    if (!timing && !counting && strcmp(verb, "check") != 0) {
        printf("error unknown command %s\n", verb);
        return 1;
    }
    enum op op = parse_op(strtok(NULL, " \t\r\n"));
    const char *name = strtok(NULL, " \t\r\n");
    const struct set *s = name ? find_set(name) : NULL;
    if (op == BAD_OP || s == NULL) {
        printf("error unknown operation or set\n");
        return 1;
    }
    if (s->is_pow != (op != INVERT && op != OPENSSL_INVERT)) {
        printf("error operation does not fit set %s\n", s->name);
        return 1;
    }
    if (counting) {
        count_op(op, s);
        return 1;
    }
    unsigned long n = 0, first = 0;
    if (timing && (!parse_count(strtok(NULL, " \t\r\n"), &n) || n == 0
                   || !parse_count(strtok(NULL, " \t\r\n"), &first))) {
        printf("error bad operation count or first input\n");
        return 1;
    }
    enum alloc alloc = parse_alloc(strtok(NULL, " \t\r\n"));
    if (alloc == ALLOC_BAD) {
        printf("error ALLOC must be default or wiping\n");
        return 1;
    }
    if (timing)
        time_op(op, s, n, first, alloc);
    else
        check_op(op, s, alloc);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rawgmp INPUTS   (then commands on stdin; see the comment in rawgmp.c)\n");
        return 2;
    }
    read_inputs(argv[1]);
    /* __GMP_CFLAGS shows how this GMP was built (e.g. -march=znver3), which
     * tells a tuned static GMP from the distribution's generic one. */
    printf("ready %s %d %s\n", gmp_version, GMP_LIMB_BITS, __GMP_CFLAGS);
    fflush(stdout);
    char *buf = NULL;
    size_t cap = 0;
    while (getline(&buf, &cap, stdin) != -1) {
        int more = serve(buf);
        fflush(stdout);
        if (!more)
            break;
    }
    free(buf);
    return 0;
}
