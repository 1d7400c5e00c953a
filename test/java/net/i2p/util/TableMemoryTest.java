package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The native memory of fixed-base tables: freed when closed and no call uses
 * it, never used after, counted exactly; explicit tables closed by their
 * owner or freed once unreachable; transparent ones bounded in the memory
 * that exists (in fresh JVMs, TableBoundProbe, with the bound each check
 * needs).
 */
class TableMemoryTest {
    private static final BigInteger P = SpeedTest.GROUP14_PRIME;

    @BeforeEach
    void needsTables() {
        assumeTrue(NativeBigInteger.hasFixedBase(), "no fixed-base natives: " + NativeBigInteger.loadStatus());
    }

    // ---- one table: acquire, release, close ----

    @Test
    void aTableIsFreedOnceClosedAndReleasedAndNeverHandedOutAfter() {
        AtomicLong freedBytes = new AtomicLong();
        AtomicInteger frees = new AtomicInteger();
        NativeTable t = NativeTable.allocate(4096, bytes -> {
            frees.incrementAndGet();
            freedBytes.addAndGet(bytes);
        });
        assertEquals(4096 + NativeTable.HEADER_BYTES, t.bytes());
        ByteBuffer first = t.acquire();
        ByteBuffer second = t.acquire();
        assertEquals(4096, first.capacity());
        t.close();
        assertFalse(t.isFreed(), "two calls still hold it");
        assertThrows(IllegalStateException.class, t::acquire);
        t.release();
        assertFalse(t.isFreed(), "one call still holds it");
        t.close(); // again: nothing
        assertSame(first, second);
        t.release();
        assertTrue(t.isFreed());
        assertEquals(1, frees.get());
        assertEquals(t.bytes(), freedBytes.get());
        assertThrows(IllegalStateException.class, t::release, "more releases than acquires");
        assertThrows(IllegalStateException.class, t::acquire);
        t.close();
        assertEquals(1, frees.get(), "freed once, whatever follows");
    }

