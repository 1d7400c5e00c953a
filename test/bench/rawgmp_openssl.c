/*
 * rawgmp_openssl.c - see rawgmp_openssl.h.  Numbers cross between GMP and
 * OpenSSL as little-endian bytes (GMP's limbs exported, OpenSSL's
 * BN_lebin2bn), which costs next to nothing beside an exponentiation.
 */
#include "rawgmp_openssl.h"

#if defined(JBIGI_BENCH_OPENSSL)
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <stdlib.h>

const char *bench_openssl_version(void)
{
    return OpenSSL_version(OPENSSL_VERSION);
}

/* x (reused) = z, z >= 0. */
static BIGNUM *to_bn(BIGNUM *x, const mpz_t z, unsigned char *bytes)
{
    size_t count = 0;
    mpz_export(bytes, &count, -1, 1, 0, 0, z);
    return BN_lebin2bn(bytes, (int)count, x);
}

/* OpenSSL's numbers, made once and reused by every call. */
static BN_CTX *ctx;
static BIGNUM *bb, *be, *bm, *br;

static int ready(void)
{
    if (ctx == NULL) {
        ctx = BN_CTX_new();
        bb = BN_new();
        be = BN_new();
        bm = BN_new();
        br = BN_new();
    }
    return ctx != NULL && bb != NULL && be != NULL && bm != NULL && br != NULL;
}

/* r = br, which has at most size bytes. */
static int from_bn(mpz_t r, unsigned char *bytes, size_t size)
{
    int count = BN_bn2lebinpad(br, bytes, (int)size);
    if (count < 0)
        return 0;
    mpz_import(r, (size_t)count, -1, 1, 0, 0, bytes);
    return 1;
}

int bench_openssl_powm(mpz_t r, const mpz_t b, const mpz_t e, const mpz_t m, int consttime)
{
    if (!ready())
        return -1;
    size_t most = mpz_sizeinbase(b, 256);
    if (mpz_sizeinbase(e, 256) > most)
        most = mpz_sizeinbase(e, 256);
    if (mpz_sizeinbase(m, 256) > most)
        most = mpz_sizeinbase(m, 256);
    unsigned char *bytes = malloc(most + 8);
    if (bytes == NULL)
        return -1;
    int ok = to_bn(bb, b, bytes) && to_bn(be, e, bytes) && to_bn(bm, m, bytes);
    if (ok)
        ok = consttime ? BN_mod_exp_mont_consttime(br, bb, be, bm, ctx, NULL)
                       : BN_mod_exp_mont(br, bb, be, bm, ctx, NULL);
    if (ok)
        ok = from_bn(r, bytes, most);
    free(bytes);
    return ok ? 0 : -1;
}

int bench_openssl_invert(mpz_t r, const mpz_t a, const mpz_t m)
{
    if (!ready())
        return -1;
    size_t most = mpz_sizeinbase(m, 256);
    if (mpz_sizeinbase(a, 256) > most)
        most = mpz_sizeinbase(a, 256);
    unsigned char *bytes = malloc(most + 8);
    if (bytes == NULL)
        return -1;
    int ok = to_bn(bb, a, bytes) && to_bn(bm, m, bytes);
    if (ok)
        ok = BN_mod_inverse(br, bb, bm, ctx) != NULL;
    if (ok)
        ok = from_bn(r, bytes, most);
    free(bytes);
    return ok ? 0 : -1;
}
#else
const char *bench_openssl_version(void)
{
    return NULL;
}

int bench_openssl_powm(mpz_t r, const mpz_t b, const mpz_t e, const mpz_t m, int consttime)
{
    (void)r, (void)b, (void)e, (void)m, (void)consttime;
    return -1;
}

int bench_openssl_invert(mpz_t r, const mpz_t a, const mpz_t m)
{
    (void)r, (void)a, (void)m;
    return -1;
}
#endif
