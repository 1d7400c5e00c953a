/*
 * unwind.c - Windows' own unwinder through the MULX/ADX engine's functions
 * written in top-level assembly (jbigi_adx_redc8, jbigi_adx_mul4,
 * jbigi_adx_sqr4, jbigi_adx_sqr4_times, jbigi_adx_sqr4_times_mul), as
 * exception dispatch, crash dumps and profilers use it.
 *
 * Each function is called from a trampoline (probe_call, below) that puts
 * known values into the registers the function must preserve and records
 * rsp at its return address.  Then:
 *
 *  1. stepped through (the trap flag set just before the call), at every
 *     instruction of the function, prologue and epilogue included: a
 *     vectored exception handler looks the instruction up
 *     (RtlLookupFunctionEntry), unwinds one frame (RtlVirtualUnwind), and
 *     checks that the entry begins at the function, that rip is the return
 *     address in the trampoline, rsp the trampoline's, and rbx, rbp and
 *     r12-r15 the trampoline's values;
 *  2. made to fault on its first access to memory (its frame complete): the
 *     handler unwinds the same way and resumes the trampoline with the
 *     unwound context, as if the function had returned, which it must reach
 *     with its registers intact.
 *
 * Without the functions' unwind data the lookup finds nothing and the
 * unwinder takes the function for a leaf: rip from [rsp], wrong once it
 * has pushed anything.
 *
 * Windows only; needs BMI2 and ADX (else every check is skipped).  Ends with
 * "N passed, N failed, N skipped".
 */
#include <windows.h>

#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The functions under test (System V convention, platform/asm.h), called
 * through probe_call only: their addresses are all this file needs. */
extern char jbigi_adx_redc8[], jbigi_adx_mul4[], jbigi_adx_sqr4[], jbigi_adx_sqr4_times[], jbigi_adx_sqr4_times_mul[];

/* What probe_call calls and what it saw: fn(arg[0], .. arg[4]) in rdi, rsi,
 * rdx, rcx, r8; rsp as the function's ret leaves it. */
struct probe {
    const void *fn;
    uint64_t arg[5];
    uint64_t rsp_after;
    uint64_t kept[6]; /* rbx rbp r12 r13 r14 r15 after the call */
};

/* The values probe_call gives the preserved registers, rbx rbp r12 .. r15. */
static const uint64_t seeded[6] = {
    0x1111111111111b0bull, 0x2222222222222b0bull, 0x3333333333333c12ull,
    0x4444444444444c13ull, 0x5555555555555c14ull, 0x6666666666666c15ull,
};

/* void probe_call(struct probe *p, int step) (Windows convention: rcx, edx):
 * saves its caller's registers, seeds the preserved ones, calls p->fn with
 * the trap flag set when step is non-zero, and records what it got back. */
void probe_call(struct probe *p, int step);
extern char probe_return[];
__asm__(".text\n"
        ".globl probe_call\n"
        ".globl probe_return\n"
        "probe_call:\n"
        "  push %rbx\n  push %rbp\n  push %rdi\n  push %rsi\n"
        "  push %r12\n  push %r13\n  push %r14\n  push %r15\n"
        "  sub $8, %rsp\n"
        "  mov %rcx, (%rsp)\n"
        "  mov %rcx, %rax\n"
        "  mov 8(%rax), %rdi\n  mov 16(%rax), %rsi\n  mov 32(%rax), %rcx\n  mov 40(%rax), %r8\n"
        "  mov %edx, %r9d\n"
        "  mov 24(%rax), %rdx\n"
        "  mov %rsp, 48(%rax)\n"
        "  mov (%rax), %rax\n"
        "  movabs $0x1111111111111b0b, %rbx\n"
        "  movabs $0x2222222222222b0b, %rbp\n"
        "  movabs $0x3333333333333c12, %r12\n"
        "  movabs $0x4444444444444c13, %r13\n"
        "  movabs $0x5555555555555c14, %r14\n"
        "  movabs $0x6666666666666c15, %r15\n"
        "  test %r9d, %r9d\n"
        "  jz 1f\n"
        "  pushfq\n"
        "  orq $0x100, (%rsp)\n"
        "  popfq\n"
        "1:\n"
        "  call *%rax\n"
        "probe_return:\n"
        "  pushfq\n"
        "  andq $-0x101, (%rsp)\n"
        "  popfq\n"
        "  mov (%rsp), %rax\n"
        "  mov %rbx, 56(%rax)\n  mov %rbp, 64(%rax)\n  mov %r12, 72(%rax)\n"
        "  mov %r13, 80(%rax)\n  mov %r14, 88(%rax)\n  mov %r15, 96(%rax)\n"
        "  add $8, %rsp\n"
        "  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n"
        "  pop %rsi\n  pop %rdi\n  pop %rbp\n  pop %rbx\n"
        "  ret\n");

