/*
 * fixedbase_jni.c - the JNI entry points of net.i2p.util.FixedBase.
 *
 * A table lives in a direct ByteBuffer: outside the Java heap, so an
 * exponentiation reads it in place without holding a JNI critical region
 * (which would stall the garbage collector for the whole computation).
 * FixedBase's tables are blocks that this file allocates and frees
 * (table_memory.c), handed to Java as direct buffers over memory the JVM does
 * not own: freed when FixedBase frees them, not when a collection finds the
 * buffer.  The buffer's address and capacity come from the JVM; table_memory.c
 * keeps the record of live blocks, and a buffer is read (or freed) only while
 * that record holds it inside a live block of the generation the caller
 * names: one over a block freed already (also a stale buffer whose address a
 * new block took since), or over memory jbigi did not allocate, gives
 * IllegalArgumentException without a byte of it read, and a block a call is
 * using is not freed (IllegalStateException).  nativeAllocateTable hands the
 * generation to Java in the fresh block's header (table_memory.h); Java
 * reads it once and passes it to every other native here.  The table in a
 * live block is validated by fixedbase.c before a limb of its entries is
 * read, and a block by its header before it is freed, so a forged or
 * damaged buffer gives IllegalArgumentException, never a wild read or a bad
 * free.
 *
 * The buffer is memory Java can write while a call runs, so every field of
 * it is read once (table_memory.h, fixedbase.c): a call reads the table's
 * header once (jbigi_fb_read), sizes its result from that reading and
 * passes it down; nothing here or below reads the header again.
 *
 * Arguments are checked in order, each one's null first, as the other
 * natives check theirs: the table (null, live, well-formed), the exponent
 * (null, empty, over the size limit), then the bound.
 */
#include <jni.h>
#include <stdint.h>

#include "jbigi.h"
#include "core/arith.h"
#include "core/fixedbase.h"
#include "jni/jni_util.h"
#include "platform/table_memory.h"
#include "core/wipe.h"

/* Tables are arrays of 64-bit limbs in a buffer of bytes. */
#if GMP_LIMB_BITS != 64 || GMP_NAIL_BITS != 0
#error "fixed-base tables need 64-bit GMP limbs without nails"
#endif

/* Largest fixed-base table, in limbs (128 MiB): far above any sensible
 * shape, low enough that a wrong shape cannot exhaust memory. */
#define JBIGI_MAX_TABLE_LIMBS ((size_t)16 * 1024 * 1024)

static int shape_in_range(jint modulus_bits, jint rows, jint blocks)
{
    return modulus_bits >= 2 && rows >= 1 && rows <= JBIGI_FB_MAX_ROWS && blocks >= 1 && blocks <= JBIGI_FB_MAX_BLOCKS;
}

/* Limbs of a new table in the format the engine chosen now takes. */
static size_t table_limbs_for(jint modulus_bits, jint rows, jint blocks)
{
    if (!shape_in_range(modulus_bits, rows, blocks))
        return 0;
    size_t limbs = jbigi_fb_table_limbs(((size_t)modulus_bits + 63) / 64, (unsigned)rows, (unsigned)blocks);
    return limbs > JBIGI_MAX_TABLE_LIMBS ? 0 : limbs;
}

/* Whether limbs is the size of a table of that shape in either format:
 * what nativeTableBytes gave, even if another engine was forced since. */
static int table_limbs_fit(jint modulus_bits, jint rows, jint blocks, size_t limbs)
{
    return shape_in_range(modulus_bits, rows, blocks) && limbs <= JBIGI_MAX_TABLE_LIMBS &&
           jbigi_fb_table_limbs_fit(((size_t)modulus_bits + 63) / 64, (unsigned)rows, (unsigned)blocks, limbs);
}

/* The IllegalArgumentException of a buffer that is not in a live block of
 * the generation given. */
#define NOT_LIVE_TABLE                                                                                                 \
    "table is not in a live fixed-base table block of this generation from nativeAllocateTable (a stale or freed "   \
    "table, or never one)"

/* The table in buffer as limbs, held in its live block of that generation
 * (*block, to give back with jbigi_tm_release), or NULL with an exception
 * pending. */
