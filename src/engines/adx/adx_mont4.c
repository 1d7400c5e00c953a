/*
 * adx_mont4.c - the MULX/ADX engine's four-limb kernels (N = 4: moduli of
 * up to 256 bits), see adx.h.
 *
 * r = a b / 2^256 mod m and r = a a / 2^256 mod m, for a, b in [0, m); r
 * in [0, m) and may alias a or b.  All in registers, no call into GMP, no
 * branch and no address that depends on a value: constant time.
 *
 * The product T (eight limbs) is made first, then reduced two limbs at a
 * time: the two q's that clear t1:t0 are (t1:t0) K mod 2^128, with K =
 * -m^-1 mod 2^128, so q0 = t0 k0 and q1 = hi(t0 k0) + t0 k1 + t1 k0 come
 * from products that do not wait on one another.  A reduction a limb at a
 * time makes each q from the row before it (the row's first limbs, then
 * t k0), and that chain was most of a squaring's time.
 * doc/measurements.md: "The MULX/ADX four-limb kernels' reduction by pairs (2026-12-02)"
 * Each row adds q m with MULX, the low halves on the CF chain (ADCX), the
 * high halves on the OF chain (ADOX), and parks its carry in the limb it
 * cleared; the parked carries are added last.  The result is below 2 m;
 * m is subtracted and the difference kept unless that borrowed, by
 * carry-flag moves.
 *
 * The context (mk, jbigi_adx_ctx's mk4): m at limbs 0 .. 3, then k0 and
 * k1.
 *
 * Registers: rdi r, rsi a, r8 mk (r9 b for the product); T in r10 .. r15,
 * rbx, rbp (t0 .. t7); rax and rcx a product's halves; rdx MULX's factor; a
 * zero limb at 0(rsp) for ADCX and ADOX.
 */
#include "engines/adx/adx.h"
#include "platform/asm.h"

#include <stdlib.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && GMP_LIMB_BITS == 64 && GMP_NAIL_BITS == 0

