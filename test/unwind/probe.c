/*
 * probe.c - calls the MULX/ADX engine's hand-written assembly
 * (jbigi_adx_mul4 and jbigi_adx_sqr4 through a four-limb context,
 * jbigi_adx_sqr4_times and jbigi_adx_sqr4_times_mul on its mk4,
 * jbigi_adx_redc8 through an eight-limb one) from main, for
 * test/unwind/check-cfi.sh to stop inside each under gdb and unwind.
 * Exits 2 when the CPU cannot run the engine.
 */
#include <stdio.h>

#include "engines/adx/adx.h"

int main(void)
{
    if (!jbigi_adx_cpu()) {
        printf("no BMI2 and ADX\n");
        return 2;
    }
    mp_limb_t m[8], a[8] = {3}, r[8];
    for (int i = 0; i < 8; i++)
        m[i] = ~(mp_limb_t)0 - 2 * (mp_limb_t)i;
    for (mp_size_t n = 4; n <= 8; n += 4) {
        jbigi_adx_ctx ctx;
        if (jbigi_adx_ctx_init(&ctx, m, n, 0) != 0)
            return 1;
        jbigi_adx_to_mont(&ctx, r, a);
        jbigi_adx_mul(&ctx, r, r, r);
        jbigi_adx_sqr(&ctx, r, r);
        if (n == 4) {
            jbigi_adx_sqr4_times(r, r, ctx.mk4, 3);
            jbigi_adx_sqr4_times_mul(r, r, ctx.mk4, 2, a);
        }
        jbigi_adx_ctx_clear(&ctx);
    }
    printf("done %lu\n", (unsigned long)r[0]);
    return 0;
}