static mp_limb_t *table_of(JNIEnv *env, jobject buffer, jlong generation, size_t *limbs, void **block)
{
    *block = NULL;
    if (buffer == NULL) {
        jbigi_throw(env, "java/lang/NullPointerException", "table is null");
        return NULL;
    }
    void *address = (*env)->GetDirectBufferAddress(env, buffer);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, buffer);
    if (address == NULL || capacity <= 0 || capacity % 8 != 0 || (uintptr_t)address % 8 != 0) {
        jbigi_throw(env, "java/lang/IllegalArgumentException",
                    "table must be a direct buffer of whole, aligned 64-bit limbs");
        return NULL;
    }
    *block = jbigi_tm_acquire(address, (size_t)capacity, (uint64_t)generation);
    if (*block == NULL) {
        jbigi_throw(env, "java/lang/IllegalArgumentException", NOT_LIVE_TABLE);
        return NULL;
    }
    *limbs = (size_t)capacity / 8;
    return address;
}

/* Bytes of the table for a modulus of modulusBits bits and comb shape rows x
 * blocks, or 0 if the shape is out of range or the table would be too large. */
JNIEXPORT jlong JNICALL
Java_net_i2p_util_FixedBase_nativeTableBytes(JNIEnv *env, jclass cls, jint modulusBits, jint rows, jint blocks)
{
    (void)env;
    (void)cls;
    return (jlong)(table_limbs_for(modulusBits, rows, blocks) * 8);
}

/* A new zeroed block for a table of tableBytes bytes, as a direct buffer of
 * JBIGI_TM_HEADER_BYTES + tableBytes bytes; the table is its slice from
 * JBIGI_TM_HEADER_BYTES on, and the block's generation is in its header
 * (word JBIGI_TM_GENERATION_WORD), for the caller to read once now and pass
 * to the other natives.  The caller frees it with nativeFreeTable. */
JNIEXPORT jobject JNICALL
Java_net_i2p_util_FixedBase_nativeAllocateTable(JNIEnv *env, jclass cls, jlong tableBytes)
{
    (void)cls;
    jobject buffer = NULL;
    void *block = NULL;
    uint64_t generation = 0;
    if (tableBytes < 8 || (unsigned long long)tableBytes > JBIGI_TM_MAX_TABLE_BYTES || tableBytes % 8 != 0) {
        jbigi_throw(env, "java/lang/IllegalArgumentException",
                    "fixed-base table size out of range: a multiple of 8 bytes, from 8 bytes to 128 MiB");
        goto done;
    }
    block = jbigi_tm_alloc((size_t)tableBytes, &generation);
    if (block == NULL) {
        jbigi_throw(env, "java/lang/OutOfMemoryError", "no memory for a fixed-base table");
        goto done;
    }
    buffer = (*env)->NewDirectByteBuffer(env, block, (jlong)JBIGI_TM_HEADER_BYTES + tableBytes);
    if (buffer != NULL)
        block = NULL; /* Java's now, until nativeFreeTable */
done:
    if (block != NULL)
        jbigi_tm_free(block, JBIGI_TM_HEADER_BYTES + (size_t)tableBytes, generation);
    return buffer;
}

/* Wipes and frees a block from nativeAllocateTable of that generation.
 * Nothing may use the buffer or its slices afterwards: FixedBase frees a
 * table only once no call holds it. */
JNIEXPORT void JNICALL
Java_net_i2p_util_FixedBase_nativeFreeTable(JNIEnv *env, jclass cls, jobject jblock, jlong generation)
{
    (void)cls;
    if (jblock == NULL) {
        jbigi_throw(env, "java/lang/NullPointerException", "table block is null");
        goto done;
    }
    void *address = (*env)->GetDirectBufferAddress(env, jblock);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, jblock);
    const int rc = address == NULL || capacity <= 0 ? JBIGI_TM_NOT_LIVE
                                                    : jbigi_tm_free(address, (size_t)capacity, (uint64_t)generation);
    if (rc == JBIGI_TM_IN_USE)
        jbigi_throw(env, "java/lang/IllegalStateException", "fixed-base table block in use by a call: not freed");
    else if (rc != JBIGI_TM_FREED)
        jbigi_throw(env, "java/lang/IllegalArgumentException",
                    "not a live fixed-base table block of this generation from nativeAllocateTable (a stale or freed "
                    "table, freed already, or never one)");
