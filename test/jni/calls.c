/*
 * calls.c - making a native call and recording its outcome.
 */
#include "calls.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

void outcome_free(struct outcome *o)
{
    bytes_free(&o->value);
}

static jbyteArray make_arg(struct harness *h, arg a)
{
    return a == NULL ? NULL : fake_new_byte_array(h->fe, a->p, a->len);
}

/* The natives only read their arguments: a caller's array (a cached key,
 * a NativeBigInteger's cached form) must come back as it went in. */
static void check_arg(struct harness *h, jbyteArray array, arg a, const char *name, struct outcome *o)
{
    if (a == NULL)
        return;
    size_t len;
    const unsigned char *now = fake_byte_array(h->fe, array, &len);
    if (now == NULL || !bytes_equal(now, len, a->p, a->len)) {
        if (o->misuses++ == 0)
            snprintf(o->misuse, sizeof o->misuse, "modified its %s argument", name);
    }
}

void call_begin(struct harness *h)
{
    char stale[8];
    fake_clear_pending(h->fe);
    fake_take_misuse(h->fe, stale, sizeof stale);
}

void call_finish(struct harness *h, jobject result, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    fake_check_call_end(h->fe);
    o->returned_null = result == NULL;
    const char *thrown = fake_pending_class(h->fe);
    if (thrown != NULL) {
        snprintf(o->thrown, sizeof o->thrown, "%s", thrown);
        snprintf(o->message, sizeof o->message, "%s", fake_pending_message(h->fe));
    }
    if (result != NULL) {
        size_t len;
        const unsigned char *bytes = fake_byte_array(h->fe, result, &len);
        const char *text = fake_string(h->fe, result);
        if (bytes != NULL)
            o->value = bytes_copy(bytes, len);
        else if (text != NULL)
            snprintf(o->text, sizeof o->text, "%s", text);
        else if (!fake_direct_buffer(h->fe, result, &o->address, &o->capacity))
            fake_misuse(h->fe, "returned %p, which is no live object of a type it may return", (void *)result);
    }
    o->misuses = fake_take_misuse(h->fe, o->misuse, sizeof o->misuse);
    fake_clear_pending(h->fe);
}

/* Finishes a call that took up to three byte[] arguments. */
static void finish_with_args(struct harness *h, jobject result, struct outcome *o, jbyteArray a1, arg v1,
                             const char *n1, jbyteArray a2, arg v2, const char *n2, jbyteArray a3, arg v3,
                             const char *n3)
{
    call_finish(h, result, o);
    check_arg(h, a1, v1, n1, o);
    check_arg(h, a2, v2, n2, o);
    check_arg(h, a3, v3, n3, o);
    fake_env_pop_frame(h->fe);
}

void call_power(struct harness *h, power_fn *fn, arg base, arg exponent, arg modulus, struct outcome *o)
{
    jbyteArray b = make_arg(h, base), e = make_arg(h, exponent), m = make_arg(h, modulus);
    call_begin(h);
    jbyteArray r = fn(h->env, h->n.native_big_integer, b, e, m);
    finish_with_args(h, r, o, b, base, "base", e, exponent, "exponent", m, modulus, "modulus");
}

void call_bounded_power(struct harness *h, arg base, arg exponent, arg modulus, jint bits, struct outcome *o)
{
    jbyteArray b = make_arg(h, base), e = make_arg(h, exponent), m = make_arg(h, modulus);
    call_begin(h);
    jbyteArray r = h->n.mod_pow_ct_bound(h->env, h->n.native_big_integer, b, e, m, bits);
    finish_with_args(h, r, o, b, base, "base", e, exponent, "exponent", m, modulus, "modulus");
}

void call_inverse(struct harness *h, arg value, arg modulus, struct outcome *o)
{
    jbyteArray v = make_arg(h, value), m = make_arg(h, modulus);
    call_begin(h);
    jbyteArray r = h->n.mod_inverse(h->env, h->n.native_big_integer, v, m);
    finish_with_args(h, r, o, v, value, "value", m, modulus, "modulus", NULL, NULL, NULL);
}

void call_jacobi(struct harness *h, arg a, arg n, jint *symbol, struct outcome *o)
{
    jbyteArray x = make_arg(h, a), m = make_arg(h, n);
    call_begin(h);
    *symbol = h->n.jacobi(h->env, h->n.native_big_integer, x, m);
    finish_with_args(h, NULL, o, x, a, "a", m, n, "n", NULL, NULL, NULL);
}

void call_table_power(struct harness *h, jobject table, jlong generation, arg exponent, int constant_time,
                      struct outcome *o)
{
    jbyteArray e = make_arg(h, exponent);
    call_begin(h);
    jbyteArray r =
        h->n.table_mod_pow(h->env, h->n.fixed_base, table, generation, e, constant_time ? JNI_TRUE : JNI_FALSE);
    finish_with_args(h, r, o, e, exponent, "exponent", NULL, NULL, NULL, NULL, NULL, NULL);
}

void call_table_bounded_power(struct harness *h, jobject table, jlong generation, arg exponent, jint bits,
                              struct outcome *o)
{
    jbyteArray e = make_arg(h, exponent);
    call_begin(h);
    jbyteArray r = h->n.table_mod_pow_ct_bound(h->env, h->n.fixed_base, table, generation, e, bits);
    finish_with_args(h, r, o, e, exponent, "exponent", NULL, NULL, NULL, NULL, NULL, NULL);
}

