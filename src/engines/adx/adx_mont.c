/*
 * adx_mont.c - the MULX/ADX engine's Montgomery layer, see adx.h: the
 * reduction, the products and the doubling (the contexts are adx_ctx.c's,
 * the four-limb kernels adx_mont4.c's).
 *
 * Invariants: N is a multiple of 4 and at least n; the modulus is odd and
 * zero-padded to N limbs, so m < R = 2^(64 N); every value handed in is
 * below m, so a product u = a b is below m R and its reduction
 * (u + q m) / R is below 2 m: one subtraction of m brings it into
 * [0, m).  The secret paths (ctx->secret) branch on no value: the loops
 * run over N, the carries stay in the flags, the last subtraction is kept
 * or dropped under a mask and the doubling is masked, so they are constant
 * time as long as the products are, which karatsuba.c's secret forms are.
 * The public paths (products of public values) may branch on a value: the
 * last subtraction and the doubling run only when needed.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "engines/adx/adx.h"
#include "engines/karatsuba.h"
#include "engines/gmp_limbs.h"
#include "support/opaque.h"
#include "cpu/cpu_facts.h"
#include "engines/engine.h"
#include "platform/asm.h"

#define ADX_CODE JBIGI_ADX_CODE

#if ADX_CODE
#include <emmintrin.h>

/*
 * rp[0..n) += up[0..n) * v; returns the limb that carries out.  n is a
 * positive multiple of 4.  Per limb: MULX gives hi:lo of up[i] v; ADCX adds
 * rp[i] into lo on the CF chain, ADOX adds the previous limb's hi on the OF
 * chain.  The two chains are independent, so the additions of neighbouring
 * limbs overlap.  The loop counter runs from -n up to 0 and is tested with
 * JRCXZ, which leaves both flags alone (DEC or CMP would clobber OF).
 */
static inline mp_limb_t addmul_row(mp_limb_t *rp, const mp_limb_t *up, mp_size_t n, mp_limb_t v)
{
    mp_limb_t lo, hi, carry, t0, t1;
    int64_t i = -(int64_t)n; /* a 64-bit index register, whatever long is */
    rp += n;
    up += n;
    __asm__ volatile("xor %k[c], %k[c]\n\t" /* carry = 0; CF = OF = 0 */
                     "1:\n\t"
                     "mulx (%[up],%[i],8), %[lo], %[hi]\n\t"
                     "mov (%[rp],%[i],8), %[t0]\n\t"
                     "mov 8(%[rp],%[i],8), %[t1]\n\t"
                     "adcx %[lo], %[t0]\n\t"
                     "adox %[c], %[t0]\n\t"
                     "mov %[t0], (%[rp],%[i],8)\n\t"
                     "mulx 8(%[up],%[i],8), %[lo], %[c]\n\t"
                     "mov 16(%[rp],%[i],8), %[t0]\n\t"
                     "adcx %[lo], %[t1]\n\t"
                     "adox %[hi], %[t1]\n\t"
                     "mov %[t1], 8(%[rp],%[i],8)\n\t"
                     "mulx 16(%[up],%[i],8), %[lo], %[hi]\n\t"
                     "mov 24(%[rp],%[i],8), %[t1]\n\t"
                     "adcx %[lo], %[t0]\n\t"
                     "adox %[c], %[t0]\n\t"
                     "mov %[t0], 16(%[rp],%[i],8)\n\t"
                     "mulx 24(%[up],%[i],8), %[lo], %[c]\n\t"
                     "adcx %[lo], %[t1]\n\t"
                     "adox %[hi], %[t1]\n\t"
                     "mov %[t1], 24(%[rp],%[i],8)\n\t"
                     "lea 4(%[i]), %[i]\n\t"
                     "jrcxz 2f\n\t"
                     "jmp 1b\n"
                     "2:\n\t"
                     "mov $0, %k[hi]\n\t" /* MOV keeps the flags */
                     "adcx %[hi], %[c]\n\t"
                     "adox %[hi], %[c]\n\t"
                     : [c] "=&r"(carry), [lo] "=&r"(lo), [hi] "=&r"(hi), [t0] "=&r"(t0), [t1] "=&r"(t1), [i] "+c"(i)
                     : [up] "r"(up), [rp] "r"(rp), "d"(v)
                     : "cc", "memory");
    return carry;
}

