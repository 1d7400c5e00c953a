/*
 * jni_harness.c - calls every exported native of a jbigi library through a
 * JNIEnv of its own, without a JVM: where none exists (a Windows DLL under
 * wine), and to see, call by call, what the library asks of JNI.
 *
 *     jni_harness LIBRARY [VECTOR_FILE...]
 *
 * LIBRARY is lib/libjbigi.so, or a jbigi-windows-*.dll for the Windows
 * build of this program; VECTOR_FILE defaults to
 * test/vectors/modpow-public.txt (relative to the working directory).
 * Prints "ok - ", "not ok - " and "skip - " lines and ends with
 * "N passed, N failed, N skipped"; exits non-zero if a check failed.
 *
 * First, as a JVM does: the library is loaded and its JNI_OnLoad called
 * with a JavaVM whose GetEnv gives the fake JNIEnv.  A library built for
 * instructions this CPU lacks refuses there (JNI_ERR and an
 * UnsatisfiedLinkError pending): that is one skipped check, and the exit
 * status is 0.
 */
#include <stdio.h>
#include <string.h>

#include "fake_jni.h"
#include "gmp_ref.h"
#include "loader.h"
#include "natives.h"
#include "report.h"
#include "rng.h"
#include "tests.h"

#define DEFAULT_VECTORS "test/vectors/modpow-public.txt"

/* The library under test, loaded for the life of the process (see the end
 * of main); static, so that it is still reachable at exit. */
static struct loader_library *lib;

/* JNI_OnLoad: 1 to go on, 0 when it refused the CPU (a skip) or failed. */
static int on_load(struct harness *h)
{
    call_begin(h);
    const jint version = h->n.on_load(fake_env_vm(h->fe), NULL);
    struct outcome o;
    call_finish(h, NULL, &o);
    if (version == JNI_ERR && strcmp(o.thrown, "java/lang/UnsatisfiedLinkError") == 0 && o.misuses == 0) {
        report_skip("JNI_OnLoad refused this CPU, as it must for a library built for instructions the CPU "
                    "lacks: %s",
                    o.message);
        outcome_free(&o);
        return 0;
    }
    /* A JVM accepts only the versions it knows; jbigi asks for 1.6. */
    const int ok = (version == JNI_VERSION_1_6 || version == JNI_VERSION_1_8) && outcome_is_clean(&o);
    report_check(ok, "JNI_OnLoad returns JNI_VERSION_1_6 (0x%lx), nothing pending%s%s", (long)version, ok ? "" : ": ",
                 ok ? "" : o.why);
    outcome_free(&o);
    return ok;
}

static void run_tests(struct harness *h, int argc, char **argv)
{
    const char *engines[8];
    const size_t n_engines = test_engine(h, engines, sizeof engines / sizeof engines[0]);
    rng_init();
    for (size_t i = 0; i < n_engines; i++) {
        /* Every engine must give the same results: all the value checks
         * run under each one this CPU can be forced to. */
        if (!force_engine(h, engines[i])) {
            report_fail("nativeForce(\"%s\") no longer accepted", engines[i]);
            continue;
        }
        report_note("engine %s", engines[i]);
        if (argc > 2) {
            for (int a = 2; a < argc; a++)
                test_vectors(h, argv[a], engines[i]);
        } else {
            test_vectors(h, DEFAULT_VECTORS, engines[i]);
        }
        test_random(h, engines[i]);
        test_fixedbase(h, engines[i]);
    }
    force_engine(h, "auto");
    report_note("engine auto: bad inputs, fixed-base rules and races, JNI failures");
    test_bad_inputs(h);
    test_bad_matrix(h);
    test_fixedbase_rules(h);
    test_fixedbase_life(h);
    test_fixedbase_races(h);
    test_jni_faults(h);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIBRARY [VECTOR_FILE...]\n", argv[0]);
        return 2;
    }
    printf("# jni_harness: %s, GMP reference %s\n", argv[1],
           gmp_ref_available() ? gmp_ref_version() : "not compiled in");

    char error[512];
    lib = loader_open(argv[1], error, sizeof error);
    if (lib == NULL) {
        report_fail("load %s: %s", argv[1], error);
        return report_summary();
    }
    struct harness h;
    memset(&h, 0, sizeof h);
    h.fe = fake_env_create();
    if (h.fe == NULL) {
        fprintf(stderr, "jni_harness: out of memory\n");
        return 2;
    }
    h.env = fake_env_jni(h.fe);
    const int missing = natives_resolve(&h.n, lib);
    h.n.native_big_integer = fake_new_class(h.fe, "net/i2p/util/NativeBigInteger");
    h.n.fixed_base = fake_new_class(h.fe, "net/i2p/util/FixedBase");
    h.n.engine = fake_new_class(h.fe, "net/i2p/util/Engine");
    fake_pin(h.fe, h.n.native_big_integer);
    fake_pin(h.fe, h.n.fixed_base);
    fake_pin(h.fe, h.n.engine);

    if (h.n.on_load != NULL && on_load(&h)) {
        if (missing == 0)
            report_ok("the library exports JNI_OnLoad and the 20 natives of include/jbigi.h");
        else
            report_fail("the library lacks %d export(s):%s (no natives called)", missing, h.n.missing);
        if (missing == 0)
            run_tests(&h, argc, argv);
    } else if (h.n.on_load == NULL) {
        report_fail("the library does not export JNI_OnLoad");
    }

    fake_env_pop_frame(h.fe);
    fake_env_destroy(h.fe);
    /* The library stays loaded until the process ends, as in a JVM: its
     * process-lifetime state (the record of live table blocks) is then
     * still reachable at exit, which valgrind does not count as a leak;
     * unloaded, it would be reported lost. */
    return report_summary();
}