/* The handler's state: the call under way and what it found. */
static struct {
    struct probe *p;
    const char *name;
    int fault; /* 2: resume the trampoline on the fault */
    unsigned steps, wrong, faults;
    char first_wrong[200];
} run;

/* One frame up from ctx (a copy): 1 when it lands in the trampoline as it
 * must, else 0 with why in run.first_wrong (the first time). */
static int unwinds_right(const CONTEXT *ctx, CONTEXT *out)
{
    CONTEXT c = *ctx;
    DWORD64 base = 0;
    PRUNTIME_FUNCTION f = RtlLookupFunctionEntry(c.Rip, &base, NULL);
    char why[200] = "";
    if (f == NULL) {
        /* What the unwinder does then: a leaf, rip at [rsp]. */
        c.Rip = *(DWORD64 *)c.Rsp;
        c.Rsp += 8;
        snprintf(why, sizeof why, "no function entry holds rip %+lld", (long long)(ctx->Rip - (DWORD64)run.p->fn));
    } else if (base + f->BeginAddress != (DWORD64)run.p->fn) {
        snprintf(why, sizeof why, "the entry for rip %+lld begins %+lld from the function",
                 (long long)(ctx->Rip - (DWORD64)run.p->fn), (long long)(base + f->BeginAddress - (DWORD64)run.p->fn));
    } else {
        PVOID data = NULL;
        DWORD64 frame = 0;
        RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, c.Rip, f, &c, &data, &frame, NULL);
    }
    const DWORD64 got[6] = {c.Rbx, c.Rbp, c.R12, c.R13, c.R14, c.R15};
    if (why[0] == '\0' && c.Rip != (DWORD64)probe_return)
        snprintf(why, sizeof why, "from rip %+lld: rip is not the return address",
                 (long long)(ctx->Rip - (DWORD64)run.p->fn));
    else if (why[0] == '\0' && c.Rsp != run.p->rsp_after)
        snprintf(why, sizeof why, "from rip %+lld: rsp is %+lld from the caller's",
                 (long long)(ctx->Rip - (DWORD64)run.p->fn), (long long)(c.Rsp - run.p->rsp_after));
    else if (why[0] == '\0' && memcmp(got, seeded, sizeof got) != 0)
        snprintf(why, sizeof why, "from rip %+lld: a preserved register is not the caller's",
                 (long long)(ctx->Rip - (DWORD64)run.p->fn));
    if (why[0] != '\0' && run.first_wrong[0] == '\0')
        snprintf(run.first_wrong, sizeof run.first_wrong, "%s", why);
    if (out != NULL)
        *out = c;
    return why[0] == '\0';
}

static LONG CALLBACK handler(PEXCEPTION_POINTERS e)
{
    CONTEXT *ctx = e->ContextRecord;
    const DWORD code = e->ExceptionRecord->ExceptionCode;
    if (run.p == NULL)
        return EXCEPTION_CONTINUE_SEARCH;
    if (code == EXCEPTION_SINGLE_STEP) {
        if (ctx->Rip == (DWORD64)probe_return) {
            ctx->EFlags &= ~0x100u;
            return EXCEPTION_CONTINUE_EXECUTION;
        }
        run.steps++;
        if (!unwinds_right(ctx, NULL))
            run.wrong++;
        ctx->EFlags |= 0x100u;
        return EXCEPTION_CONTINUE_EXECUTION;
    }
    if (code == EXCEPTION_ACCESS_VIOLATION && run.fault) {
        CONTEXT up;
        run.faults++;
        if (!unwinds_right(ctx, &up)) {
            /* Resume where the unwind should have led, so the run goes on. */
            run.wrong++;
            up = *ctx;
            up.Rip = (DWORD64)probe_return;
            up.Rsp = run.p->rsp_after;
            up.Rbx = seeded[0], up.Rbp = seeded[1], up.R12 = seeded[2];
            up.R13 = seeded[3], up.R14 = seeded[4], up.R15 = seeded[5];
        }
        *ctx = up;
        return EXCEPTION_CONTINUE_EXECUTION;
    }
    return EXCEPTION_CONTINUE_SEARCH;
}

static int passed, failed, skipped;

