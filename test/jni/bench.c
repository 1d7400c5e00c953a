/*
 * bench.c - times nativeModPow and nativeModPowCT of a jbigi library
 * through its JNI entry points, with the harness's fake JNIEnv, so that a
 * Windows DLL (under wine) and the Linux library of the same variant can
 * be compared call for call.  A measurement: nothing here asserts on time.
 *
 *     bench LIBRARY ROUNDS [--lockstep]
 *
 * For each engine nativeForce accepts ("ifma", "adx", "p25519", "gmp"; one the CPU
 * refuses is skipped with a "#" line saying so), then for "auto" (the
 * library's own choice on each call, as a program that forces nothing
 * gets it: so that a cost in the choice itself shows), and each modulus size of
 * 1024, 2048 and 4096 bits: a random odd modulus of exactly that many
 * bits, a random base below it and a random exponent of the same full
 * width, from a fixed seed (the same operands on every platform).  Each of
 * ROUNDS rounds repeats the call enough times to last about 20 ms; the
 * line printed is the median over the rounds of the time per call:
 *
 *     engine op bits median_us
 *
 * With --lockstep, one such line per round instead (the time per call in
 * that round), each round started by the driver (wait_for_go).
 *
 * Other lines start with "#".  Each call is a whole JNI call as the
 * harness makes it (calls.c: the argument arrays made, the native called,
 * its result copied, the frame popped): that overhead is the same C on
 * both platforms.  Results are checked against each other (every engine
 * and both natives must agree for a size); a call that throws or that
 * disagrees ends the run with status 1.
 *
 * The environment may choose other figures: BENCH_BITS, the modulus sizes
 * (multiples of 8 from 64 to 8192, separated by spaces or commas; default
 * "1024 2048 4096"; 255 names the modulus 2^255 - 19 with a 254-bit
 * exponent), and BENCH_OPS, the natives timed, of nativeModPow,
 * nativeModPowCT and nativeModPow-e3 (nativeModPow with the exponent 3:
 * the cost of a call beside that of the arithmetic, the arguments'
 * conversion, the engine's setup, the result); default the first two;
 * and BENCH_ENGINES, the engines run (default all): in lock-step against
 * a library that lacks one, the engines both have.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "calls.h"
#include "fake_jni.h"
#include "loader.h"
#include "natives.h"

#define ROUND_SECONDS 0.020
#define MAX_ROUNDS 1000
#define SEED 0x6a62696769ULL /* "jbigi" */

#define MAX_SIZES 8
static unsigned sizes[MAX_SIZES] = {1024, 2048, 4096};
static size_t n_sizes = 3;

/* nativeForce's name and what nativeName says once it is in force (NULL
 * for auto: whatever the table chooses). */
static const struct {
    const char *force;
    const char *name;
} engines[] = {{"ifma", "avx512-ifma"}, {"adx", "adx"}, {"p25519", "p25519"}, {"gmp", "gmp"}, {"auto", NULL}};

/* The size BENCH_BITS names 2^255 - 19 by: that modulus, a random base
 * below it and a random 254-bit exponent. */
#define P25519_BITS 255u

/* The library, loaded for the life of the process as in a JVM (and as
 * jni_harness.c keeps it): static, so still reachable at exit. */
static struct loader_library *lib;

/* splitmix64 from a fixed seed, not rng.c's (seeded from the clock unless
 * JBIGI_TEST_SEED is set): the operands must not depend on the
 * environment. */
static uint64_t state = SEED;

static unsigned char random_byte(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (unsigned char)((z ^ (z >> 31)) >> 56);
}

struct operands {
    struct bytes base, exponent, modulus; /* toByteArray() form */
    struct bytes result; /* the first engine's nativeModPow, the reference */
};

/* A positive toByteArray() form of the len unsigned big-endian bytes. */
static struct bytes positive(const unsigned char *magnitude, size_t len)
{
    struct bytes b = bytes_zeros(len + 1); /* a leading 0x00: the sign */
    memcpy(b.p + 1, magnitude, len);
    struct bytes canonical = bytes_canonicalize(b.p, b.len);
    bytes_free(&b);
    return canonical;
}