/*
 * The reduction of eight rows at once, for N a multiple of 8:
 *
 *     mp_limb_t jbigi_adx_redc8(mp_limb_t *t, const mp_limb_t *m,
 *                               mp_size_t chunks, mp_limb_t k0, mp_limb_t k1)
 *
 * with t = u + i (rows i .. i+7 of the reduction), chunks = N / 8.  It
 * adds q_k m 2^(64 k) to t for k = 0 .. 7, each q_k chosen to clear t[k]
 * (q_k = t[k] k0 once the rows before it are in), and returns the limb that
 * carries into t[N + 8], which it does not touch; t[0 .. 7] are left as
 * they were (the caller no longer reads them).
 *
 * The eight limbs being summed stay in registers (a window that moves up
 * one limb per row): the products of q_k with eight limbs of m go in with
 * MULX, their low halves on the CF chain (ADCX) and their high halves on
 * the OF chain (ADOX), so each limb of t is loaded and stored once per
 * eight rows instead of once per row.  The first eight limbs of m make
 * the q's (phase 1), two at a time from the window's two lowest limbs and
 * k1:k0 = -m^-1 mod 2^128, so a pair waits only for the pair before it;
 * each further chunk of eight
 * limbs of m takes the eight q's from the stack (phase 2).  The window's
 * new top limb starts at zero and gets only a high half and the two
 * carries, so it cannot overflow; the original t above the first chunk is
 * added a chunk at a time, its carry kept in r15 for the next chunk.
 *
 * Registers: the window rbx rbp r8 .. r13 (rotating), rdx the q of the row,
 * rax and r14 a product's halves, rsi m, rdi t, rcx the chunks left, r15 the
 * carry of the additions of t (in phase 1 the pair's second q); q_0 .. q_7,
 * k0 and k1 on the stack.
 */
