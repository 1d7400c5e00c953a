/*
 * test_jni_faults.c - the natives when the JVM itself fails them: an
 * allocation of the result array, a critical region the JVM will not
 * give, a class it cannot find while the library throws.  A JVM out of
 * heap does all of these; the natives must then return with the JVM's
 * exception (or their own OutOfMemoryError) pending and nothing else
 * called, never crash or carry on with a NULL.
 */
#include <stdio.h>
#include <string.h>

#include "java_exceptions.h"
#include "report.h"
#include "tests.h"

static const unsigned char two_b = 2, three_b = 3, seven_b = 7;
static const struct bytes TWO = {(unsigned char *)&two_b, 1}, THREE = {(unsigned char *)&three_b, 1},
                          SEVEN = {(unsigned char *)&seven_b, 1};

/* The calls the faults are tried on (3^2 mod 7 and 3^-1 mod 7). */
enum call_kind { POW, POW_CT, POW_BOUND, POW_FIXED, INVERSE };

static void run(struct harness *h, enum call_kind kind, struct outcome *o)
{
    switch (kind) {
    case POW:       call_power(h, h->n.mod_pow, &THREE, &TWO, &SEVEN, o); break;
    case POW_CT:    call_power(h, h->n.mod_pow_ct, &THREE, &TWO, &SEVEN, o); break;
    case POW_BOUND: call_bounded_power(h, &THREE, &TWO, &SEVEN, 8, o); break;
    case POW_FIXED: call_power(h, h->n.mod_pow_ct_fixed, &THREE, &TWO, &SEVEN, o); break;
    case INVERSE:   call_inverse(h, &THREE, &SEVEN, o); break;
    }
}

static const char *const kind_names[] = {"nativeModPow", "nativeModPowCT", "nativeModPowCTBound",
                                         "nativeModPowCTFixed", "nativeModInverse"};

/* Arms fault for the next such JNI call, runs kind, checks cls pending. */
static void expect_fault(struct harness *h, enum call_kind kind, enum fake_fault fault, const char *fault_name,
                         const char *cls)
{
    struct outcome o;
    fake_fail_call(h->fe, fault, 1);
    run(h, kind, &o);
    if (fake_fault_armed(h->fe, fault)) {
        /* This native never made that JNI call: nothing to check. */
        fake_fail_call(h->fe, fault, 0);
        outcome_free(&o);
        return;
    }
    check_outcome(&o, outcome_threw(&o, cls, NULL), "%s when %s fails: %s pending", kind_names[kind], fault_name,
                  cls + strlen("java/lang/"));
}

void test_jni_faults(struct harness *h)
{
    for (int k = POW; k <= INVERSE; k++) {
        expect_fault(h, (enum call_kind)k, FAKE_FAIL_NEW_BYTE_ARRAY, "NewByteArray", OOM);
        expect_fault(h, (enum call_kind)k, FAKE_FAIL_CRITICAL, "GetPrimitiveArrayCritical", OOM);
    }

    /* A throw whose class cannot be found: FindClass's NoClassDefFoundError
     * stays pending (what jbigi_throw documents), no second throw. */
    struct outcome o;
    fake_fail_call(h->fe, FAKE_FAIL_FIND_CLASS, 1);
    call_power(h, h->n.mod_pow, NULL, &TWO, &SEVEN, &o);
    check_outcome(&o, outcome_threw(&o, "java/lang/NoClassDefFoundError", NULL),
                  "nativeModPow(null, ...) when FindClass fails: NoClassDefFoundError pending");
    fake_fail_call(h->fe, FAKE_FAIL_FIND_CLASS, 0);

    fake_fail_call(h->fe, FAKE_FAIL_NEW_STRING, 1);
    call_string(h, h->n.name, &o);
    check_outcome(&o, outcome_threw(&o, OOM, NULL), "nativeName when NewStringUTF fails: OutOfMemoryError pending");

    fake_fail_call(h->fe, FAKE_FAIL_STRING_UTF_CHARS, 1);
    call_begin(h);
    jstring gmp = fake_new_string(h->fe, "gmp");
    const jboolean r = h->n.force(h->env, h->n.engine, gmp);
    call_finish(h, NULL, &o);
    fake_env_pop_frame(h->fe);
    report_check(r == JNI_FALSE && strcmp(o.thrown, OOM) == 0 && o.misuses == 0,
                 "nativeForce when GetStringUTFChars fails: false, OutOfMemoryError pending (%s%s)",
                 o.thrown[0] ? o.thrown : "nothing pending", o.misuses ? "; JNI misuse" : "");
    outcome_free(&o);
    force_engine(h, "auto");

    fake_fail_call(h->fe, FAKE_FAIL_NEW_DIRECT_BUFFER, 1);
    call_allocate_table(h, 64, &o);
    check_outcome(&o, outcome_threw(&o, OOM, NULL),
                  "nativeAllocateTable when NewDirectByteBuffer fails: OutOfMemoryError pending");

    /* And everything works again afterwards. */
    const unsigned char two = 2;
    const struct bytes want = {(unsigned char *)&two, 1};
    call_power(h, h->n.mod_pow, &THREE, &TWO, &SEVEN, &o);
    check_outcome(&o, outcome_is_value(&o, &want), "nativeModPow right again after the failures (3^2 mod 7 = 2)");
}
