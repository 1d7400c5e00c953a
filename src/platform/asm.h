/*
 * asm.h - the object-format directives around a function written in
 * top-level assembly, and the calling convention it follows.  The
 * functions are written for the System V convention (arguments in rdi,
 * rsi, rdx, rcx, r8; rbx, rbp, r12-r15 preserved).  On Windows, whose own
 * convention differs, their prototypes carry JBIGI_ASM_CALL, so the
 * compiler calls them the System V way (and saves what that convention
 * lets a callee clobber: rsi, rdi, xmm6-15).
 *
 * A function's frame is built and taken down with the macros below, so
 * that each object format gets the unwind data its debuggers, profilers,
 * crash reports and (on Windows) exception dispatch read, with the same
 * instructions wherever the format allows:
 *   JBIGI_ASM_PROC(name)         the function's label, its unwind data opened
 *                                (and endbr64 under -fcf-protection)
 *   JBIGI_ASM_PUSH(reg, cfa)     push reg; cfa is 8 + the bytes pushed and
 *                                allocated so far, this one included
 *   JBIGI_ASM_PUSH_ZERO(cfa)     a zero limb pushed (8 bytes allocated)
 *   JBIGI_ASM_ALLOC(bytes, cfa)  rsp -= bytes
 *   JBIGI_ASM_END_PROLOGUE       after the last of those
 *   JBIGI_ASM_FREE(bytes, cfa)   rsp += bytes; cfa what remains, as above
 *   JBIGI_ASM_POP_ZERO(cfa)      the zero limb dropped (rax clobbered)
 *   JBIGI_ASM_POP(reg, cfa)      pop reg
 *   JBIGI_ASM_ENDPROC            after the ret
 */
#ifndef JBIGI_PLATFORM_ASM_H
#define JBIGI_PLATFORM_ASM_H

/* Under -fcf-protection (gcc and clang define __CET__, bit 0 for indirect
 * branch tracking), the compiler starts its own functions with endbr64 and
 * marks the object as IBT-ready; a function written here gets the same, so
 * that the mark holds for the whole object (the engines call these through
 * pointers).  A no-op on a CPU without CET. */
#if defined(__CET__) && (__CET__ & 1)
#define JBIGI_ASM_ENDBR "  endbr64\n"
#else
#define JBIGI_ASM_ENDBR ""
#endif

#if defined(_WIN32)
/* PE/COFF has no section stack: the top-level assembly stays in .text,
 * where gcc's output is when it emits it, so nothing needs restoring. */
#define JBIGI_ASM_TEXT_BEGIN ".text\n"
#define JBIGI_ASM_TEXT_END ""
/* PE/COFF: a global function symbol (storage class 2, type 0x20: function);
 * a DLL exports only what is marked for export, so global is not public. */
#define JBIGI_ASM_FUNCTION(name) ".globl " #name "\n.def " #name "; .scl 2; .type 32; .endef\n"
#define JBIGI_ASM_FUNCTION_END(name) ""
/* The attributes of such a function's prototype. */
#define JBIGI_ASM_CALL __attribute__((sysv_abi))
/* Windows' unwind codes (.pdata and .xdata), the one form its unwinder
 * reads: one code per push and stack allocation, the prologue's end, and
 * an epilogue of the form the unwinder recognises (add to rsp, pops, ret). */
#define JBIGI_ASM_PROC(name) #name ":\n  .seh_proc " #name "\n" JBIGI_ASM_ENDBR
#define JBIGI_ASM_PUSH(reg, cfa) "  push %" #reg "\n  .seh_pushreg %" #reg "\n"
#define JBIGI_ASM_PUSH_ZERO(cfa) "  push $0\n  .seh_stackalloc 8\n"
#define JBIGI_ASM_ALLOC(bytes, cfa) "  sub $" #bytes ", %rsp\n  .seh_stackalloc " #bytes "\n"
#define JBIGI_ASM_END_PROLOGUE "  .seh_endprologue\n"
#define JBIGI_ASM_FREE(bytes, cfa) "  add $" #bytes ", %rsp\n"
#define JBIGI_ASM_POP_ZERO(cfa) "  add $8, %rsp\n"
#define JBIGI_ASM_POP(reg, cfa) "  pop %" #reg "\n"
#define JBIGI_ASM_ENDPROC "  .seh_endproc\n"
#else
/* ELF: into .text and back to whatever section gcc was in. */
#define JBIGI_ASM_TEXT_BEGIN ".pushsection .text\n"
#define JBIGI_ASM_TEXT_END ".popsection\n"
/* ELF: hidden, so it stays out of the library's dynamic symbols, with its
 * type and size for debuggers and profilers. */
#define JBIGI_ASM_FUNCTION(name) ".globl " #name "\n.hidden " #name "\n.type " #name ", @function\n"
#define JBIGI_ASM_FUNCTION_END(name) ".size " #name ", .-" #name "\n"
#define JBIGI_ASM_CALL __attribute__((visibility("hidden")))
/* ELF's call frame information (.eh_frame): after every change of rsp,
 * where the caller's frame starts (the CFA, rsp + cfa) and where each
 * saved register is. */
#define JBIGI_ASM_PROC(name) #name ":\n  .cfi_startproc\n" JBIGI_ASM_ENDBR
#define JBIGI_ASM_PUSH(reg, cfa)                                                                                       \
    "  push %" #reg "\n  .cfi_def_cfa_offset " #cfa "\n  .cfi_offset %" #reg ", -" #cfa "\n"
#define JBIGI_ASM_PUSH_ZERO(cfa) "  push $0\n  .cfi_def_cfa_offset " #cfa "\n"
#define JBIGI_ASM_ALLOC(bytes, cfa) "  sub $" #bytes ", %rsp\n  .cfi_def_cfa_offset " #cfa "\n"
#define JBIGI_ASM_END_PROLOGUE ""
#define JBIGI_ASM_FREE(bytes, cfa) "  add $" #bytes ", %rsp\n  .cfi_def_cfa_offset " #cfa "\n"
#define JBIGI_ASM_POP_ZERO(cfa) "  pop %rax\n  .cfi_def_cfa_offset " #cfa "\n"
#define JBIGI_ASM_POP(reg, cfa) "  pop %" #reg "\n  .cfi_def_cfa_offset " #cfa "\n  .cfi_restore %" #reg "\n"
#define JBIGI_ASM_ENDPROC "  .cfi_endproc\n"
#endif

#endif