__asm__(
    JBIGI_ASM_TEXT_BEGIN
    ".p2align 5\n"
    JBIGI_ASM_FUNCTION(jbigi_adx_redc8)
    /* One product row: q (in rdx) times m[0..7] into the window r0..r7,
     * r0 the lowest; OUT stores r0 once final (phase 2) and zeroes it, as
     * the window's new top. */
    ".macro JBIGI_ADX_ROW r0, r1, r2, r3, r4, r5, r6, r7, out\n"
    "  xor %eax, %eax\n"
    "  mulx (%rsi), %rax, %r14\n"
    "  adcx %rax, \\r0\n"
    "  adox %r14, \\r1\n"
    "  .ifnb \\out\n"
    "  mov \\r0, \\out\n"
    "  mov $0, \\r0\n"
    "  .endif\n"
    "  mulx 8(%rsi), %rax, %r14\n"
    "  adcx %rax, \\r1\n"
    "  adox %r14, \\r2\n"
    "  mulx 16(%rsi), %rax, %r14\n"
    "  adcx %rax, \\r2\n"
    "  adox %r14, \\r3\n"
    "  mulx 24(%rsi), %rax, %r14\n"
    "  adcx %rax, \\r3\n"
    "  adox %r14, \\r4\n"
    "  mulx 32(%rsi), %rax, %r14\n"
    "  adcx %rax, \\r4\n"
    "  adox %r14, \\r5\n"
    "  mulx 40(%rsi), %rax, %r14\n"
    "  adcx %rax, \\r5\n"
    "  adox %r14, \\r6\n"
    "  mulx 48(%rsi), %rax, %r14\n"
    "  adcx %rax, \\r6\n"
    "  adox %r14, \\r7\n"
    "  mulx 56(%rsi), %rax, %r14\n"
    "  adcx %rax, \\r7\n"
    "  adox %r14, \\r0\n"
    "  mov $0, %eax\n"
    "  adcx %rax, \\r0\n"
    ".endm\n"
    /* Phase 1, rows k and k + 1: q_k and q_k+1 from the window's two lowest
     * limbs at once, (q_k+1:q_k) = (r1:r0) (k1:k0) mod 2^128, so that the
     * second q does not wait for the first row: q_k = lo(r0 k0), q_k+1 =
     * hi(r0 k0) + r0 k1 + r1 k0. */
    ".macro JBIGI_ADX_Q2 k, r0, r1, r2, r3, r4, r5, r6, r7\n"
    "  mov \\r0, %rdx\n"
    "  mulx 64(%rsp), %rax, %r14\n"
    "  mov \\r0, %r15\n"
    "  imul 72(%rsp), %r15\n"
    "  add %r15, %r14\n"
    "  mov \\r1, %r15\n"
    "  imul 64(%rsp), %r15\n"
    "  add %r14, %r15\n"
    "  mov %rax, 8*\\k(%rsp)\n"
    "  mov %r15, 8*\\k+8(%rsp)\n"
    "  mov %rax, %rdx\n"
    "  JBIGI_ADX_ROW \\r0, \\r1, \\r2, \\r3, \\r4, \\r5, \\r6, \\r7\n"
    "  mov %r15, %rdx\n"
    "  JBIGI_ADX_ROW \\r1, \\r2, \\r3, \\r4, \\r5, \\r6, \\r7, \\r0\n"
    ".endm\n"
    /* Phase 2, row k: q_k from the stack, the lowest limb stored. */
    ".macro JBIGI_ADX_R k, r0, r1, r2, r3, r4, r5, r6, r7\n"
    "  mov 8*\\k(%rsp), %rdx\n"
    "  JBIGI_ADX_ROW \\r0, \\r1, \\r2, \\r3, \\r4, \\r5, \\r6, \\r7, 8*\\k(%rdi)\n"
    ".endm\n"
    /* The window += t[0..7] of this chunk, plus the carry in r15. */
    ".macro JBIGI_ADX_ADD_T\n"
    "  neg %r15\n"
    "  adc (%rdi), %rbx\n"
    "  adc 8(%rdi), %rbp\n"
    "  adc 16(%rdi), %r8\n"
    "  adc 24(%rdi), %r9\n"
    "  adc 32(%rdi), %r10\n"
    "  adc 40(%rdi), %r11\n"
    "  adc 48(%rdi), %r12\n"
    "  adc 56(%rdi), %r13\n"
    "  sbb %r15, %r15\n"
    "  neg %r15\n"
    ".endm\n"
    /* The frame: six saved registers, then q_0 .. q_7, k0 and k1 (its unwind
     * data through platform/asm.h, so that debuggers, profilers and crash
     * reports unwind through the function). */
    JBIGI_ASM_PROC(jbigi_adx_redc8)
    JBIGI_ASM_PUSH(rbx, 16)
    JBIGI_ASM_PUSH(rbp, 24)
    JBIGI_ASM_PUSH(r12, 32)
    JBIGI_ASM_PUSH(r13, 40)
    JBIGI_ASM_PUSH(r14, 48)
    JBIGI_ASM_PUSH(r15, 56)
    JBIGI_ASM_ALLOC(80, 136)
    JBIGI_ASM_END_PROLOGUE
    "  mov %rcx, 64(%rsp)\n"
    "  mov %r8, 72(%rsp)\n"
    "  mov %rdx, %rcx\n"
    "  mov (%rdi), %rbx\n"
    "  mov 8(%rdi), %rbp\n"
    "  mov 16(%rdi), %r8\n"
    "  mov 24(%rdi), %r9\n"
    "  mov 32(%rdi), %r10\n"
    "  mov 40(%rdi), %r11\n"
    "  mov 48(%rdi), %r12\n"
    "  mov 56(%rdi), %r13\n"
    "  JBIGI_ADX_Q2 0, %rbx, %rbp, %r8, %r9, %r10, %r11, %r12, %r13\n"
    "  JBIGI_ADX_Q2 2, %r8, %r9, %r10, %r11, %r12, %r13, %rbx, %rbp\n"
    "  JBIGI_ADX_Q2 4, %r10, %r11, %r12, %r13, %rbx, %rbp, %r8, %r9\n"
    "  JBIGI_ADX_Q2 6, %r12, %r13, %rbx, %rbp, %r8, %r9, %r10, %r11\n"
    "  xor %r15d, %r15d\n"
    "  dec %rcx\n"
    "  jz 2f\n"
    "1:\n"
    "  add $64, %rsi\n"
    "  add $64, %rdi\n"
    "  JBIGI_ADX_ADD_T\n"
    "  JBIGI_ADX_R 0, %rbx, %rbp, %r8, %r9, %r10, %r11, %r12, %r13\n"
    "  JBIGI_ADX_R 1, %rbp, %r8, %r9, %r10, %r11, %r12, %r13, %rbx\n"
    "  JBIGI_ADX_R 2, %r8, %r9, %r10, %r11, %r12, %r13, %rbx, %rbp\n"
    "  JBIGI_ADX_R 3, %r9, %r10, %r11, %r12, %r13, %rbx, %rbp, %r8\n"
    "  JBIGI_ADX_R 4, %r10, %r11, %r12, %r13, %rbx, %rbp, %r8, %r9\n"
    "  JBIGI_ADX_R 5, %r11, %r12, %r13, %rbx, %rbp, %r8, %r9, %r10\n"
    "  JBIGI_ADX_R 6, %r12, %r13, %rbx, %rbp, %r8, %r9, %r10, %r11\n"
    "  JBIGI_ADX_R 7, %r13, %rbx, %rbp, %r8, %r9, %r10, %r11, %r12\n"
    "  dec %rcx\n"
    "  jnz 1b\n"
    "2:\n"
    "  add $64, %rdi\n"
    "  JBIGI_ADX_ADD_T\n"
    "  mov %rbx, (%rdi)\n"
    "  mov %rbp, 8(%rdi)\n"
    "  mov %r8, 16(%rdi)\n"
    "  mov %r9, 24(%rdi)\n"
    "  mov %r10, 32(%rdi)\n"
    "  mov %r11, 40(%rdi)\n"
    "  mov %r12, 48(%rdi)\n"
    "  mov %r13, 56(%rdi)\n"
    "  mov %r15, %rax\n"
    JBIGI_ASM_FREE(80, 56)
    JBIGI_ASM_POP(r15, 48)
    JBIGI_ASM_POP(r14, 40)
    JBIGI_ASM_POP(r13, 32)
    JBIGI_ASM_POP(r12, 24)
    JBIGI_ASM_POP(rbp, 16)
    JBIGI_ASM_POP(rbx, 8)
    "  ret\n"
    JBIGI_ASM_ENDPROC
    JBIGI_ASM_FUNCTION_END(jbigi_adx_redc8)
    ".purgem JBIGI_ADX_ROW\n"
    ".purgem JBIGI_ADX_Q2\n"
    ".purgem JBIGI_ADX_R\n"
    ".purgem JBIGI_ADX_ADD_T\n"
    JBIGI_ASM_TEXT_END);

