/*
 * fake_state.c - the fake environment's life and bookkeeping: creating and
 * destroying it, the pending exception, the record of breaches of JNI's
 * rules, and the injected failures.  The objects are in fake_objects.c,
 * the JNI functions in fake_env.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_env_internal.h"

struct fake_env *fake_env_create(void)
{
    struct fake_env *fe = calloc(1, sizeof *fe);
    if (fe == NULL)
        return NULL;
    fake_install_traps(&fe->table, &fe->vm_table);
    fake_install_functions(&fe->table, &fe->vm_table);
    fe->functions = &fe->table;
    fe->vm_functions = &fe->vm_table;
    return fe;
}

void fake_env_destroy(struct fake_env *fe)
{
    if (fe == NULL)
        return;
    fake_check_call_end(fe); /* gives back any loans */
    struct fake_object *obj = fe->objects;
    while (obj != NULL) {
        struct fake_object *next = obj->next;
        fake_object_free(obj);
        obj = next;
    }
    free(fe);
}

JNIEnv *fake_env_jni(struct fake_env *fe)
{
    return (JNIEnv *)&fe->functions;
}

JavaVM *fake_env_vm(struct fake_env *fe)
{
    return (JavaVM *)&fe->vm_functions;
}

void fake_misuse(struct fake_env *fe, const char *format, ...)
{
    if (fe->misuses++ == 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(fe->first_misuse, sizeof fe->first_misuse, format, args);
        va_end(args);
    }
}

unsigned fake_take_misuse(struct fake_env *fe, char *text, size_t text_size)
{
    unsigned n = fe->misuses;
    if (text_size > 0)
        snprintf(text, text_size, "%s", n > 0 ? fe->first_misuse : "");
    fe->misuses = 0;
    fe->first_misuse[0] = '\0';
    return n;
}

void fake_check_call_end(struct fake_env *fe)
{
    /* A region or chars still held would pin (or leak) memory in a JVM. */
    while (fe->critical_depth > 0) {
        struct fake_loan *loan = &fe->critical[--fe->critical_depth];
        fake_misuse(fe, "returned holding a GetPrimitiveArrayCritical region");
        free(loan->copy);
    }
    while (fe->utf_held > 0) {
        struct fake_loan *loan = &fe->utf[--fe->utf_held];
        fake_misuse(fe, "returned without ReleaseStringUTFChars");
        free(loan->copy);
    }
}

void fake_throw(struct fake_env *fe, const char *class_name, const char *message)
{
    struct fake_object *t = fake_object_new(fe, FAKE_THROWABLE);
    if (t == NULL) {
        fprintf(stderr, "jni_harness: out of memory for an exception\n");
        abort();
    }
    t->text = malloc(strlen(class_name) + 1);
    t->message = malloc(strlen(message) + 1);
    if (t->text == NULL || t->message == NULL) {
        fprintf(stderr, "jni_harness: out of memory for an exception\n");
        abort();
    }
    strcpy(t->text, class_name);
    strcpy(t->message, message);
    fe->pending = t;
}

const char *fake_pending_class(const struct fake_env *fe)
{
    return fe->pending != NULL ? fe->pending->text : NULL;
}

const char *fake_pending_message(const struct fake_env *fe)
{
    return fe->pending != NULL ? fe->pending->message : NULL;
}

void fake_clear_pending(struct fake_env *fe)
{
    fe->pending = NULL; /* the throwable itself goes with its frame */
}

void fake_fail_call(struct fake_env *fe, enum fake_fault fault, unsigned nth)
{
    fe->fault_countdown[fault] = nth;
}

void fake_set_hook(struct fake_env *fe, fake_hook_fn *hook, void *arg)
{
    fe->hook = hook;
    fe->hook_arg = arg;
}

int fake_fault_armed(const struct fake_env *fe, enum fake_fault fault)
{
    return fe->fault_countdown[fault] != 0;
}

int fake_fault_fires(struct fake_env *fe, enum fake_fault fault)
{
    if (fe->fault_countdown[fault] == 0)
        return 0;
    return --fe->fault_countdown[fault] == 0;
}
