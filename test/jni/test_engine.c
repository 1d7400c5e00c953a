/*
 * test_engine.c - the natives of net.i2p.util.Engine and the version
 * queries of NativeBigInteger.
 *
 * nativeForce takes "gmp", "adx", "ifma" (also "avx512-ifma"), "p25519" or
 * "auto"
 * (null and "" mean auto), and answers false, leaving the choice on auto,
 * for a name it does not know or an engine this CPU cannot run; the note
 * then says so.  nativeForceGmp(true) is nativeForce("gmp"), false is
 * "auto".  nativeName names the engine a 2048-bit modulus gets now (the
 * special-form p25519 when it is forced).
 */
#include <stdio.h>
#include <string.h>

#include "gmp_ref.h"
#include "report.h"
#include "tests.h"

/* What nativeName says for each name nativeForce takes. */
static const struct {
    const char *force;
    const char *name;
} engines_known[] = {{"gmp", "gmp"}, {"adx", "adx"}, {"ifma", "avx512-ifma"}, {"p25519", "p25519"}};

static int force(struct harness *h, const char *name, struct outcome *o)
{
    call_begin(h);
    jstring s = name != NULL ? fake_new_string(h->fe, name) : NULL;
    const jboolean r = h->n.force(h->env, h->n.engine, s);
    call_finish(h, NULL, o);
    fake_env_pop_frame(h->fe);
    return r == JNI_TRUE;
}

int force_engine(struct harness *h, const char *engine)
{
    struct outcome o;
    const int ok = force(h, engine, &o) && outcome_is_clean(&o);
    outcome_free(&o);
    return ok;
}

/* nativeName now, copied to name. */
static int engine_name(struct harness *h, char *name, size_t size)
{
    struct outcome o;
    call_string(h, h->n.name, &o);
    const int ok = outcome_is_clean(&o) && !o.returned_null;
    snprintf(name, size, "%s", ok ? o.text : "");
    outcome_free(&o);
    return ok;
}

static void versions(struct harness *h)
{
    struct outcome o;
    call_begin(h);
    const jint version = h->n.jbigi_version(h->env, h->n.native_big_integer);
    call_finish(h, NULL, &o);
    report_check(version == 5 && outcome_is_clean(&o), "nativeJbigiVersion is 5 (I2P's is 4): %ld", (long)version);
    outcome_free(&o);

    call_begin(h);
    const jint major = h->n.gmp_major(h->env, h->n.native_big_integer);
    const jint minor = h->n.gmp_minor(h->env, h->n.native_big_integer);
    const jint patch = h->n.gmp_patch(h->env, h->n.native_big_integer);
    call_finish(h, NULL, &o);
    /* The library's own GMP (static builds carry theirs), not the one the
     * harness may link: only plausibility can be checked. */
    report_check(major >= 4 && major < 100 && minor >= 0 && minor < 100 && patch >= 0 && patch < 1000 &&
                     outcome_is_clean(&o),
                 "nativeGMPMajor/Minor/PatchVersion: GMP %ld.%ld.%ld (the harness' reference: %s)", (long)major,
                 (long)minor, (long)patch, gmp_ref_version());
    outcome_free(&o);
}

static void strings(struct harness *h, char *auto_name, size_t size)
{
    struct outcome o;
    call_string(h, h->n.variant, &o);
    report_check(outcome_is_clean(&o) && !o.returned_null && o.text[0] != '\0', "nativeVariant: \"%s\"%s%s", o.text,
                 o.why[0] ? ": " : "", o.why);
    outcome_free(&o);

    const int ok = engine_name(h, auto_name, size);
    int known = strcmp(auto_name, "small") == 0;
    for (size_t i = 0; i < sizeof engines_known / sizeof engines_known[0]; i++)
        known |= strcmp(auto_name, engines_known[i].name) == 0;
    report_check(ok && known, "nativeName: \"%s\" (an engine the library has)", auto_name);

    call_string(h, h->n.note, &o);
    report_check(outcome_is_clean(&o) && !o.returned_null, "nativeNote: \"%s\"%s%s", o.text, o.why[0] ? ": " : "",
                 o.why);
    outcome_free(&o);
}

/* nativeForce(name) must answer want, name the engine expected (NULL: the
 * automatic choice), and leave a note or none. */
static void expect_force(struct harness *h, const char *name, int want, const char *expected, const char *auto_name,
                         int want_note)
{
    struct outcome o;
    const int got = force(h, name, &o);
    int ok = got == want && outcome_is_clean(&o);
    outcome_free(&o);
    char now[256];
    ok &= engine_name(h, now, sizeof now);
    ok &= strcmp(now, expected != NULL ? expected : auto_name) == 0;
    call_string(h, h->n.note, &o);
    ok &= outcome_is_clean(&o) && (o.text[0] != '\0') == want_note;
    report_check(ok, "nativeForce(%s%s%s) is %s, nativeName then \"%s\", note \"%s\"", name ? "\"" : "",
                 name ? name : "null", name ? "\"" : "", got ? "true" : "false", now, o.text);
    outcome_free(&o);
}

static void force_gmp(struct harness *h, int on, const char *expected)
{
    struct outcome o;
    call_begin(h);
    h->n.force_gmp(h->env, h->n.engine, on ? JNI_TRUE : JNI_FALSE);
    call_finish(h, NULL, &o);
    char now[256];
    const int ok = outcome_is_clean(&o) && engine_name(h, now, sizeof now) && strcmp(now, expected) == 0;
    report_check(ok, "nativeForceGmp(%s): nativeName then \"%s\"", on ? "true" : "false", now);
    outcome_free(&o);
}

size_t test_engine(struct harness *h, const char **engines, size_t max)
{
    char auto_name[256];
    versions(h);
    strings(h, auto_name, sizeof auto_name);

    expect_force(h, "gmp", 1, "gmp", auto_name, 0);
    expect_force(h, "auto", 1, NULL, auto_name, 0);
    expect_force(h, "nonsense", 0, NULL, auto_name, 1);
    expect_force(h, "auto", 1, NULL, auto_name, 0);
    expect_force(h, NULL, 1, NULL, auto_name, 0);
    expect_force(h, "", 1, NULL, auto_name, 0);
    force_gmp(h, 1, "gmp");
    force_gmp(h, 0, auto_name);

    /* Each engine this CPU runs, for the groups that run under each. */
    size_t n = 0;
    if (n < max)
        engines[n++] = "auto";
    for (size_t i = 0; i < sizeof engines_known / sizeof engines_known[0]; i++) {
        struct outcome o;
        const int taken = force(h, engines_known[i].force, &o);
        outcome_free(&o);
        char now[256];
        engine_name(h, now, sizeof now);
        if (taken) {
            report_check(strcmp(now, engines_known[i].name) == 0, "nativeForce(\"%s\") is true here: nativeName \"%s\"",
                         engines_known[i].force, now);
            if (n < max)
                engines[n++] = engines_known[i].force;
        } else {
            report_check(strcmp(now, auto_name) == 0,
                         "nativeForce(\"%s\") is false here (CPU without it): the choice stays automatic (\"%s\")",
                         engines_known[i].force, now);
        }
    }
    force_engine(h, "auto");
    return n;
}