mp_limb_t jbigi_adx_redc8(mp_limb_t *t, const mp_limb_t *m, mp_size_t chunks, mp_limb_t k0, mp_limb_t k1)
    JBIGI_ASM_CALL;

/*
 * r = hi + sum of carries[k] 2^(64 8 k) over k < N / 8 (carries[0] is 0:
 * the carry out of jbigi_adx_redc8's rows i .. i+7 belongs at limb i + 8);
 * returns the carry out of limb N - 1.  One pass, eight limbs a step, the
 * carry in CF throughout (LEA and JRCXZ leave the flags alone).  It
 * replaces an mpn_zero and an mpn_add_n over a mostly zero array; GCC's
 * code for _addcarry_u64 in a loop moves the carry through a general
 * register at every limb.  Which limbs take a carry depends on N alone.
 * doc/measurements.md: "The MULX/ADX reduction's carries in one pass (2026-12-06)"
 */
static mp_limb_t add_redc8_carries(mp_limb_t *r, const mp_limb_t *hi, const mp_limb_t *carries, mp_size_t N)
{
    mp_limb_t t, carry;
    mp_size_t i = -(N / 8);
    __asm__ volatile("clc\n"
                     "1:\n\t"
                     "mov (%[hi]), %[t]\n\t"
                     "adc (%[c]), %[t]\n\t"
                     "mov %[t], (%[r])\n\t"
                     "mov 8(%[hi]), %[t]\n\t"
                     "adc $0, %[t]\n\t"
                     "mov %[t], 8(%[r])\n\t"
                     "mov 16(%[hi]), %[t]\n\t"
                     "adc $0, %[t]\n\t"
                     "mov %[t], 16(%[r])\n\t"
                     "mov 24(%[hi]), %[t]\n\t"
                     "adc $0, %[t]\n\t"
                     "mov %[t], 24(%[r])\n\t"
                     "mov 32(%[hi]), %[t]\n\t"
                     "adc $0, %[t]\n\t"
                     "mov %[t], 32(%[r])\n\t"
                     "mov 40(%[hi]), %[t]\n\t"
                     "adc $0, %[t]\n\t"
                     "mov %[t], 40(%[r])\n\t"
                     "mov 48(%[hi]), %[t]\n\t"
                     "adc $0, %[t]\n\t"
                     "mov %[t], 48(%[r])\n\t"
                     "mov 56(%[hi]), %[t]\n\t"
                     "adc $0, %[t]\n\t"
                     "mov %[t], 56(%[r])\n\t"
                     "lea 64(%[hi]), %[hi]\n\t"
                     "lea 64(%[r]), %[r]\n\t"
                     "lea 8(%[c]), %[c]\n\t"
                     "lea 1(%[i]), %[i]\n\t"
                     "jrcxz 2f\n\t"
                     "jmp 1b\n"
                     "2:\n\t"
                     "mov $0, %k[t]\n\t" /* MOV keeps the flags */
                     "adc $0, %k[t]\n\t"
                     : [t] "=&r"(t), [hi] "+r"(hi), [r] "+r"(r), [c] "+r"(carries), [i] "+c"(i)
                     :
                     : "cc", "memory");
    carry = t;
    return carry;
}