__asm__(
    JBIGI_ASM_TEXT_BEGIN
    /* The frame: six saved registers and a zero limb, with its unwind data
     * (platform/asm.h), so that debuggers, profilers and crash reports
     * unwind through these functions. */
    ".macro JBIGI_ADX4_ENTER slots=1\n"
    JBIGI_ASM_PUSH(rbx, 16)
    JBIGI_ASM_PUSH(rbp, 24)
    JBIGI_ASM_PUSH(r12, 32)
    JBIGI_ASM_PUSH(r13, 40)
    JBIGI_ASM_PUSH(r14, 48)
    JBIGI_ASM_PUSH(r15, 56)
    JBIGI_ASM_PUSH_ZERO(64)
    "  .if \\slots >= 2\n"
    JBIGI_ASM_PUSH_ZERO(72)
    "  .endif\n"
    "  .if \\slots >= 4\n"
    JBIGI_ASM_PUSH_ZERO(80)
    JBIGI_ASM_PUSH_ZERO(88)
    "  .endif\n"
    "  .if \\slots == 5\n"
    JBIGI_ASM_PUSH_ZERO(96)
    "  .endif\n"
    JBIGI_ASM_END_PROLOGUE
    ".endm\n"
    /* The slots go in one step: Windows' unwinder knows an epilogue by a
     * single add to rsp before the pops. */
    ".macro JBIGI_ADX4_LEAVE slots=1\n"
    "  .if \\slots == 5\n"
    JBIGI_ASM_FREE(40, 56)
    "  .elseif \\slots == 4\n"
    JBIGI_ASM_FREE(32, 56)
    "  .elseif \\slots == 2\n"
    JBIGI_ASM_FREE(16, 56)
    "  .else\n"
    JBIGI_ASM_POP_ZERO(56)
    "  .endif\n"
    JBIGI_ASM_POP(r15, 48)
    JBIGI_ASM_POP(r14, 40)
    JBIGI_ASM_POP(r13, 32)
    JBIGI_ASM_POP(r12, 24)
    JBIGI_ASM_POP(rbp, 16)
    JBIGI_ASM_POP(rbx, 8)
    "  ret\n"
    JBIGI_ASM_ENDPROC
    ".endm\n"
    /* z0 .. z4 += rdx times the four limbs at src.  With park (a
     * reduction row: z0 ends at zero) z0 then takes the carry out of z4,
     * which stands for the limb above z4; without it z4 must be zero on
     * entry (a product row's new top limb, which cannot carry out). */
    ".macro JBIGI_ADX4_ROW src, z0, z1, z2, z3, z4, park\n"
    "  .if \\park\n"
    "  xor %eax, %eax\n"
    "  .else\n"
    "  xor \\z4, \\z4\n"
    "  .endif\n"
    "  mulx (\\src), %rax, %rcx\n"
    "  adcx %rax, \\z0\n"
    "  adox %rcx, \\z1\n"
    "  mulx 8(\\src), %rax, %rcx\n"
    "  adcx %rax, \\z1\n"
    "  adox %rcx, \\z2\n"
    "  mulx 16(\\src), %rax, %rcx\n"
    "  adcx %rax, \\z2\n"
    "  adox %rcx, \\z3\n"
    "  mulx 24(\\src), %rax, %rcx\n"
    "  adcx %rax, \\z3\n"
    "  adox %rcx, \\z4\n"
    "  adcx (%rsp), \\z4\n"
    "  .if \\park\n"
    "  adox (%rsp), \\z0\n"
    "  adcx (%rsp), \\z0\n"
    "  .endif\n"
    ".endm\n"
    /* The two rows that clear z0 and z1: q0 = lo(z0 k0) from MULX (rax),
     * q1 = hi(z0 k0) + z0 k1 + z1 k0 (rcx, then r9). */
    ".macro JBIGI_ADX4_PAIR z0, z1, z2, z3, z4, z5\n"
    "  mov \\z0, %rdx\n"
    "  mulx 32(%r8), %rax, %rcx\n"
    "  mov \\z0, %r9\n"
    "  imul 40(%r8), %r9\n"
    "  mov \\z1, %rsi\n"
    "  imul 32(%r8), %rsi\n"
    "  add %r9, %rcx\n"
    "  add %rsi, %rcx\n"
    "  mov %rax, %rdx\n"
    "  mov %rcx, %r9\n"
    "  JBIGI_ADX4_ROW %r8, \\z0, \\z1, \\z2, \\z3, \\z4, 1\n"
    "  mov %r9, %rdx\n"
    "  JBIGI_ADX4_ROW %r8, \\z1, \\z2, \\z3, \\z4, \\z5, 1\n"
    ".endm\n"
    /* T (r10 .. r15, rbx, rbp) reduced into r14, r15, rbx, rbp; a and b
     * no longer needed, r8 mk. */
    ".macro JBIGI_ADX4_REDUCE\n"
    "  JBIGI_ADX4_PAIR %r10, %r11, %r12, %r13, %r14, %r15\n"
    "  JBIGI_ADX4_PAIR %r12, %r13, %r14, %r15, %rbx, %rbp\n"
    /* the parked carries into limbs 5 .. 8; r13 becomes limb 8 */
    "  add %r10, %r15\n"
    "  adc %r11, %rbx\n"
    "  adc %r12, %rbp\n"
    "  adc $0, %r13\n"
    /* r13:rbp:rbx:r15:r14 < 2 m: keep the difference unless it borrows */
    "  mov %r14, %r10\n"
    "  sub (%r8), %r10\n"
    "  mov %r15, %r11\n"
    "  sbb 8(%r8), %r11\n"
    "  mov %rbx, %r12\n"
    "  sbb 16(%r8), %r12\n"
    "  mov %rbp, %rax\n"
    "  sbb 24(%r8), %rax\n"
    "  sbb $0, %r13\n"
    "  cmovnc %r10, %r14\n"
    "  cmovnc %r11, %r15\n"
    "  cmovnc %r12, %rbx\n"
    "  cmovnc %rax, %rbp\n"
    ".endm\n"
    /* The reduced result (r14, r15, rbx, rbp) to r at rdi. */
    ".macro JBIGI_ADX4_STORE\n"
    "  mov %r14, (%rdi)\n"
    "  mov %r15, 8(%rdi)\n"
    "  mov %rbx, 16(%rdi)\n"
    "  mov %rbp, 24(%rdi)\n"
    ".endm\n"

    /* T (r10 .. r15, rbx, rbp) = a a, a's limbs a0 .. a3 in memory or in
     * registers other than T's, rax, rcx and rdx: the six cross products
     * a_i a_j (i < j) once, doubled, then the four squares a_i^2 added at
     * limb 2 i. */
    ".macro JBIGI_ADX4_SQR_PRODUCT a0, a1, a2, a3\n"
    "  mov \\a0, %rdx\n"
    "  mulx \\a1, %r11, %r12\n"
    "  mulx \\a2, %rax, %r13\n"
    "  mulx \\a3, %rcx, %r14\n"
    "  add %rax, %r12\n"
    "  adc %rcx, %r13\n"
    "  adc $0, %r14\n"
    "  mov \\a1, %rdx\n"
    "  xor %r15d, %r15d\n"
    "  mulx \\a2, %rax, %rcx\n"
    "  adcx %rax, %r13\n"
    "  adox %rcx, %r14\n"
    "  mulx \\a3, %rax, %rcx\n"
    "  adcx %rax, %r14\n"
    "  adox %rcx, %r15\n"
    "  adcx (%rsp), %r15\n"
    "  mov \\a2, %rdx\n"
    "  mulx \\a3, %rax, %rbx\n"
    "  add %rax, %r15\n"
    "  adc $0, %rbx\n"
    /* doubled on the CF chain, the squares added on the OF chain */
    "  xor %ebp, %ebp\n"
    "  mov \\a0, %rdx\n"
    "  mulx %rdx, %r10, %rcx\n"
    "  adcx %r11, %r11\n"
    "  adox %rcx, %r11\n"
    "  mov \\a1, %rdx\n"
    "  mulx %rdx, %rax, %rcx\n"
    "  adcx %r12, %r12\n"
    "  adox %rax, %r12\n"
    "  adcx %r13, %r13\n"
    "  adox %rcx, %r13\n"
    "  mov \\a2, %rdx\n"
    "  mulx %rdx, %rax, %rcx\n"
    "  adcx %r14, %r14\n"
    "  adox %rax, %r14\n"
    "  adcx %r15, %r15\n"
    "  adox %rcx, %r15\n"
    "  mov \\a3, %rdx\n"
    "  mulx %rdx, %rax, %rcx\n"
    "  adcx %rbx, %rbx\n"
    "  adox %rax, %rbx\n"
    "  adcx %rbp, %rbp\n"
    "  adox %rcx, %rbp\n"
    ".endm\n"

    /* T (r10 .. r15, rbx, rbp) = the four limbs at src times rdx, b1, b2
     * and b3 (the other factor's limbs, rdx loaded by the caller): a row
     * per limb of it. */
    ".macro JBIGI_ADX4_PRODUCT src, b1, b2, b3\n"
    "  mulx (\\src), %r10, %r11\n"
    "  mulx 8(\\src), %rax, %r12\n"
    "  mulx 16(\\src), %rcx, %r13\n"
    "  add %rax, %r11\n"
    "  adc %rcx, %r12\n"
    "  mulx 24(\\src), %rax, %r14\n"
    "  adc %rax, %r13\n"
    "  adc $0, %r14\n"
    "  mov \\b1, %rdx\n"
    "  JBIGI_ADX4_ROW \\src, %r11, %r12, %r13, %r14, %r15, 0\n"
    "  mov \\b2, %rdx\n"
    "  JBIGI_ADX4_ROW \\src, %r12, %r13, %r14, %r15, %rbx, 0\n"
    "  mov \\b3, %rdx\n"
    "  JBIGI_ADX4_ROW \\src, %r13, %r14, %r15, %rbx, %rbp, 0\n"
    ".endm\n"

    /* jbigi_adx_mul4(r = rdi, a = rsi, b = rdx, mk = rcx): T = a b, a row
     * per limb of b. */
    ".p2align 5\n"
    JBIGI_ASM_FUNCTION(jbigi_adx_mul4)
    JBIGI_ASM_PROC(jbigi_adx_mul4)
    "  JBIGI_ADX4_ENTER\n"
    "  mov %rcx, %r8\n"
    "  mov %rdx, %r9\n"
    "  mov (%r9), %rdx\n"
    "  JBIGI_ADX4_PRODUCT %rsi, 8(%r9), 16(%r9), 24(%r9)\n"
    "  JBIGI_ADX4_REDUCE\n"
    "  JBIGI_ADX4_STORE\n"
    "  JBIGI_ADX4_LEAVE\n"
    JBIGI_ASM_FUNCTION_END(jbigi_adx_mul4)

    /* jbigi_adx_sqr4(r = rdi, a = rsi, mk = rdx). */
    ".p2align 5\n"
    JBIGI_ASM_FUNCTION(jbigi_adx_sqr4)
    JBIGI_ASM_PROC(jbigi_adx_sqr4)
    "  JBIGI_ADX4_ENTER\n"
    "  mov %rdx, %r8\n"
    "  JBIGI_ADX4_SQR_PRODUCT (%rsi), 8(%rsi), 16(%rsi), 24(%rsi)\n"
    "  JBIGI_ADX4_REDUCE\n"
    "  JBIGI_ADX4_STORE\n"
    "  JBIGI_ADX4_LEAVE\n"
    JBIGI_ASM_FUNCTION_END(jbigi_adx_sqr4)
    /* The squarings of the two functions below: a from rsi into registers
     * (rsi, rdi, r8, r9), squared count times there, so that no store and
     * load of it stands between one squaring and the next.  Every register
     * is taken, so the count, r and mk wait in the frame's slots (8, 16 and
     * 24 above the zero limb), mk loaded back into r8 for each reduction.
     * doc/measurements.md: "Four-limb squarings kept in registers (AMD EPYC Zen 4, 2026-12-07)" */
    ".macro JBIGI_ADX4_SQUARINGS\n"
    "  mov %rcx, 8(%rsp)\n"
    "  mov %rdi, 16(%rsp)\n"
    "  mov %rdx, 24(%rsp)\n"
    "  mov 8(%rsi), %rdi\n"
    "  mov 16(%rsi), %r8\n"
    "  mov 24(%rsi), %r9\n"
    "  mov (%rsi), %rsi\n"
    "1:\n"
    "  JBIGI_ADX4_SQR_PRODUCT %rsi, %rdi, %r8, %r9\n"
    "  mov 24(%rsp), %r8\n"
    "  JBIGI_ADX4_REDUCE\n"
    "  mov %r14, %rsi\n"
    "  mov %r15, %rdi\n"
    "  mov %rbx, %r8\n"
    "  mov %rbp, %r9\n"
    "  decq 8(%rsp)\n"
    "  jnz 1b\n"
    ".endm\n"

    /* jbigi_adx_sqr4_times(r = rdi, a = rsi, mk = rdx, count = rcx >= 1):
     * count squarings in one frame, r written once, at the end. */
    ".p2align 5\n"
    JBIGI_ASM_FUNCTION(jbigi_adx_sqr4_times)
    JBIGI_ASM_PROC(jbigi_adx_sqr4_times)
    "  JBIGI_ADX4_ENTER 4\n"
    "  JBIGI_ADX4_SQUARINGS\n"
    "  mov 16(%rsp), %rdi\n"
    "  JBIGI_ADX4_STORE\n"
    "  JBIGI_ADX4_LEAVE 4\n"
    JBIGI_ASM_FUNCTION_END(jbigi_adx_sqr4_times)

    /* jbigi_adx_sqr4_times_mul(r = rdi, a = rsi, mk = rdx, count = rcx >= 1,
     * b = r8): the squarings, then the product by b with the squared value
     * still in registers: a row per limb of it (rdx), b's limbs from
     * memory (its address, kept in the slot 32 above the zero limb, in rsi
     * once the first limb is in rdx). */
    ".p2align 5\n"
    JBIGI_ASM_FUNCTION(jbigi_adx_sqr4_times_mul)
    JBIGI_ASM_PROC(jbigi_adx_sqr4_times_mul)
    "  JBIGI_ADX4_ENTER 5\n"
    "  mov %r8, 32(%rsp)\n"
    "  JBIGI_ADX4_SQUARINGS\n"
    "  mov %rsi, %rdx\n"
    "  mov 32(%rsp), %rsi\n"
    "  JBIGI_ADX4_PRODUCT %rsi, %rdi, %r8, %r9\n"
    "  mov 24(%rsp), %r8\n"
    "  JBIGI_ADX4_REDUCE\n"
    "  mov 16(%rsp), %rdi\n"
    "  JBIGI_ADX4_STORE\n"
    "  JBIGI_ADX4_LEAVE 5\n"
    JBIGI_ASM_FUNCTION_END(jbigi_adx_sqr4_times_mul)
    ".purgem JBIGI_ADX4_ENTER\n"
    ".purgem JBIGI_ADX4_LEAVE\n"
    ".purgem JBIGI_ADX4_ROW\n"
    ".purgem JBIGI_ADX4_PAIR\n"
    ".purgem JBIGI_ADX4_REDUCE\n"
    ".purgem JBIGI_ADX4_STORE\n"
    ".purgem JBIGI_ADX4_SQUARINGS\n"
    ".purgem JBIGI_ADX4_PRODUCT\n"
    ".purgem JBIGI_ADX4_SQR_PRODUCT\n"
    JBIGI_ASM_TEXT_END);

#else /* not x86-64: the engine is never available, these are never reached */

void jbigi_adx_mul4(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, const mp_limb_t *mk)
{
    (void)r, (void)a, (void)b, (void)mk;
    abort();
}

void jbigi_adx_sqr4(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *mk)
{
    (void)r, (void)a, (void)mk;
    abort();
}

void jbigi_adx_sqr4_times(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *mk, size_t count)
{
    (void)r, (void)a, (void)mk, (void)count;
    abort();
}

void jbigi_adx_sqr4_times_mul(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *mk, size_t count,
                              const mp_limb_t *b)
{
    (void)r, (void)a, (void)mk, (void)count, (void)b;
    abort();
}

#endif