static void make_operands(unsigned bits, struct operands *ops)
{
    const size_t len = (bits + 7) / 8;
    unsigned char *m = malloc(len), *x = malloc(len);
    if (m == NULL || x == NULL) {
        fprintf(stderr, "bench: out of memory\n");
        exit(2);
    }
    /* The modulus: exactly bits bits, odd. */
    for (size_t i = 0; i < len; i++)
        m[i] = random_byte();
    m[0] |= 0x80;
    m[len - 1] |= 1;
    if (bits == P25519_BITS) { /* 2^255 - 19: 7f ff ... ff ed */
        memset(m, 0xff, len);
        m[0] = 0x7f;
        m[len - 1] = 0xed;
    }
    ops->modulus = positive(m, len);
    /* The base: uniform below the modulus (a draw of the same width,
     * again while it is not below; at most 2 draws on average). */
    do {
        for (size_t i = 0; i < len; i++)
            x[i] = random_byte();
    } while (memcmp(x, m, len) >= 0);
    ops->base = positive(x, len);
    /* The exponent: full width, its top bit set. */
    for (size_t i = 0; i < len; i++)
        x[i] = random_byte();
    x[0] |= 0x80;
    if (bits == P25519_BITS) /* 254 bits, as Elligator2's exponents */
        x[0] = (unsigned char)((x[0] & 0x1f) | 0x20);
    ops->exponent = positive(x, len);
    ops->result.p = NULL;
    ops->result.len = 0;
    free(m);
    free(x);
}

static void free_operands(struct operands *ops)
{
    bytes_free(&ops->base);
    bytes_free(&ops->exponent);
    bytes_free(&ops->modulus);
    bytes_free(&ops->result);
}

/* nativeForce(name): whether it was accepted, with nothing pending. */
static int force(struct harness *h, const char *name)
{
    call_begin(h);
    jstring s = name != NULL ? fake_new_string(h->fe, name) : NULL;
    const jboolean r = h->n.force(h->env, h->n.engine, s);
    struct outcome o;
    call_finish(h, NULL, &o);
    fake_env_pop_frame(h->fe);
    const int ok = r == JNI_TRUE && outcome_is_clean(&o);
    outcome_free(&o);
    return ok;
}

/* nativeName or nativeNote now, into text. */
static void engine_string(struct harness *h, string_fn *fn, char *text, size_t size)
{
    struct outcome o;
    call_string(h, fn, &o);
    snprintf(text, size, "%s", o.text);
    outcome_free(&o);
}

/* One call; exits (status 1) if it threw or broke a JNI rule, or if its
 * value is not ops->result (the first call of a size sets that). */
static void checked_call(struct harness *h, power_fn *fn, const char *what, struct operands *ops)
{
    struct outcome o;
    call_power(h, fn, &ops->base, &ops->exponent, &ops->modulus, &o);
    if (o.thrown[0] != '\0' || o.misuses > 0 || o.value.p == NULL) {
        char text[1024];
        fprintf(stderr, "bench: %s: %s\n", what, outcome_describe(&o, text, sizeof text));
        outcome_free(&o);
        exit(1);
    }
    if (ops->result.p == NULL) {
        ops->result = o.value;
        return; /* the outcome's value is now ops->result */
    }
    if (!outcome_is_value(&o, &ops->result)) {
        fprintf(stderr, "bench: %s disagrees with the first result of this size: %s\n", what, o.why);
        outcome_free(&o);
        exit(1);
    }
    outcome_free(&o);
}

