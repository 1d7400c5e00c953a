/*
 * churn.c - threads coming and going leave nothing behind in a jbigi DLL.
 *
 * A JVM's threads come and go (I2P's thread pools grow and shrink), and
 * each may call into the library.  Whatever per-thread state the library
 * keeps (under mingw-w64 a _Thread_local becomes emulated TLS: a block
 * allocated on a thread's first use, to be freed when the thread ends) must
 * go with the thread.  This program loads the DLL, then starts and joins
 * threads one after another, each calling the natives through a JNIEnv of
 * its own (test/jni's fake environment): nativeModPow, nativeModPowCT and
 * Engine.nativeNote, results checked.  After a warm-up it reads the bytes
 * allocated on every heap of the process, its committed private memory and
 * the value its next handle gets; after many more threads they must not
 * have grown with the number of threads (a few bytes a thread, summed over
 * thousands, would show).  First it shows that these measures see a leak.
 *
 *     churn.exe DLL
 *
 * Ends with "N passed, N failed, N skipped".
 */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_jni.h"
#include "loader.h"
#include "natives.h"

/* Threads in the warm-up, then in each of the two measured rounds. */
#define WARM_UP 100
#define ROUND 1000
/* Growth allowed over a measured round, in bytes per thread: a leak of the
 * smallest block a heap hands out (16 bytes) would exceed it. */
#define SLACK_PER_THREAD 4

static struct natives n;
static unsigned char expected[64];
static size_t expected_len;
static volatile LONG wrong;

/* 2^255 - 19, the base 3 and an exponent of 200 bits, as byte[]s. */
static const unsigned char modulus[32] = {
    0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xed,
};
static const unsigned char base[1] = {3};
static const unsigned char exponent[25] = {
    0x5c, 0x41, 0x07, 0x3e, 0x55, 0x12, 0xd0, 0x8a, 0x33, 0x61, 0xf4, 0x2b, 0x70,
    0x0e, 0xc9, 0x84, 0x16, 0x5d, 0xa2, 0x3f, 0xe8, 0x27, 0x91, 0x4c, 0x05,
};

/* One thread's calls: 1 if every result is the expected one. */
static int calls(int record)
{
    struct fake_env *fe = fake_env_create();
    if (fe == NULL)
        return 0;
    JNIEnv *env = fake_env_jni(fe);
    jclass nbi = fake_new_class(fe, "net/i2p/util/NativeBigInteger");
    jclass engine = fake_new_class(fe, "net/i2p/util/Engine");
    jbyteArray b = fake_new_byte_array(fe, base, sizeof base);
    jbyteArray e = fake_new_byte_array(fe, exponent, sizeof exponent);
    jbyteArray m = fake_new_byte_array(fe, modulus, sizeof modulus);
    int ok = b != NULL && e != NULL && m != NULL;
    if (ok) {
        size_t len1 = 0, len2 = 0;
        const unsigned char *r1 = fake_byte_array(fe, n.mod_pow(env, nbi, b, e, m), &len1);
        const unsigned char *r2 = fake_byte_array(fe, n.mod_pow_ct(env, nbi, b, e, m), &len2);
        jstring note = n.note(env, engine);
        ok = r1 != NULL && r2 != NULL && len1 == len2 && memcmp(r1, r2, len1) == 0 && note != NULL &&
             fake_pending_class(fe) == NULL && len1 <= sizeof expected;
        if (ok && record) {
            memcpy(expected, r1, len1);
            expected_len = len1;
        }
        ok = ok && len1 == expected_len && memcmp(r1, expected, len1) == 0;
    }
    char misuse[200];
    ok = ok && fake_take_misuse(fe, misuse, sizeof misuse) == 0;
    fake_env_pop_frame(fe);
    fake_env_destroy(fe);
    return ok;
}

static DWORD WINAPI thread_main(LPVOID unused)
{
    (void)unused;
    if (!calls(0))
        InterlockedIncrement(&wrong);
    return 0;
}

/* Calls, signals the first event, waits for the second. */
static DWORD WINAPI calling_thread(LPVOID events)
{
    HANDLE *e = events;
    if (!calls(0))
        InterlockedIncrement(&wrong);
    SetEvent(e[0]);
    WaitForSingleObject(e[1], INFINITE);
    return 0;
}

/* Starts and joins count threads, one at a time: 0 if one could not start. */
static int churn(int count)
{
    for (int i = 0; i < count; i++) {
        HANDLE t = CreateThread(NULL, 0, thread_main, NULL, 0, NULL);
        if (t == NULL)
            return 0;
        WaitForSingleObject(t, INFINITE);
        CloseHandle(t);
    }
    return 1;
}

/* What the process holds: bytes allocated on its heaps (malloc's
 * included), its committed private memory (thread stacks included), and
 * the value the next handle gets (the lowest free slot, so a handle left
 * open by each thread would push it up). */
struct usage {
    long long heap_bytes, private_bytes, next_handle;
};

