/*
 * natives.c - finding the library's exports and typing them.
 */
#include "natives.h"

#include <stdio.h>
#include <string.h>

#include "jbigi.h"

/*
 * Stores the symbol's address into the field, after proving at compile
 * time that the field's type is the type of the prototype in
 * include/jbigi.h (the _Generic names the prototype without using it, so
 * nothing links against the library).
 */
#define RESOLVE(field, type, symbol)                                                                                   \
    do {                                                                                                               \
        _Static_assert(_Generic(&symbol, type *: 1, default: 0), #symbol " is not a " #type " in include/jbigi.h");    \
        loader_fn fn = loader_symbol(lib, #symbol);                                                                    \
        _Static_assert(sizeof fn == sizeof n->field, "function pointers differ in size");                              \
        memcpy(&n->field, &fn, sizeof fn);                                                                             \
        if (fn == NULL) {                                                                                              \
            missing++;                                                                                                 \
            snprintf(n->missing + strlen(n->missing), sizeof n->missing - strlen(n->missing), " %s", #symbol);         \
        }                                                                                                              \
    } while (0)

int natives_resolve(struct natives *n, struct loader_library *lib)
{
    int missing = 0;
    memset(n, 0, sizeof *n);
    RESOLVE(on_load, on_load_fn, JNI_OnLoad); /* declared by jni.h */
    RESOLVE(mod_pow, power_fn, Java_net_i2p_util_NativeBigInteger_nativeModPow);
    RESOLVE(mod_pow_ct, power_fn, Java_net_i2p_util_NativeBigInteger_nativeModPowCT);
    RESOLVE(mod_pow_ct_bound, bounded_power_fn, Java_net_i2p_util_NativeBigInteger_nativeModPowCTBound);
    RESOLVE(mod_pow_ct_fixed, power_fn, Java_net_i2p_util_NativeBigInteger_nativeModPowCTFixed);
    RESOLVE(mod_inverse, inverse_fn, Java_net_i2p_util_NativeBigInteger_nativeModInverse);
    RESOLVE(jacobi, jacobi_fn, Java_net_i2p_util_NativeBigInteger_nativeJacobi);
    RESOLVE(jbigi_version, int_fn, Java_net_i2p_util_NativeBigInteger_nativeJbigiVersion);
    RESOLVE(gmp_major, int_fn, Java_net_i2p_util_NativeBigInteger_nativeGMPMajorVersion);
    RESOLVE(gmp_minor, int_fn, Java_net_i2p_util_NativeBigInteger_nativeGMPMinorVersion);
    RESOLVE(gmp_patch, int_fn, Java_net_i2p_util_NativeBigInteger_nativeGMPPatchVersion);
    RESOLVE(table_bytes, table_bytes_fn, Java_net_i2p_util_FixedBase_nativeTableBytes);
    RESOLVE(allocate_table, allocate_table_fn, Java_net_i2p_util_FixedBase_nativeAllocateTable);
    RESOLVE(free_table, free_table_fn, Java_net_i2p_util_FixedBase_nativeFreeTable);
    RESOLVE(build_table, build_table_fn, Java_net_i2p_util_FixedBase_nativeBuildTable);
    RESOLVE(table_mod_pow, table_power_fn, Java_net_i2p_util_FixedBase_nativeModPow);
    RESOLVE(table_mod_pow_ct_bound, table_bounded_power_fn, Java_net_i2p_util_FixedBase_nativeModPowCTBound);
    RESOLVE(force_gmp, force_gmp_fn, Java_net_i2p_util_Engine_nativeForceGmp);
    RESOLVE(force, force_fn, Java_net_i2p_util_Engine_nativeForce);
    RESOLVE(name, string_fn, Java_net_i2p_util_Engine_nativeName);
    RESOLVE(note, string_fn, Java_net_i2p_util_Engine_nativeNote);
    RESOLVE(variant, string_fn, Java_net_i2p_util_Engine_nativeVariant);
    return missing;
}