/* r = x - m when keep is all ones, x when it is zero, d holding x - m:
 * two limbs at a time in SSE2 registers (x86-64's baseline; N is a
 * multiple of 4), which took three quarters of the time of a loop over
 * single limbs. */
static void keep_masked(mp_limb_t *r, const mp_limb_t *d, mp_limb_t keep, mp_size_t N)
{
    const __m128i keep_difference = _mm_set1_epi64x((long long)keep);
    for (mp_size_t i = 0; i < N; i += 2) {
        const __m128i difference = _mm_loadu_si128((const void *)(d + i));
        const __m128i sum = _mm_loadu_si128((const void *)(r + i));
        _mm_storeu_si128((void *)(r + i), _mm_or_si128(_mm_and_si128(keep_difference, difference),
                                                        _mm_andnot_si128(keep_difference, sum)));
    }
}

void jbigi_adx_redc(const jbigi_adx_ctx *ctx, mp_limb_t *r, mp_limb_t *u)
{
    const mp_size_t N = ctx->N;
    const mp_limb_t *m = ctx->m;
    mp_limb_t high;
    if (N % 8 == 0) {
        /* Eight rows a call (jbigi_adx_redc8).  The carry out of rows i ..
         * i+7 belongs at u[N + i + 8]: kept in carries[i / 8 + 1] and added in
         * the one pass over the high half, the last one straight into
         * high. */
        mp_limb_t *carries = ctx->work + 2 * N, last = 0;
        carries[0] = 0;
        for (mp_size_t i = 0; i < N; i += 8) {
            const mp_limb_t carry = jbigi_adx_redc8(u + i, m, N / 8, ctx->k0, ctx->k1);
            if (i + 8 < N)
                carries[i / 8 + 1] = carry;
            else
                last = carry;
        }
        high = add_redc8_carries(r, u + N, carries, N) + last;
    } else {
        /* Row i clears u[i]; the row's carry is parked there (GMP's redc_1
         * does the same) and all of them are added in one pass at the end. */
        for (mp_size_t i = 0; i < N; i++)
            u[i] = addmul_row(u + i, m, N, u[i] * ctx->k0);
        high = mpn_add_n(r, u + N, u, N);
    }
    /* r + high R < 2 m: subtract m when that is still >= m.  Public values
     * may branch on it: the comparison mostly decides at the top limb, and
     * the subtraction runs about once in a few products. */
    if (!ctx->secret) {
        if (high != 0 || mpn_cmp(r, m, N) >= 0)
            mpn_sub_n(r, r, m, N);
        return;
    }
    /* Secret values: compute r - m always and keep it under a mask when
     * high is set or the subtraction does not borrow. */
    mp_limb_t *d = u; /* u's low half is free now */
    const mp_limb_t borrow = mpn_sub_n(d, r, m, N);
    mp_limb_t keep = 0 - ((high | (borrow ^ 1)) & 1);
    JBIGI_OPAQUE(keep);
    keep_masked(r, d, keep, N);
}