done:
    return;
}

struct build_call {
    mp_limb_t *table;
    size_t limbs;
    mpz_srcptr base, mod;
    unsigned rows, blocks;
    size_t max_exponent_bits;
};

static enum jbigi_status run_build(void *context)
{
    struct build_call *c = context;
    return jbigi_fb_build(c->table, c->limbs, c->base, c->mod, c->rows, c->blocks, c->max_exponent_bits);
}

/* Fills table with the comb of base mod modulus for exponents of up to
 * maxExponentBits bits. */
JNIEXPORT void JNICALL
Java_net_i2p_util_FixedBase_nativeBuildTable(JNIEnv *env, jclass cls, jobject jtable, jlong generation,
                                             jbyteArray jbase, jbyteArray jmod, jint rows, jint blocks,
                                             jint maxExponentBits)
{
    (void)cls;
    struct jbigi_operand base, mod;
    jbigi_operand_init(&base);
    jbigi_operand_init(&mod);
    size_t limbs;
    void *block;
    mp_limb_t *table = table_of(env, jtable, generation, &limbs, &block);
    if (table == NULL)
        goto done;
    if (!jbigi_read_operand(env, jbase, "base", &base) || !jbigi_read_operand(env, jmod, "modulus", &mod))
        goto done;
    if (mpz_cmp_ui(mod.value, 1) <= 0 || mpz_even_p(mod.value)) {
        jbigi_throw_status(env, JBIGI_MODULUS_TOO_SMALL);
        goto done;
    }
    if (maxExponentBits < 1 || (size_t)maxExponentBits > mpz_sizeinbase(mod.value, 2) ||
        !table_limbs_fit((jint)mpz_sizeinbase(mod.value, 2), rows, blocks, limbs)) {
        jbigi_throw(env, "java/lang/IllegalArgumentException",
                    "fixed-base table shape, reach or buffer size out of range");
        goto done;
    }
    struct build_call call = {table, limbs, base.value, mod.value, (unsigned)rows, (unsigned)blocks,
                              (size_t)maxExponentBits};
    enum jbigi_status status = jbigi_run_guarded(run_build, &call);
    if (status != JBIGI_OK)
        jbigi_throw_status(env, status);
done:
    if (block != NULL)
        jbigi_tm_release(block);
    jbigi_operand_release(&base);
    jbigi_operand_release(&mod);
}

struct powm_call {
    mpz_ptr r;
    const jbigi_fb_header *header;
    mpz_srcptr exp;
    int constant_time;
};

static enum jbigi_status run_powm(void *context)
{
    struct powm_call *c = context;
    return jbigi_fb_powm_read(c->r, c->header, c->exp, c->constant_time);
}

struct powm_ct_call {
    mp_limb_t *out;
    const jbigi_fb_header *header;
    const mp_limb_t *e;
    size_t e_limbs;
};

static enum jbigi_status run_powm_ct(void *context)
{
    struct powm_ct_call *c = context;
    return jbigi_fb_powm_ct_limbs(c->out, c->header, c->e, c->e_limbs);
}

/*
 * base^exponent mod modulus from a table filled by nativeBuildTable.  The
 * constant-time path reads the exponent at a public width: its own limb
 * count (bounded 0: the array's length, jbigi_exponent_own_limbs), or
 * ceil(bound_bits / 64) limbs for a bound the caller states (an exponent
 * of 2^bound_bits or more is an IllegalArgumentException); the comb's work
 * follows that width.  An exponent wider than the table's reach (or
 * negative) goes the general way, which refuses it.  The header is read
 * once, first; its reading gives the result's size and goes down to
 * fixedbase.c with the call.
 */