static struct usage measure(void)
{
    struct usage u = {0, 0, 0};
    HANDLE heaps[64];
    DWORD count = GetProcessHeaps(64, heaps);
    for (DWORD i = 0; i < count && i < 64; i++) {
        PROCESS_HEAP_ENTRY entry;
        entry.lpData = NULL;
        if (!HeapLock(heaps[i]))
            continue;
        while (HeapWalk(heaps[i], &entry))
            if (entry.wFlags & PROCESS_HEAP_ENTRY_BUSY)
                u.heap_bytes += (long long)entry.cbData;
        HeapUnlock(heaps[i]);
    }
    MEMORY_BASIC_INFORMATION mbi;
    for (char *p = NULL; VirtualQuery(p, &mbi, sizeof mbi) == sizeof mbi; p = (char *)mbi.BaseAddress + mbi.RegionSize)
        if (mbi.State == MEM_COMMIT && mbi.Type == MEM_PRIVATE)
            u.private_bytes += (long long)mbi.RegionSize;
    HANDLE h = CreateEventW(NULL, FALSE, FALSE, NULL);
    u.next_handle = (long long)(INT_PTR)h;
    CloseHandle(h);
    return u;
}

static int passed, failed, skipped;

static void check(int ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
    ok ? passed++ : failed++;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DLL\n", argv[0]);
        return 2;
    }
    char error[512], what[300];
    struct loader_library *lib = loader_open(argv[1], error, sizeof error);
    struct fake_env *fe = fake_env_create();
    if (lib == NULL || fe == NULL || natives_resolve(&n, lib) != 0) {
        printf("not ok - load %s: %s\n", argv[1], lib == NULL ? error : "natives missing");
        printf("0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    if (n.on_load(fake_env_vm(fe), NULL) == JNI_ERR) {
        printf("skip - %s refuses this CPU: no thread can call it\n", argv[1]);
        printf("0 passed, 0 failed, 6 skipped\n");
        return 0;
    }
    check(calls(1), "the natives give the same power on the main thread");

    /* The measures see a leak: 20 blocks of 64 bytes, 16 pages and a
     * handle, held for a moment. */
    const struct usage clean = measure();
    void *blocks[20];
    for (int i = 0; i < 20; i++)
        blocks[i] = malloc(64);
    void *pages = VirtualAlloc(NULL, 16 * 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    HANDLE held = CreateEventW(NULL, FALSE, FALSE, NULL);
    const struct usage leaky = measure();
    for (int i = 0; i < 20; i++)
        free(blocks[i]);
    VirtualFree(pages, 0, MEM_RELEASE);
    CloseHandle(held);
    check(leaky.heap_bytes - clean.heap_bytes >= 20 * 64 && leaky.private_bytes - clean.private_bytes >= 16 * 4096 &&
              leaky.next_handle != clean.next_handle,
          "the measures below see 20 blocks of 64 bytes, 16 pages and a handle held");

    /* Said, not checked (it depends on how the library keeps per-thread
     * state): what a thread that has called holds while it lives. */
    const struct usage idle = measure();
    HANDLE called = CreateEventW(NULL, TRUE, FALSE, NULL), go_on = CreateEventW(NULL, TRUE, FALSE, NULL);
    HANDLE alive[2] = {called, go_on};
    HANDLE t = CreateThread(NULL, 0, calling_thread, alive, 0, NULL);
    if (t != NULL) {
        WaitForSingleObject(called, INFINITE);
        const struct usage busy = measure();
        SetEvent(go_on);
        WaitForSingleObject(t, INFINITE);
        CloseHandle(t);
        printf("# a thread that has called holds %lld heap bytes more while it lives\n",
               busy.heap_bytes - idle.heap_bytes);
    }
    CloseHandle(called);
    CloseHandle(go_on);

    const int warm = churn(WARM_UP);
    const struct usage before = measure();
    const int round1 = churn(ROUND);
    const struct usage middle = measure();
    const int round2 = churn(ROUND);
    const struct usage after = measure();
    snprintf(what, sizeof what, "%d threads, one after another, each called the natives and got the right results",
             WARM_UP + 2 * ROUND);
    check(warm && round1 && round2 && wrong == 0, what);

    printf("# heap bytes in use: %lld, then %lld after %d more threads, %lld after %d more\n", before.heap_bytes,
           middle.heap_bytes, ROUND, after.heap_bytes, ROUND);
    printf("# committed private bytes: %lld, %lld, %lld\n", before.private_bytes, middle.private_bytes,
           after.private_bytes);
    printf("# next handle: %lld, %lld, %lld\n", before.next_handle, middle.next_handle, after.next_handle);
    const long long heap = after.heap_bytes - before.heap_bytes;
    snprintf(what, sizeof what, "the heaps' bytes in use grew by %lld over %d threads (at most %d allowed)", heap,
             2 * ROUND, 2 * ROUND * SLACK_PER_THREAD);
    check(heap <= 2 * ROUND * SLACK_PER_THREAD, what);
    /* Pages, not blocks: a page a thread would show, a few pages of the
     * heaps' own growth would not. */
    const long long priv = after.private_bytes - before.private_bytes;
    snprintf(what, sizeof what, "the committed private memory grew by %lld bytes over %d threads (at most %d pages)",
             priv, 2 * ROUND, 2 * ROUND / 16);
    check(priv <= 2 * ROUND / 16 * 4096, what);
    snprintf(what, sizeof what, "the next handle is the same after %d threads as before them", 2 * ROUND);
    check(after.next_handle == before.next_handle, what);

    fake_env_pop_frame(fe);
    fake_env_destroy(fe);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed != 0;
}
