/*
 * asm.h - the object-format directives around a function written in
 * top-level assembly, and the calling convention it follows.  The
 * functions are written for the System V convention (arguments in rdi,
 * rsi, rdx, rcx, r8; rbx, rbp, r12-r15 preserved).  On Windows, whose own
 * convention differs, their prototypes carry JBIGI_ASM_CALL, so the
 * compiler calls them the System V way (and saves what that convention
 * lets a callee clobber: rsi, rdi, xmm6-15).
 */
#ifndef JBIGI_PLATFORM_ASM_H
#define JBIGI_PLATFORM_ASM_H

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
#else
/* ELF: into .text and back to whatever section gcc was in. */
#define JBIGI_ASM_TEXT_BEGIN ".pushsection .text\n"
#define JBIGI_ASM_TEXT_END ".popsection\n"
/* ELF: hidden, so it stays out of the library's dynamic symbols, with its
 * type and size for debuggers and profilers. */
#define JBIGI_ASM_FUNCTION(name) ".globl " #name "\n.hidden " #name "\n.type " #name ", @function\n"
#define JBIGI_ASM_FUNCTION_END(name) ".size " #name ", .-" #name "\n"
#define JBIGI_ASM_CALL __attribute__((visibility("hidden")))
#endif

#endif