static jbyteArray table_power(JNIEnv *env, jobject jtable, jlong generation, jbyteArray jexp, int constant_time,
                              int bounded, jint bound_bits)
{
    jbyteArray result = NULL;
    struct jbigi_operand exp, out;
    jbigi_operand_init(&exp);
    jbigi_operand_init(&out);
    mpz_t r;
    mpz_init(r);

    size_t limbs;
    void *block;
    jbigi_fb_header header = {.modulus = NULL};
    const mp_limb_t *table = table_of(env, jtable, generation, &limbs, &block);
    if (table == NULL)
        goto done;
    const enum jbigi_status read_status = jbigi_fb_read(&header, table, limbs);
    if (read_status != JBIGI_OK) {
        jbigi_throw_status(env, read_status);
        goto done;
    }
    /* The exponent: null, empty or over the size limit, refused as every
     * native refuses them. */
    const jsize len = jexp == NULL ? 0 : (*env)->GetArrayLength(env, jexp);
    if (len == 0 || len > JBIGI_MAX_OPERAND_BYTES) {
        jbigi_read_operand(env, jexp, "exponent", &exp); /* throws its exception */
        goto done;
    }
    const size_t modulus_limbs = header.modulus_limbs, exponent_limbs = jbigi_fb_reach_limbs(&header);
    if (bounded && (bound_bits < 1 || (size_t)bound_bits > exponent_limbs * GMP_NUMB_BITS)) {
        jbigi_throw(env, "java/lang/IllegalArgumentException",
                    "exponentBits must be from 1 to the table's reach");
        goto done;
    }
    if (constant_time) {
        const size_t en = bounded ? ((size_t)bound_bits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS
                                  : jbigi_exponent_own_limbs(env, jexp, len);
        int read = JBIGI_FIXED_WIDER;
        if (en > 0 && en <= exponent_limbs)
            read = jbigi_read_exponent_fixed(env, jexp, len, en, &exp);
        if (read == JBIGI_FIXED_FAILED)
            goto done;
        if (bounded && (read == JBIGI_FIXED_WIDER || !jbigi_limbs_below_bits(exp.limbs, en, (size_t)bound_bits))) {
            jbigi_throw(env, "java/lang/IllegalArgumentException",
                        "exponent must be non-negative and below 2^exponentBits");
            goto done;
        }
        if (read == JBIGI_FIXED_READ) {
            /* Zero too: every digit multiplies by one, giving 1 (BigInteger's answer). */
            if (!jbigi_operand_space(env, modulus_limbs, &out))
                goto done;
            struct powm_ct_call call = {out.limbs, &header, exp.limbs, en};
            enum jbigi_status status = jbigi_run_guarded(run_powm_ct, &call);
            if (status != JBIGI_OK) {
                jbigi_throw_status(env, status);
                goto done;
            }
            result = jbigi_new_result_fixed(env, out.limbs, modulus_limbs);
            goto done;
        }
    }
    if (!jbigi_read_operand(env, jexp, "exponent", &exp))
        goto done;
    struct powm_call call = {r, &header, exp.value, constant_time};
    enum jbigi_status status = jbigi_run_guarded(run_powm, &call);
    if (status != JBIGI_OK) {
        jbigi_throw_status(env, status);
        goto done;
    }
    result = jbigi_new_result(env, r);
done:
    jbigi_fb_release(&header);
    if (block != NULL)
        jbigi_tm_release(block);
    jbigi_operand_release(&exp);
    jbigi_operand_release(&out);
    mpz_clear(r);
    return result;
}

JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_FixedBase_nativeModPow(JNIEnv *env, jclass cls, jobject jtable, jlong generation, jbyteArray jexp,
                                         jboolean constantTime)
{
    (void)cls;
    return table_power(env, jtable, generation, jexp, constantTime == JNI_TRUE, 0, 0);
}

JNIEXPORT jbyteArray JNICALL
Java_net_i2p_util_FixedBase_nativeModPowCTBound(JNIEnv *env, jclass cls, jobject jtable, jlong generation,
                                                jbyteArray jexp, jint exponentBits)
{
    (void)cls;
    return table_power(env, jtable, generation, jexp, 1, 1, exponentBits);
}
