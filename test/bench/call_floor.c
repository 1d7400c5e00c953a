/*
 * call_floor.c - what is under the section small's exponent-3 row
 * (BenchSmall.java, through BenchCallFloor.java): a call made the way I2P
 * makes it, whose native does nothing but JNI's own work, and one that adds
 * only b^3 mod m by GMP's mpn functions.  No argument checks, no engine
 * choice, no Montgomery form, no wiping: a floor for the library's call,
 * which must do all of those, not a rival to it.
 *
 * Built by run-bench.sh into build/bench/libjbigibenchfloor.so, against the
 * GMP the library was built with.  A measurement only: it takes shortcuts
 * the library must not (non-negative operands of at most eight limbs, the
 * exponent 3 alone) and answers anything else with null, which the bench's
 * check of every result then reports.
 */
#include <jni.h>
#include <gmp.h>
#include <string.h>

enum { MAX_LIMBS = 8, MAX_BYTES = MAX_LIMBS * 8 + 1 };

/* The array's bytes into buf; its length, or -1 when it is null or longer
 * than MAX_BYTES. */
static jsize read_array(JNIEnv *env, jbyteArray array, jbyte *buf)
{
    if (array == NULL)
        return -1;
    const jsize len = (*env)->GetArrayLength(env, array);
    if (len > MAX_BYTES)
        return -1;
    (*env)->GetByteArrayRegion(env, array, 0, len, buf);
    return len;
}

/* The three operands' bytes into buf[0 .. 2] and their lengths into len,
 * as every native taking I2P's three arrays reads them; 0 when one is
 * longer than MAX_BYTES. */
static int read_operands(JNIEnv *env, jbyteArray a, jbyteArray b, jbyteArray c, jbyte buf[3][MAX_BYTES], jsize len[3])
{
    len[0] = read_array(env, a, buf[0]);
    len[1] = read_array(env, b, buf[1]);
    len[2] = read_array(env, c, buf[2]);
    return len[0] >= 0 && len[1] >= 0 && len[2] >= 0;
}

/* A new Java array holding len bytes (NULL with an exception pending when
 * the JVM has no memory for it). */
static jbyteArray new_array(JNIEnv *env, const jbyte *bytes, jsize len)
{
    jbyteArray result = (*env)->NewByteArray(env, len);
    if (result != NULL)
        (*env)->SetByteArrayRegion(env, result, 0, len, bytes);
    return result;
}

/* Whether the len bytes at bytes hold a non-negative number of at most
 * MAX_LIMBS limbs (a sign byte of zero above them allowed). */
static int fits(const jbyte *bytes, jsize len)
{
    return len >= 1 && bytes[0] >= 0 && (len <= MAX_LIMBS * 8 || bytes[0] == 0);
}

/* Big-endian bytes of a non-negative number to limbs, zero above; the
 * limbs used, without zero limbs on top.  The sign byte, when there is one,
 * is zero and adds nothing. */
static mp_size_t to_limbs(mp_limb_t *limbs, const jbyte *bytes, jsize len)
{
    memset(limbs, 0, MAX_LIMBS * sizeof(mp_limb_t));
    for (jsize i = 0; i < len && i < MAX_LIMBS * 8; i++)
        limbs[i / 8] |= (mp_limb_t)(unsigned char)bytes[len - 1 - i] << (8 * (i % 8));
    mp_size_t n = MAX_LIMBS;
    while (n > 0 && limbs[n - 1] == 0)
        n--;
    return n;
}

/* A Java array of the n limbs as toByteArray() writes a non-negative
 * number: big-endian, as short as the sign bit allows. */
static jbyteArray to_array(JNIEnv *env, const mp_limb_t *limbs, mp_size_t n)
{
    jbyte out[MAX_BYTES] = {0};
    const jsize full = (jsize)n * 8 + 1;
    for (jsize i = 0; i < full - 1; i++)
        out[full - 1 - i] = (jbyte)(limbs[i / 8] >> (8 * (i % 8)));
    jsize start = 0;
    while (start < full - 1 && out[start] == 0 && out[start + 1] >= 0)
        start++;
    return new_array(env, out + start, full - start);
}

/* JNI alone: the three arrays read, a copy of the first made.  The bench
 * passes the expected result first, so that the copy can be checked. */
JNIEXPORT jbyteArray JNICALL Java_net_i2p_util_BenchCallFloor_arraysOnly(JNIEnv *env, jclass cls, jbyteArray first,
                                                                         jbyteArray second, jbyteArray third)
{
    (void)cls;
    jbyte buf[3][MAX_BYTES];
    jsize len[3];
    if (!read_operands(env, first, second, third, buf, len))
        return NULL;
    return new_array(env, buf[0], len[0]);
}

/* b^3 mod m: b^2, b^3 (three times b's limbs), one division by m. */
JNIEXPORT jbyteArray JNICALL Java_net_i2p_util_BenchCallFloor_cube(JNIEnv *env, jclass cls, jbyteArray base,
                                                                   jbyteArray exponent, jbyteArray modulus)
{
    (void)cls;
    jbyte buf[3][MAX_BYTES];
    jsize len[3];
    if (!read_operands(env, base, exponent, modulus, buf, len) || !fits(buf[0], len[0]) || !fits(buf[2], len[2])
        || len[1] != 1 || buf[1][0] != 3)
        return NULL;
    mp_limb_t b[MAX_LIMBS], m[MAX_LIMBS], square[2 * MAX_LIMBS], cube[3 * MAX_LIMBS];
    mp_limb_t quotient[3 * MAX_LIMBS], rem[MAX_LIMBS] = {0};
    const mp_size_t bn = to_limbs(b, buf[0], len[0]), mn = to_limbs(m, buf[2], len[2]);
    if (mn == 0)
        return NULL;
    if (bn == 0)
        return to_array(env, rem, 1);
    mpn_sqr(square, b, bn);
    mpn_mul(cube, square, 2 * bn, b, bn);
    mp_size_t cn = 3 * bn;
    while (cn > 0 && cube[cn - 1] == 0)
        cn--;
    if (cn < mn)
        memcpy(rem, cube, (size_t)cn * sizeof(mp_limb_t));
    else
        mpn_tdiv_qr(quotient, rem, 0, cube, cn, m, mn);
    return to_array(env, rem, mn);
}