    /**
     * 8 threads acquire and release one table while another closes it: no
     * acquire succeeds after the close, the memory is freed exactly once, and
     * only after the last release.
     */
    @Test
    void closingWhileManyThreadsUseATableFreesItOnceAfterTheLastUser() throws Exception {
        for (int round = 0; round < 200; round++) {
            AtomicInteger frees = new AtomicInteger();
            AtomicInteger holding = new AtomicInteger();
            AtomicInteger freedWhileHeld = new AtomicInteger();
            NativeTable t = NativeTable.allocate(64, bytes -> {
                if (holding.get() != 0)
                    freedWhileHeld.incrementAndGet();
                frees.incrementAndGet();
            });
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger acquiredAfterClose = new AtomicInteger();
            AtomicReference<Boolean> closed = new AtomicReference<Boolean>(false);
            List<Thread> threads = new ArrayList<Thread>();
            for (int i = 0; i < 8; i++) {
                threads.add(new Thread(() -> {
                    awaitQuietly(start);
                    for (int k = 0; k < 200; k++) {
                        boolean closedBefore = closed.get();
                        ByteBuffer b;
                        try {
                            b = t.acquire();
                        } catch (IllegalStateException e) {
                            return;
                        }
                        holding.incrementAndGet();
                        if (closedBefore)
                            acquiredAfterClose.incrementAndGet();
                        b.getLong(0); // the memory is there
                        holding.decrementAndGet();
                        t.release();
                    }
                }));
            }
            for (Thread th : threads)
                th.start();
            start.countDown();
            Thread.yield();
            t.close();
            closed.set(true);
            for (Thread th : threads)
                th.join();
            assertEquals(0, acquiredAfterClose.get(), "round " + round);
            assertEquals(1, frees.get(), "round " + round);
            assertEquals(0, freedWhileHeld.get(), "round " + round);
            assertTrue(t.isFreed());
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theNativesRefuseWhatTheyDidNotAllocate() {
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeAllocateTable(0));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeAllocateTable(-8));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeAllocateTable(12));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeAllocateTable((128L << 20) + 8));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeAllocateTable(Long.MAX_VALUE));
        assertThrows(NullPointerException.class, () -> FixedBase.nativeFreeTable(null, 1));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeFreeTable(ByteBuffer.allocateDirect(4096), 1));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeFreeTable(ByteBuffer.allocateDirect(8), 1));
        ByteBuffer block = FixedBase.nativeAllocateTable(256);
        long generation = NativeTable.generationOf(block);
        try {
            assertEquals(256 + NativeTable.HEADER_BYTES, block.capacity());
            block.position(NativeTable.HEADER_BYTES);
            ByteBuffer table = block.slice();
            assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeFreeTable(table, generation),
                    "the table slice");
            ByteBuffer shorter = block.duplicate();
            shorter.position(0);
            shorter.limit(128);
            assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeFreeTable(shorter.slice(), generation));
            assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeFreeTable(block, generation + 1),
                    "another generation");
            // An empty block is no table: the natives that read tables refuse it.
            assertThrows(IllegalArgumentException.class,
                    () -> FixedBase.nativeModPow(table, generation, new byte[] {5}, false));
        } finally {
            FixedBase.nativeFreeTable(block, generation);
        }
    }

    /**
     * The natives keep their own record of live blocks: a block freed once is
     * refused when freed again, and its table by every native that reads
     * tables, without touching the unmapped memory (which would kill the JVM);
     * a table in memory the natives did not allocate is refused too.
     */
    @Test
    void theNativesRefuseAFreedTableWithoutTouchingIt() {
        long bytes = FixedBase.nativeTableBytes(64, 3, 2);
        byte[] base = {3};
        byte[] modulus = BigInteger.ONE.shiftLeft(63).add(BigInteger.valueOf(25)).toByteArray();
        ByteBuffer block = FixedBase.nativeAllocateTable(bytes);
        long generation = NativeTable.generationOf(block);
        block.position(NativeTable.HEADER_BYTES);
        ByteBuffer table = block.slice().order(java.nio.ByteOrder.nativeOrder());
        block.position(0);
        FixedBase.nativeBuildTable(table, generation, base, modulus, 3, 2, 64);
        BigInteger want = BigInteger.valueOf(3).modPow(BigInteger.valueOf(1000), new BigInteger(modulus));
        assertEquals(want,
                new BigInteger(FixedBase.nativeModPow(table, generation, BigInteger.valueOf(1000).toByteArray(), false)));
        FixedBase.nativeFreeTable(block, generation);
        for (int round = 0; round < 2; round++) {
            assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeFreeTable(block, generation),
                    "freed again");
            assertThrows(IllegalArgumentException.class,
                    () -> FixedBase.nativeModPow(table, generation, BigInteger.valueOf(1000).toByteArray(), false));
            assertThrows(IllegalArgumentException.class,
                    () -> FixedBase.nativeModPow(table, generation, BigInteger.valueOf(1000).toByteArray(), true));
            assertThrows(IllegalArgumentException.class,
                    () -> FixedBase.nativeBuildTable(table, generation, base, modulus, 3, 2, 64));
        }
        // The same limbs in the JVM's own memory: no block of the natives, refused.
        ByteBuffer foreign = ByteBuffer.allocateDirect((int) bytes).order(java.nio.ByteOrder.nativeOrder());
        assertThrows(IllegalArgumentException.class,
                () -> FixedBase.nativeBuildTable(foreign, generation, base, modulus, 3, 2, 64));
        assertThrows(IllegalArgumentException.class,
                () -> FixedBase.nativeModPow(foreign, generation, BigInteger.valueOf(1000).toByteArray(), false));
    }

    // ---- explicit FixedBase: the caller's, closed or freed when unreachable ----

    @Test
    void closeFreesAnExplicitTableAndLaterUseThrows() {
        Random random = new Random(21);
        BigInteger x = new BigInteger(2040, random);
        BigInteger want = SpeedTest.GROUP14_GENERATOR.modPow(x, P);
        FixedBase fixed = NativeBigInteger.fixedBase(SpeedTest.GROUP14_GENERATOR, P);
        assertEquals(want, fixed.modPow(x));
        assertEquals(want, fixed.modPowCT(x));
        long bytes = fixed.tableBytes();
        assertTrue(bytes > 0);
        assertFalse(fixed.tablesFreed());
        long before = NativeTable.liveBytes();
        fixed.close();
        assertTrue(fixed.tablesFreed());
        assertEquals(before - bytes, NativeTable.liveBytes(), "both tables freed at close");
        assertEquals(0, fixed.tableBytes());
        fixed.close();
        assertEquals(before - bytes, NativeTable.liveBytes(), "closing again frees nothing more");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> fixed.modPow(x));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> fixed.modPowCT(x));
        assertThrows(IllegalStateException.class, () -> fixed.modPow(BigInteger.valueOf(-1)), "fallbacks too");
        assertEquals(P, fixed.modulus());

        // try-with-resources; a FixedBase without a table closes too.
        try (FixedBase even = NativeBigInteger.fixedBase(BigInteger.TEN, BigInteger.valueOf(1000))) {
            assertEquals(BigInteger.valueOf(0), even.modPow(BigInteger.valueOf(3)));
        }
        FixedBase noTable = NativeBigInteger.fixedBase(BigInteger.TEN, BigInteger.ONE);
        noTable.close();
        assertThrows(IllegalStateException.class, () -> noTable.modPow(BigInteger.ONE));
    }

    /**
     * One explicit FixedBase, 6 threads exponentiating, closed in the middle:
     * every call either gives the right value or throws IllegalStateException,
     * and the table is freed once the calls are done.
     */
    @Test
    void closingWhileOtherThreadsExponentiate() throws Exception {
        Random random = new Random(22);
        BigInteger modulus = new BigInteger(1024, random).setBit(1023).setBit(0);
        BigInteger base = new BigInteger(1000, random);
        BigInteger[] exponents = new BigInteger[4];
        BigInteger[] want = new BigInteger[exponents.length];
        for (int j = 0; j < exponents.length; j++) {
            exponents[j] = new BigInteger(1020, random);
            want[j] = base.modPow(exponents[j], modulus);
        }
        for (int round = 0; round < 10; round++) {
            FixedBase fixed = NativeBigInteger.fixedBase(base, modulus);
            AtomicInteger wrong = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            AtomicInteger done = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<Thread>();
            for (int t = 0; t < 6; t++) {
                final int id = t;
                threads.add(new Thread(() -> {
                    awaitQuietly(start);
                    for (int k = 0; k < 60; k++) {
                        int j = (k + id) % exponents.length;
                        try {
                            BigInteger got = (k & 1) == 0 ? fixed.modPow(exponents[j]) : fixed.modPowCT(exponents[j]);
                            if (!got.equals(want[j]))
                                wrong.incrementAndGet();
                            done.incrementAndGet();
                        } catch (IllegalStateException closed) {
                            refused.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread th : threads)
                th.start();
            start.countDown();
            while (done.get() < 20 * (round + 1) && done.get() + refused.get() < 360)
                Thread.yield();
            fixed.close();
            for (Thread th : threads)
                th.join();
            assertEquals(0, wrong.get(), "round " + round);
            assertEquals(360, done.get() + refused.get());
            assertTrue(fixed.tablesFreed(), "round " + round + ": freed after the last call");
        }
    }

    /** FixedBases dropped unclosed are freed after a collection, when later tables are made. */
    @Test
    void droppedFixedBasesAreFreedWithoutClose() throws Exception {
        Random random = new Random(23);
        BigInteger modulus = new BigInteger(1024, random).setBit(1023).setBit(0);
        // What other tests dropped is freed first, so that only these tables are counted.
        for (int attempt = 0; attempt < 3; attempt++) {
            System.gc();
            Thread.sleep(10);
            UnreachableTables.closeAll();
        }
        long before = NativeTable.liveBytes();
        for (int i = 0; i < 20; i++)
            NativeBigInteger.fixedBase(new BigInteger(1000, random), modulus).modPowCT(BigInteger.TEN);
        assertTrue(NativeTable.liveBytes() > before, "the dropped tables are not freed yet");
        long live = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 50 && live > before; attempt++) {
            System.gc();
            Thread.sleep(10);
            try (FixedBase later = NativeBigInteger.fixedBase(BigInteger.valueOf(3), modulus)) {
                live = NativeTable.liveBytes() - later.tableBytes();
            }
        }
        assertTrue(live <= before, "the tables of unreachable FixedBases were freed: " + live + " > " + before);
    }

    // ---- transparent tables, bounded in native memory (fresh JVMs) ----

    private static Subprocess probe(List<String> options, String... args) throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<String>(options);
        jvm.add("-Djava.library.path=" + System.getProperty("java.library.path"));
        Subprocess p = Subprocess.run(Subprocess.mainClasses() + java.io.File.pathSeparator + Subprocess.testClasses(),
                jvm, "net.i2p.util.TableBoundProbe", args);
        assertEquals(0, p.exitCode, p.output);
        assertTrue(p.output.contains("done"), p.output);
        return p;
    }

    private static long field(String output, String key) {
        for (String line : output.split("\n")) {
            if (line.startsWith(key + "="))
                return Long.parseLong(line.substring(key.length() + 1).trim());
        }
        throw new AssertionError("no " + key + " in:\n" + output);
    }

    /**
     * 8 threads, 24 bases, a 512 KiB bound (a few 1024-bit tables): tables
     * are built, used and evicted at once, often while another thread is in
     * the middle of a call with them.  Every result is BigInteger's; the
     * bytes accounted never pass the bound and the native bytes alive never
     * pass the bytes accounted (sampled throughout, and the most accounted as
     * recorded under the cache's lock); at the end, with no call in flight,
     * the native bytes alive are exactly the bytes accounted.
     */
    @Test
    void manyThreadsBuildUseAndEvictTablesWithinTheBound() throws Exception {
        long bound = 512 * 1024;
        Subprocess p = probe(Arrays.asList("-Djbigi.fixedBase.cacheBytes=512k", "-Djbigi.fixedBase.after=2"),
                "churn", "8", "400");
        assertEquals(8 * 400, field(p.output, "calls"), p.output);
        assertEquals(0, field(p.output, "wrong"), p.output);
        assertEquals(bound, field(p.output, "bound"), p.output);
        assertTrue(field(p.output, "most-held") <= bound, p.output);
        assertTrue(field(p.output, "sampled-most-held") <= bound, p.output);
        assertTrue(field(p.output, "sampled-most-live") <= bound, p.output);
        assertEquals(field(p.output, "held-bytes"), field(p.output, "live-bytes"), p.output);
        assertTrue(field(p.output, "tables-admitted") > 24, "tables were evicted and made again:\n" + p.output);
    }

    /** A 2048-bit table (128 KiB or more) under a 100 KiB bound: never made; a 512-bit one is. */
    @Test
    void aTableLargerThanTheBoundIsNeverMade() throws Exception {
        Subprocess p = probe(Arrays.asList("-Djbigi.fixedBase.cacheBytes=100k"), "oversize");
        assertEquals(0, field(p.output, "wrong"), p.output);
        assertEquals(0, field(p.output, "large-held-bytes"), p.output);
        assertEquals(0, field(p.output, "large-live-bytes"), p.output);
        assertTrue(p.output.contains("small-has-table=true"), p.output);
        assertTrue(field(p.output, "most-held") <= 100 * 1024, p.output);
    }

    /**
     * Once the generator has its table, every new allocation fails: other
     * bases go on without tables, the generator keeps its own (and goes
     * without the constant-time one), every result right.
     */
    @Test
    void failedAllocationsKeepTheTablesThatExist() throws Exception {
        Subprocess p = probe(new ArrayList<String>(), "nomemory");
        assertEquals(0, field(p.output, "wrong"), p.output);
        assertTrue(p.output.contains("generator-had-table=true"), p.output);
        assertTrue(p.output.contains("generator-kept-table=true"), p.output);
        assertTrue(field(p.output, "allocation-failures") > 0, p.output);
        assertEquals(1, field(p.output, "held-tables"), p.output);
        assertEquals(field(p.output, "held-bytes"), field(p.output, "live-bytes"), p.output);
    }

    /**
     * 3,000 reused 2048-bit bases in a 256 MiB heap with the default bound
     * (32 MiB): tables freed as they are evicted keep the growth of resident
     * memory within 64 MiB, the heap flat, every result right.  When tables
     * were freed only by collections of their direct buffers, it grew by
     * about 290 MiB.  The heap is committed and touched from the start
     * (-Xms256m -XX:+AlwaysPreTouch), so that what grows is native memory:
     * otherwise G1 grows its young generation into the 256 MiB as it likes,
     * tables or not.  The JIT compiler's working memory is kept out of the
     * readings too: -Xbatch finishes each compilation before the code that
     * asked for it goes on (none is in flight when memory is read), and
     * before each reading the JVM gives the C heap's free memory back where
     * it can (TableBoundProbe.trimNativeHeap).
     */
    @Test
    void threeThousandReusedBasesStayWithinTheBoundInResidentMemory() throws Exception {
        assumeTrue(System.getenv("ASAN_OPTIONS") == null,
                "resident memory is not measured under AddressSanitizer, whose allocator keeps freed memory");
        Subprocess p = probe(Arrays.asList("-Xmx256m", "-Xms256m", "-XX:+AlwaysPreTouch", "-Xbatch"), "rss",
                "3000");
        long growth = field(p.output, "rss-growth-kib");
        System.out.println("3,000 reused bases: resident memory grew by " + growth + " KiB ("
                + field(p.output, "untrimmed-rss-growth-kib") + " KiB before trimming the C heap, trimmed: "
                + p.output.contains("trimmed=true") + "), heap " + field(p.output, "heap-before") + " -> "
                + field(p.output, "heap-after") + " bytes");
        assertEquals(0, field(p.output, "wrong"), p.output);
        assertEquals(3 * 3000, field(p.output, "checked"), p.output);
        assertEquals(32L << 20, field(p.output, "bound"), p.output);
        assertTrue(field(p.output, "most-held") <= 32L << 20, p.output);
        assertTrue(field(p.output, "tables-admitted") >= 3000, p.output);
        assertTrue(growth <= 64 * 1024, "resident memory grew by " + growth + " KiB:\n" + p.output);
        long heapGrowth = field(p.output, "heap-after") - field(p.output, "heap-before");
        assertTrue(heapGrowth <= 8L << 20, "heap grew by " + heapGrowth + " bytes:\n" + p.output);
    }
}