static void check(int ok, const char *what, const char *why)
{
    printf("%s - %s%s%s\n", ok ? "ok" : "not ok", what, ok ? "" : ": ", ok ? "" : why);
    ok ? passed++ : failed++;
}

/* Every instruction of one call, stepped. */
static void step_through(const char *name, struct probe *p)
{
    memset(&run, 0, sizeof run);
    run.p = p;
    run.name = name;
    probe_call(p, 1);
    run.p = NULL;
    char what[200];
    snprintf(what, sizeof what, "%s: an unwind from each of its %u instructions run reaches the caller", name,
             run.steps);
    check(run.steps > 20 && run.wrong == 0 && memcmp(p->kept, seeded, sizeof seeded) == 0, what,
          run.first_wrong[0] ? run.first_wrong : "the registers it preserves changed, or too few steps");
}

/* One call that faults inside, resumed at the caller by the unwound context. */
static void fault_inside(const char *name, struct probe *p)
{
    memset(&run, 0, sizeof run);
    run.p = p;
    run.name = name;
    run.fault = 1;
    probe_call(p, 0);
    run.p = NULL;
    char what[200];
    snprintf(what, sizeof what, "%s: a fault inside it unwinds to the caller, which goes on", name);
    check(run.faults == 1 && run.wrong == 0 && memcmp(p->kept, seeded, sizeof seeded) == 0, what,
          run.first_wrong[0] ? run.first_wrong : "no fault, or the caller's registers changed");
}

int main(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 8)) || !(b & (1u << 19))) {
        printf("skip - this CPU has no BMI2 and ADX: the functions cannot run\n");
        printf("0 passed, 0 failed, 8 skipped\n");
        return 0;
    }
    AddVectoredExceptionHandler(1, handler);

    /* Operands: any values in readable memory (the results are not checked
     * here; test_adx does that).  m odd, the context's k0 and k1 as given. */
    static uint64_t t[64], m[32], r[4], x[4] = {5, 6, 7, 8}, y[4] = {9, 10, 11, 12};
    static uint64_t mk[6] = {0xffffffffffffffc5ull, ~0ull, ~0ull, 0x7fffffffffffffffull, 0x1234567, 0x89abcdef};
    for (int i = 0; i < 32; i++)
        m[i] = 0x9e3779b97f4a7c15ull * (uint64_t)(2 * i + 1);
    /* No access at all: each function's first load from it faults. */
    uint64_t *none = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_NOACCESS);

    struct probe redc8 = {jbigi_adx_redc8, {(uint64_t)t, (uint64_t)m, 2, 3, 4}, 0, {0}};
    struct probe mul4 = {jbigi_adx_mul4, {(uint64_t)r, (uint64_t)x, (uint64_t)y, (uint64_t)mk, 0}, 0, {0}};
    struct probe sqr4 = {jbigi_adx_sqr4, {(uint64_t)r, (uint64_t)x, (uint64_t)mk, 0, 0}, 0, {0}};
    /* Three squarings: the loop and its count's stack slot. */
    struct probe sqr4_times = {jbigi_adx_sqr4_times, {(uint64_t)r, (uint64_t)x, (uint64_t)mk, 3, 0}, 0, {0}};
    /* Two squarings and a product: the fifth slot and the product's rows. */
    struct probe sqr4_times_mul = {jbigi_adx_sqr4_times_mul, {(uint64_t)r, (uint64_t)x, (uint64_t)mk, 2, (uint64_t)y},
                                   0, {0}};
    step_through("jbigi_adx_redc8", &redc8);
    step_through("jbigi_adx_mul4", &mul4);
    step_through("jbigi_adx_sqr4", &sqr4);
    step_through("jbigi_adx_sqr4_times", &sqr4_times);
    step_through("jbigi_adx_sqr4_times_mul", &sqr4_times_mul);

    redc8.arg[0] = (uint64_t)none;
    mul4.arg[1] = (uint64_t)none;
    sqr4.arg[1] = (uint64_t)none;
    sqr4_times.arg[1] = (uint64_t)none;
    sqr4_times_mul.arg[4] = (uint64_t)none; /* faults in the product, after the squarings */
    fault_inside("jbigi_adx_redc8", &redc8);
    fault_inside("jbigi_adx_mul4", &mul4);
    fault_inside("jbigi_adx_sqr4", &sqr4);
    fault_inside("jbigi_adx_sqr4_times", &sqr4_times);
    fault_inside("jbigi_adx_sqr4_times_mul", &sqr4_times_mul);

    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed != 0;
}