void call_build_table(struct harness *h, jobject table, jlong generation, arg base, arg modulus, jint rows,
                      jint blocks, jint max_exponent_bits, struct outcome *o)
{
    jbyteArray b = make_arg(h, base), m = make_arg(h, modulus);
    call_begin(h);
    h->n.build_table(h->env, h->n.fixed_base, table, generation, b, m, rows, blocks, max_exponent_bits);
    finish_with_args(h, NULL, o, b, base, "base", m, modulus, "modulus", NULL, NULL, NULL);
}

void call_allocate_table(struct harness *h, jlong table_bytes, struct outcome *o)
{
    call_begin(h);
    jobject block = h->n.allocate_table(h->env, h->n.fixed_base, table_bytes);
    call_finish(h, block, o);
    /* The block's generation, from its fresh header (bytes 16 to 24, in the
     * CPU's order), read once now as NativeTable.generationOf reads it. */
    o->generation = 0;
    if (o->address != NULL && o->capacity >= 24)
        memcpy(&o->generation, (const unsigned char *)o->address + 16, sizeof o->generation);
    /* The block's buffer object goes with the frame; the test keeps its
     * address, capacity and generation (o->address, o->capacity,
     * o->generation) and makes its own buffers over them, as Java keeps the
     * ByteBuffer. */
    fake_env_pop_frame(h->fe);
}

void call_free_table(struct harness *h, jobject block, jlong generation, struct outcome *o)
{
    call_begin(h);
    h->n.free_table(h->env, h->n.fixed_base, block, generation);
    call_finish(h, NULL, o);
    fake_env_pop_frame(h->fe);
}

void call_string(struct harness *h, string_fn *fn, struct outcome *o)
{
    call_begin(h);
    jstring s = fn(h->env, h->n.engine);
    call_finish(h, s, o);
    fake_env_pop_frame(h->fe);
}

const char *outcome_describe(const struct outcome *o, char *text, size_t size)
{
    char hex[96];
    int at;
    if (o->thrown[0] != '\0')
        at = snprintf(text, size, "threw %s(\"%s\")%s", o->thrown, o->message,
                      o->returned_null ? "" : " and returned a value");
    else if (o->value.p != NULL)
        at = snprintf(text, size, "returned %s", bytes_hex(o->value.p, o->value.len, hex, sizeof hex));
    else if (o->address != NULL)
        at = snprintf(text, size, "returned a direct buffer of %lld bytes", (long long)o->capacity);
    else if (!o->returned_null)
        at = snprintf(text, size, "returned \"%s\"", o->text);
    else
        at = snprintf(text, size, "returned null, nothing pending");
    if (o->misuses > 0 && at >= 0 && (size_t)at < size)
        snprintf(text + at, size - (size_t)at, "; breach x%u: %s", o->misuses, o->misuse);
    return text;
}

/* Sets why to "expected <want>, but <outcome>". */
static int wrong(struct outcome *o, const char *want)
{
    char got[768];
    snprintf(o->why, sizeof o->why, "expected %s, but %s", want, outcome_describe(o, got, sizeof got));
    return 0;
}

static int value_check(struct outcome *o, const struct bytes *want, int canonical)
{
    char hex[96], text[160];
    snprintf(text, sizeof text, "%s", bytes_hex(want->p, want->len, hex, sizeof hex));
    if (o->misuses > 0 || o->thrown[0] != '\0' || o->value.p == NULL)
        return wrong(o, text);
    if (canonical && !bytes_canonical(o->value.p, o->value.len)) {
        /* NativeBigInteger keeps a result as its cached toByteArray()
         * form (fromNative), so a redundant sign byte is a bug even when
         * the value is right. */
        snprintf(o->why, sizeof o->why, "returned %s, not in toByteArray() form (expected %s)",
                 bytes_hex(o->value.p, o->value.len, hex, sizeof hex), text);
        return 0;
    }
    if (!bytes_equal(o->value.p, o->value.len, want->p, want->len))
        return wrong(o, text);
    return 1;
}

int outcome_is_value(struct outcome *o, const struct bytes *want)
{
    return value_check(o, want, 1);
}

int outcome_is_bytes(struct outcome *o, const struct bytes *want)
{
    return value_check(o, want, 0);
}

int outcome_is_clean(struct outcome *o)
{
    if (o->misuses > 0 || o->thrown[0] != '\0')
        return wrong(o, "a normal return");
    return 1;
}

int outcome_threw(struct outcome *o, const char *class_name, const char *mention)
{
    char want[256];
    snprintf(want, sizeof want, "%s%s%s%s", class_name, mention ? " mentioning \"" : "", mention ? mention : "",
             mention ? "\"" : "");
    if (o->misuses > 0 || !o->returned_null || strcmp(o->thrown, class_name) != 0 ||
        (mention != NULL && strstr(o->message, mention) == NULL))
        return wrong(o, want);
    return 1;
}

void check_outcome(struct outcome *o, int ok, const char *format, ...)
{
    char what[512];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    report_check(ok, "%s%s%s", what, ok ? "" : ": ", ok ? "" : o->why);
    outcome_free(o);
}