/* Seconds for n calls. */
static double timed_calls(struct harness *h, power_fn *fn, struct operands *ops, unsigned long n)
{
    struct outcome o;
    const double start = bench_clock_seconds();
    for (unsigned long i = 0; i < n; i++) {
        call_power(h, fn, &ops->base, &ops->exponent, &ops->modulus, &o);
        outcome_free(&o);
    }
    return bench_clock_seconds() - start;
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One figure: an engine, a native and a modulus size, and the calls that
 * make a round of about ROUND_SECONDS. */
struct row {
    size_t engine, op, size;
    unsigned long calls;
};

static const char *const timed_natives[] = {"nativeModPow", "nativeModPowCT", "nativeModPow-e3"};
#define N_OPS (sizeof timed_natives / sizeof timed_natives[0])
#define OP_E3 2
static int op_on[N_OPS] = {1, 1, 0};

static power_fn *native_of(struct harness *h, size_t op)
{
    return op == 1 ? h->n.mod_pow_ct : h->n.mod_pow;
}

/* Whether BENCH_ENGINES (unset or empty: every engine) names engine, a
 * word of its list. */
static int engine_wanted(const char *engine)
{
    const char *list = getenv("BENCH_ENGINES");
    if (list == NULL || *list == '\0')
        return 1;
    const size_t len = strlen(engine);
    for (const char *w = list; (w = strstr(w, engine)) != NULL; w += len)
        if ((w == list || w[-1] == ' ' || w[-1] == ',') && (w[len] == '\0' || w[len] == ' ' || w[len] == ','))
            return 1;
    return 0;
}

/* BENCH_BITS and BENCH_OPS (above) into sizes and op_on; 0 if either is
 * malformed. */
static int read_choices(void)
{
    const char *bits = getenv("BENCH_BITS"), *ops = getenv("BENCH_OPS");
    char list[256];
    if (bits != NULL && *bits != '\0') {
        snprintf(list, sizeof list, "%s", bits);
        n_sizes = 0;
        for (char *w = strtok(list, " ,"); w != NULL; w = strtok(NULL, " ,")) {
            char *end;
            const unsigned long b = strtoul(w, &end, 10);
            if (*end != '\0' || b < 64 || b > 8192 || (b % 8 != 0 && b != P25519_BITS) || n_sizes == MAX_SIZES)
                return 0;
            sizes[n_sizes++] = (unsigned)b;
        }
        if (n_sizes == 0)
            return 0;
    }
    if (ops != NULL && *ops != '\0') {
        snprintf(list, sizeof list, "%s", ops);
        memset(op_on, 0, sizeof op_on);
        for (char *w = strtok(list, " ,"); w != NULL; w = strtok(NULL, " ,")) {
            size_t p = 0;
            while (p < N_OPS && strcmp(w, timed_natives[p]) != 0)
                p++;
            if (p == N_OPS)
                return 0;
            op_on[p] = 1;
        }
    }
    return 1;
}

/* Calls per round: doubled until a batch takes 2 ms, then scaled to
 * ROUND_SECONDS.  A checked call first (it also warms caches and any lazy
 * setup). */
static unsigned long calibrate(struct harness *h, power_fn *fn, const char *what, struct operands *ops)
{
    checked_call(h, fn, what, ops);
    unsigned long n = 1;
    double t = timed_calls(h, fn, ops, n);
    while (t < 0.002) {
        n *= 2;
        t = timed_calls(h, fn, ops, n);
    }
    const unsigned long calls = (unsigned long)(ROUND_SECONDS / (t / (double)n) + 0.5);
    return calls < 1 ? 1 : calls;
}

/* Lock-step (--lockstep): before each round the bench prints "ready" and
 * waits for a line "go" on stdin, and after the last it prints "end"; a
 * driver (bench.sh) alternates the rounds of two such processes, so that
 * both sides of a ratio run at nearly the same moment of the machine.  End
 * of input ends the run. */
static int wait_for_go(void)
{
    char line[64];
    return fgets(line, sizeof line, stdin) != NULL && strncmp(line, "go", 2) == 0;
}

static int run(struct harness *h, int rounds, int lockstep)
{
    /* ops[0]: the full-width exponent (nativeModPow and nativeModPowCT
     * agree on it); ops[1]: the same base and modulus, the exponent 3. */
    struct operands ops[2][MAX_SIZES];
    for (size_t s = 0; s < n_sizes; s++) {
        make_operands(sizes[s], &ops[0][s]);
        ops[1][s] = (struct operands){bytes_copy(ops[0][s].base.p, ops[0][s].base.len), bytes_copy("\3", 1),
                                      bytes_copy(ops[0][s].modulus.p, ops[0][s].modulus.len), {NULL, 0}};
    }

    char text[256];
    engine_string(h, h->n.variant, text, sizeof text);
    if (lockstep)
        printf("# variant %s, lock-step rounds of ~%.0f ms, one line per round, time per call in microseconds\n",
               text, ROUND_SECONDS * 1e3);
    else
        printf("# variant %s, %d rounds of ~%.0f ms per figure, median time per call in microseconds\n", text,
               rounds, ROUND_SECONDS * 1e3);
    printf("# engine op bits %s\n", lockstep ? "us" : "median_us");
    fflush(stdout);

    /* Every row calibrated before any round is timed: in lock-step the
     * other process's rounds then never run beside work of this one. */
    struct row rows[sizeof engines / sizeof engines[0] * N_OPS * MAX_SIZES];
    size_t nrows = 0;
    int status = 0;
    for (size_t e = 0; e < sizeof engines / sizeof engines[0] && status == 0; e++) {
        if (!engine_wanted(engines[e].force))
            continue;
        if (!force(h, engines[e].force)) {
            engine_string(h, h->n.note, text, sizeof text);
            printf("# engine %s: skipped, nativeForce(\"%s\") is false on this CPU (%s)\n", engines[e].force,
                   engines[e].force, text);
            fflush(stdout);
            continue;
        }
        engine_string(h, h->n.name, text, sizeof text);
        if (engines[e].name != NULL && strcmp(text, engines[e].name) != 0) {
            fprintf(stderr, "bench: nativeForce(\"%s\") accepted, but nativeName is \"%s\"\n", engines[e].force, text);
            status = 1;
            break;
        }
        for (size_t p = 0; p < N_OPS; p++) {
            for (size_t s = 0; s < n_sizes && op_on[p]; s++) {
                char what[96];
                snprintf(what, sizeof what, "%s %s %u bits", engines[e].force, timed_natives[p], sizes[s]);
                rows[nrows] = (struct row){e, p, s, calibrate(h, native_of(h, p), what, &ops[p == OP_E3][s])};
                nrows++;
            }
        }
    }
    for (size_t i = 0; i < nrows && status == 0; i++) {
        const struct row *row = &rows[i];
        force(h, engines[row->engine].force);
        power_fn *fn = native_of(h, row->op);
        double per_round[MAX_ROUNDS];
        for (int r = 0; r < rounds; r++) {
            if (lockstep) {
                printf("ready\n");
                fflush(stdout);
                if (!wait_for_go()) {
                    status = 1;
                    break;
                }
            }
            per_round[r] = timed_calls(h, fn, &ops[row->op == OP_E3][row->size], row->calls) / (double)row->calls;
            if (lockstep) {
                printf("%s %s %u %.3f\n", engines[row->engine].force, timed_natives[row->op],
                       sizes[row->size], per_round[r] * 1e6);
                fflush(stdout);
            }
        }
        if (!lockstep && status == 0) {
            printf("%s %s %u %.2f\n", engines[row->engine].force, timed_natives[row->op], sizes[row->size],
                   median(per_round, (size_t)rounds) * 1e6);
            fflush(stdout);
        }
    }
    if (lockstep && status == 0) {
        printf("end\n");
        fflush(stdout);
    }
    force(h, "auto");
    for (size_t s = 0; s < n_sizes; s++) {
        free_operands(&ops[0][s]);
        free_operands(&ops[1][s]);
    }
    return status;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    const int lockstep = argc == 4 && strcmp(argv[3], "--lockstep") == 0;
    const long rounds = argc == 3 || lockstep ? strtol(argv[2], &end, 10) : 0;
    if ((argc != 3 && !lockstep) || end == argv[2] || *end != '\0' || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: %s LIBRARY ROUNDS [--lockstep]   (ROUNDS 1 to %d)\n", argv[0], MAX_ROUNDS);
        return 2;
    }
    if (!read_choices()) {
        fprintf(stderr, "bench: BENCH_BITS is a list of sizes in bits (multiples of 8, 64 to 8192, or 255 for 2^255 - 19; at most %d), "
                        "BENCH_OPS a list of nativeModPow, nativeModPowCT, nativeModPow-e3\n", MAX_SIZES);
        return 2;
    }
    char error[512];
    lib = loader_open(argv[1], error, sizeof error);
    if (lib == NULL) {
        fprintf(stderr, "bench: load %s: %s\n", argv[1], error);
        return 1;
    }
    struct harness h;
    memset(&h, 0, sizeof h);
    h.fe = fake_env_create();
    if (h.fe == NULL) {
        fprintf(stderr, "bench: out of memory\n");
        return 2;
    }
    h.env = fake_env_jni(h.fe);
    const int missing = natives_resolve(&h.n, lib);
    if (missing != 0) {
        fprintf(stderr, "bench: %s lacks %d export(s):%s\n", argv[1], missing, h.n.missing);
        fake_env_destroy(h.fe);
        return 1;
    }
    h.n.native_big_integer = fake_new_class(h.fe, "net/i2p/util/NativeBigInteger");
    h.n.fixed_base = fake_new_class(h.fe, "net/i2p/util/FixedBase");
    h.n.engine = fake_new_class(h.fe, "net/i2p/util/Engine");
    fake_pin(h.fe, h.n.native_big_integer);
    fake_pin(h.fe, h.n.fixed_base);
    fake_pin(h.fe, h.n.engine);

    /* JNI_OnLoad, as a JVM calls it: a library built for instructions this
     * CPU lacks refuses here. */
    call_begin(&h);
    const jint version = h.n.on_load(fake_env_vm(h.fe), NULL);
    struct outcome o;
    call_finish(&h, NULL, &o);
    fake_env_pop_frame(h.fe);
    int status;
    if (version == JNI_ERR || !outcome_is_clean(&o)) {
        char text[1024];
        fprintf(stderr, "bench: JNI_OnLoad of %s refused: %s\n", argv[1], outcome_describe(&o, text, sizeof text));
        status = 1;
    } else {
        printf("# bench: %s\n", argv[1]);
        status = run(&h, (int)rounds, lockstep);
    }
    outcome_free(&o);
    fake_env_destroy(h.fe);
    return status;
}
