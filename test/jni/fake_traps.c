/*
 * fake_traps.c - a trap in every slot of the JNIEnv and JavaVM tables.
 *
 * The fake environment implements only what jbigi calls.  A call to any
 * other slot would otherwise jump through a null pointer, or worse through
 * a stale one; instead each slot gets its own trap, which names the slot
 * and aborts, so a new JNI call in the library shows up as one clear line.
 *
 * A trap takes no arguments: on the x86-64 calling conventions (System V
 * and Windows) a call with extra arguments to such a function is harmless,
 * and the trap never returns.  They are stored through memcpy, as the
 * slots' own types differ from slot to slot.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_env_internal.h"
#include "jni_slots.h"

typedef void(JNICALL *trap_fn)(void);

static void trap(const char *table, const char *slot)
{
    fflush(stdout);
    printf("not ok - the library called %s->%s, which the fake JNI does not implement\n", table, slot);
    fflush(stdout);
    fprintf(stderr, "jni_harness: unexpected call to %s->%s: aborting\n", table, slot);
    abort();
}

/* One trap function per slot, each knowing its slot's name. */
#define JNI_SLOT(name)                                                                                                 \
    static void JNICALL trap_env_##name(void)                                                                          \
    {                                                                                                                  \
        trap("JNIEnv", #name);                                                                                         \
    }
JNI_SLOTS
#undef JNI_SLOT

struct slot {
    size_t offset;
    trap_fn fn;
};

/* offsetof also proves each name is a member of the jni.h in use. */
#define JNI_SLOT(name) {offsetof(struct JNINativeInterface_, name), trap_env_##name},
static const struct slot env_slots[] = {JNI_SLOTS};
#undef JNI_SLOT

#define ENV_SLOT_COUNT (sizeof env_slots / sizeof env_slots[0])

/* The list must cover the whole table: four reserved pointers, then one
 * function pointer per slot.  A JDK whose jni.h has more slots stops the
 * build here; add them to jni_slots.h. */
_Static_assert(4 * sizeof(void *) + ENV_SLOT_COUNT * sizeof(trap_fn) == sizeof(struct JNINativeInterface_),
               "jni_slots.h does not list every slot of this jni.h's JNINativeInterface_");

#define VM_SLOTS                                                                                                       \
    VM_SLOT(DestroyJavaVM) VM_SLOT(AttachCurrentThread) VM_SLOT(DetachCurrentThread) VM_SLOT(GetEnv)                   \
        VM_SLOT(AttachCurrentThreadAsDaemon)

#define VM_SLOT(name)                                                                                                  \
    static void JNICALL trap_vm_##name(void)                                                                           \
    {                                                                                                                  \
        trap("JavaVM", #name);                                                                                         \
    }
VM_SLOTS
#undef VM_SLOT

#define VM_SLOT(name) {offsetof(struct JNIInvokeInterface_, name), trap_vm_##name},
static const struct slot vm_slots[] = {VM_SLOTS};
#undef VM_SLOT

_Static_assert(3 * sizeof(void *) + sizeof vm_slots / sizeof vm_slots[0] * sizeof(trap_fn) ==
                   sizeof(struct JNIInvokeInterface_),
               "VM_SLOTS does not list every slot of this jni.h's JNIInvokeInterface_");

static void install(void *table, const struct slot *slots, size_t count)
{
    for (size_t i = 0; i < count; i++)
        memcpy((char *)table + slots[i].offset, &slots[i].fn, sizeof slots[i].fn);
}

void fake_install_traps(struct JNINativeInterface_ *env_table, struct JNIInvokeInterface_ *vm_table)
{
    /* The reserved words stay NULL, as a JVM leaves them. */
    memset(env_table, 0, sizeof *env_table);
    memset(vm_table, 0, sizeof *vm_table);
    install(env_table, env_slots, ENV_SLOT_COUNT);
    install(vm_table, vm_slots, sizeof vm_slots / sizeof vm_slots[0]);
}
