/*
 * fake_objects.c - the objects behind the fake JNI's handles: made, looked
 * up, kept (pinned) or freed with their frame.  Every object is in one
 * list, so a handle can be checked against it before it is used, and
 * everything can be freed at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_env_internal.h"

static const char *kind_name(enum fake_kind kind)
{
    switch (kind) {
    case FAKE_BYTE_ARRAY:    return "byte[]";
    case FAKE_DIRECT_BUFFER: return "direct ByteBuffer";
    case FAKE_HEAP_BUFFER:   return "heap ByteBuffer";
    case FAKE_STRING:        return "String";
    case FAKE_CLASS:         return "Class";
    case FAKE_THROWABLE:     return "Throwable";
    }
    return "?";
}

struct fake_object *fake_object_new(struct fake_env *fe, enum fake_kind kind)
{
    struct fake_object *obj = calloc(1, sizeof *obj);
    if (obj == NULL)
        return NULL;
    obj->kind = kind;
    obj->next = fe->objects;
    fe->objects = obj;
    fe->live++;
    return obj;
}

void fake_object_free(struct fake_object *obj)
{
    free(obj->bytes);
    free(obj->text);
    free(obj->message);
    free(obj);
}

struct fake_object *fake_object_lookup(struct fake_env *fe, jobject handle)
{
    for (struct fake_object *obj = fe->objects; obj != NULL; obj = obj->next) {
        if ((jobject)(void *)obj == handle)
            return obj;
    }
    return NULL;
}

struct fake_object *fake_object_find(struct fake_env *fe, jobject handle, enum fake_kind kind, const char *what)
{
    struct fake_object *obj = fake_object_lookup(fe, handle);
    if (obj == NULL) {
        fake_misuse(fe, "%s: %p is not a reference the JVM handed out (stale or invented)", what, (void *)handle);
        return NULL;
    }
    if (obj->deleted) {
        fake_misuse(fe, "%s: the reference was deleted (DeleteLocalRef) before this use", what);
        return NULL;
    }
    if (obj->kind != kind) {
        fake_misuse(fe, "%s: a %s where a %s belongs", what, kind_name(obj->kind), kind_name(kind));
        return NULL;
    }
    return obj;
}

void fake_env_pop_frame(struct fake_env *fe)
{
    struct fake_object **link = &fe->objects;
    while (*link != NULL) {
        struct fake_object *obj = *link;
        if (obj->pinned) {
            link = &obj->next;
            continue;
        }
        *link = obj->next;
        if (fe->pending == obj)
            fe->pending = NULL;
        fake_object_free(obj);
        fe->live--;
    }
}

size_t fake_live_objects(const struct fake_env *fe)
{
    return fe->live;
}

void fake_pin(struct fake_env *fe, jobject handle)
{
    struct fake_object *obj = fake_object_lookup(fe, handle);
    if (obj != NULL)
        obj->pinned = 1;
}

/* The harness cannot go on without memory for its own objects. */
static void *need(void *p)
{
    if (p == NULL) {
        fprintf(stderr, "jni_harness: out of memory\n");
        abort();
    }
    return p;
}

jbyteArray fake_new_byte_array(struct fake_env *fe, const void *bytes, size_t len)
{
    struct fake_object *obj = need(fake_object_new(fe, FAKE_BYTE_ARRAY));
    obj->length = (jsize)len;
    /* Exactly len bytes (one for an empty array, which malloc may refuse
     * at 0): valgrind then sees any read past the end. */
    obj->bytes = need(malloc(len > 0 ? len : 1));
    if (bytes != NULL && len > 0)
        memcpy(obj->bytes, bytes, len);
    else
        memset(obj->bytes, 0, len > 0 ? len : 1);
    return (jbyteArray)(void *)obj;
}

const unsigned char *fake_byte_array(struct fake_env *fe, jbyteArray array, size_t *len)
{
    struct fake_object *obj = fake_object_lookup(fe, array);
    *len = 0;
    if (obj == NULL || obj->deleted || obj->kind != FAKE_BYTE_ARRAY)
        return NULL;
    *len = (size_t)obj->length;
    return obj->bytes;
}

jobject fake_new_direct_buffer(struct fake_env *fe, void *address, jlong capacity)
{
    struct fake_object *obj = need(fake_object_new(fe, FAKE_DIRECT_BUFFER));
    obj->address = address;
    obj->capacity = capacity;
    return (jobject)(void *)obj;
}

jobject fake_new_heap_buffer(struct fake_env *fe)
{
    return (jobject)(void *)need(fake_object_new(fe, FAKE_HEAP_BUFFER));
}

int fake_direct_buffer(struct fake_env *fe, jobject buffer, void **address, jlong *capacity)
{
    struct fake_object *obj = fake_object_lookup(fe, buffer);
    if (obj == NULL || obj->deleted || obj->kind != FAKE_DIRECT_BUFFER)
        return 0;
    *address = obj->address;
    *capacity = obj->capacity;
    return 1;
}

static struct fake_object *with_text(struct fake_env *fe, enum fake_kind kind, const char *text)
{
    struct fake_object *obj = need(fake_object_new(fe, kind));
    obj->text = need(malloc(strlen(text) + 1));
    strcpy(obj->text, text);
    return obj;
}

jstring fake_new_string(struct fake_env *fe, const char *utf)
{
    return (jstring)(void *)with_text(fe, FAKE_STRING, utf);
}

const char *fake_string(struct fake_env *fe, jstring string)
{
    struct fake_object *obj = fake_object_lookup(fe, string);
    if (obj == NULL || obj->deleted || obj->kind != FAKE_STRING)
        return NULL;
    return obj->text;
}

jclass fake_new_class(struct fake_env *fe, const char *name)
{
    return (jclass)(void *)with_text(fe, FAKE_CLASS, name);
}