/* The products go to the context's work area (ctx_clear wipes it): 2 N
 * limbs of product, N for the reduction's carries, then the secret
 * products' Karatsuba scratch. */
void jbigi_adx_mul(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    const mp_size_t N = ctx->N;
    if (N == 4) {
        jbigi_adx_mul4(r, a, b, ctx->mk4);
        return;
    }
    mp_limb_t *u = ctx->work;
    if (ctx->secret)
        jbigi_karatsuba_mul(u, a, b, N, 1, ctx->work + 3 * N);
    else
        mpn_mul_n(u, a, b, N);
    jbigi_adx_redc(ctx, r, u);
}

void jbigi_adx_sqr(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    const mp_size_t N = ctx->N;
    if (N == 4) {
        jbigi_adx_sqr4(r, a, ctx->mk4);
        return;
    }
    mp_limb_t *u = ctx->work;
    if (ctx->secret)
        jbigi_karatsuba_sqr(u, a, N, 1, ctx->work + 3 * N);
    else
        mpn_sqr(u, a, N);
    jbigi_adx_redc(ctx, r, u);
}

/* The doubling on N limbs, in the work area (gmp_limbs.h). */
void jbigi_adx_double_if(const jbigi_adx_ctx *ctx, mp_limb_t *a, mp_limb_t bit)
{
    jbigi_mont_double_if(a, bit, ctx->m, ctx->N, ctx->secret, ctx->work);
}

#else /* not x86-64: the engine is never available, these are never reached */

void jbigi_adx_redc(const jbigi_adx_ctx *ctx, mp_limb_t *r, mp_limb_t *u)
{
    (void)ctx, (void)r, (void)u;
    abort();
}

void jbigi_adx_mul(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    (void)ctx, (void)r, (void)a, (void)b;
    abort();
}

void jbigi_adx_sqr(const jbigi_adx_ctx *ctx, mp_limb_t *r, const mp_limb_t *a)
{
    (void)ctx, (void)r, (void)a;
    abort();
}

void jbigi_adx_double_if(const jbigi_adx_ctx *ctx, mp_limb_t *a, mp_limb_t bit)
{
    (void)ctx, (void)a, (void)bit;
    abort();
}

#endif

/* The CPU facts only (cpu_facts.h): whether JBIGI_ENGINE or a force lets
 * the engine run is the registry's to decide (engine.h, "Which engine
 * runs"). */
int jbigi_adx_cpu(void)
{
    return ADX_CODE && jbigi_cpu_has_all(JBIGI_CPU_BMI2 | JBIGI_CPU_ADX);
}

/* The self-test's outcome (adx_selftest.c), shared by every thread: run
 * once, by the first caller (jbigi_selftest_once), and a failure stands for
 * the life of the process. */
static atomic_int selftest = JBIGI_SELFTEST_UNKNOWN;

int jbigi_adx_selftest_result(void)
{
    if (!jbigi_adx_cpu())
        return JBIGI_SELFTEST_NOT_RUN;
    return jbigi_selftest_once(&selftest, jbigi_adx_selftest, "JBIGI_ADX_SELFTEST_FAULT");
}

int jbigi_adx_available(void)
{
    return jbigi_adx_cpu() && jbigi_adx_selftest_result() == JBIGI_SELFTEST_PASSED;
}
