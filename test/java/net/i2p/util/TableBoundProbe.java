package net.i2p.util;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;

/**
 * Run in a fresh JVM by TableMemoryTest: the bound on transparent tables in
 * native memory, each mode with the options its test sets.  Prints
 * key=value lines; never judges, the test does.
 *
 *   churn THREADS CALLS   THREADS threads share a pool of bases, each used
 *                         over and over, so tables are built, used and
 *                         evicted at once; a sampler watches the bytes
 *                         accounted and the native bytes alive throughout
 *   oversize              a base whose table is larger than the bound, then
 *                         one whose table fits
 *   nomemory              the generator gets its table, then every new table
 *                         fails to allocate while other bases come and go
 *   rss BASES             BASES new 2048-bit bases, each used three times
 *                         (a table on the third use, as by default) with
 *                         256-bit exponents, then dropped: resident memory
 *                         and heap before and after
 */
public final class TableBoundProbe {
    public static void main(String[] args) throws Exception {
        System.out.println("native=" + NativeBigInteger.isNative() + " fixedBase=" + NativeBigInteger.hasFixedBase());
        System.out.println("bound=" + TransparentTables.MAX_BYTES);
        switch (args[0]) {
        case "churn":
            churn(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            break;
        case "oversize":
            oversize();
            break;
        case "nomemory":
            noMemory();
            break;
        case "rss":
            rss(Integer.parseInt(args[1]));
            break;
        default:
            throw new IllegalArgumentException(args[0]);
        }
        System.out.println("held-bytes=" + TransparentTables.heldBytes());
        System.out.println("most-held=" + TransparentTables.mostHeldBytes());
        System.out.println("live-bytes=" + NativeTable.liveBytes());
        System.out.println("tables-admitted=" + TransparentTables.tablesAdmitted());
        System.out.println("allocation-failures=" + TransparentTables.allocationFailures());
        System.out.println("done");
    }

    private static BigInteger oddModulus(Random random, int bits) {
        return new BigInteger(bits, random).setBit(bits - 1).setBit(0);
    }

    private static void churn(int threads, final int calls) throws InterruptedException {
        Random random = new Random(11);
        final BigInteger modulus = oddModulus(random, 1024);
        final NativeBigInteger[] bases = new NativeBigInteger[24];
        final BigInteger[] exponents = new BigInteger[4];
        final BigInteger[][] want = new BigInteger[bases.length][exponents.length];
        for (int j = 0; j < exponents.length; j++)
            exponents[j] = new BigInteger(1000, random);
        for (int i = 0; i < bases.length; i++) {
            bases[i] = new NativeBigInteger(new BigInteger(1000, random));
            for (int j = 0; j < exponents.length; j++)
                want[i][j] = new BigInteger(bases[i].toByteArray()).modPow(exponents[j], modulus);
        }
        final AtomicLong wrong = new AtomicLong();
        final AtomicLong done = new AtomicLong();
        final AtomicLong mostLive = new AtomicLong();
        final AtomicLong mostAccounted = new AtomicLong();
        final AtomicBoolean running = new AtomicBoolean(true);
        final CountDownLatch start = new CountDownLatch(1);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                mostLive.set(Math.max(mostLive.get(), NativeTable.liveBytes()));
                mostAccounted.set(Math.max(mostAccounted.get(), TransparentTables.heldBytes()));
            }
        });
        sampler.start();
        List<Thread> workers = new ArrayList<Thread>();
        for (int t = 0; t < threads; t++) {
            final Random mine = new Random(100 + t);
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int c = 0; c < calls; c++) {
                    // A few bases at a time, so that each is used often enough to get a table.
                    int i = (c / 16 + mine.nextInt(3)) % bases.length;
                    int j = mine.nextInt(exponents.length);
                    BigInteger got = mine.nextBoolean() ? bases[i].modPow(exponents[j], modulus)
                            : bases[i].modPowCT(exponents[j], modulus);
                    if (!got.equals(want[i][j]))
                        wrong.incrementAndGet();
                    done.incrementAndGet();
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers)
            worker.join();
        running.set(false);
        sampler.join();
        System.out.println("calls=" + done.get());
        System.out.println("wrong=" + wrong.get());
        System.out.println("sampled-most-live=" + mostLive.get());
        System.out.println("sampled-most-held=" + mostAccounted.get());
    }

    private static void oversize() {
        Random random = new Random(12);
        BigInteger big = oddModulus(random, 2048);
        NativeBigInteger base = new NativeBigInteger(new BigInteger(2000, random));
        long wrong = 0;
        for (int i = 0; i < 6; i++) {
            BigInteger e = new BigInteger(2000, random);
            if (!base.modPow(e, big).equals(new BigInteger(base.toByteArray()).modPow(e, big)))
                wrong++;
        }
        System.out.println("large-held-bytes=" + TransparentTables.heldBytes());
        System.out.println("large-live-bytes=" + NativeTable.liveBytes());
        BigInteger small = oddModulus(random, 512);
        NativeBigInteger smallBase = new NativeBigInteger(new BigInteger(500, random));
        for (int i = 0; i < 6; i++) {
            BigInteger e = new BigInteger(500, random);
            if (!smallBase.modPow(e, small).equals(new BigInteger(smallBase.toByteArray()).modPow(e, small)))
                wrong++;
        }
        TransparentTables.Use use = smallBase.baseUse;
        System.out.println("small-has-table=" + (use != null && use.fixed != null && use.fixed.hasTable(false)));
        System.out.println("wrong=" + wrong);
    }

    private static void noMemory() {
        Random random = new Random(13);
        BigInteger p = SpeedTest.GROUP14_PRIME;
        NativeBigInteger g = new NativeBigInteger(SpeedTest.GROUP14_GENERATOR);
        long wrong = 0;
        for (int i = 0; i < 4; i++)
            g.modPow(new BigInteger(2040, random), p);
        FixedBase generatorTable = g.baseUse.fixed;
        System.out.println("generator-had-table=" + (generatorTable != null && generatorTable.hasTable(false)));
        NativeTable.failingAllocations.set(Integer.MAX_VALUE);
        for (int b = 0; b < 20; b++) {
            NativeBigInteger other = new NativeBigInteger(new BigInteger(2040, random));
            for (int use = 0; use < 4; use++) {
                BigInteger e = new BigInteger(2040, random);
                BigInteger got = other.modPow(e, p);
                if (use == 3 && !got.equals(new BigInteger(other.toByteArray()).modPow(e, p)))
                    wrong++;
                BigInteger x = new BigInteger(2040, random);
                // modPowCT wants a second table for the generator: it cannot have one either.
                BigInteger gx = use % 2 == 0 ? g.modPow(x, p) : g.modPowCT(x, p);
                if (b % 5 == 0 && !gx.equals(SpeedTest.GROUP14_GENERATOR.modPow(x, p)))
                    wrong++;
            }
        }
        NativeTable.failingAllocations.set(0);
        FixedBase now = g.baseUse.fixed;
        System.out.println("generator-kept-table=" + (now == generatorTable && now.hasTable(false)));
        System.out.println("held-tables=" + TransparentTables.heldTables());
        System.out.println("wrong=" + wrong);
    }

    private static void rss(int bases) throws IOException {
        Random random = new Random(14);
        BigInteger p = SpeedTest.GROUP14_PRIME;
        // Warm up, so that the JIT compiler has done most of its work (and
        // taken its memory) before the first reading: the same calls, each
        // table an explicit one, closed at once, and no transparent table
        // (two uses a base), so that none is held when memory is first read.
        for (int b = 0; b < 300; b++) {
            NativeBigInteger base = new NativeBigInteger(new BigInteger(2040, random));
            BigInteger e = new BigInteger(256, random);
            BigInteger want = new BigInteger(base.toByteArray()).modPow(e, p);
            try (FixedBase fixed = NativeBigInteger.fixedBase(base, p)) {
                if (!fixed.modPow(e).equals(want))
                    throw new AssertionError("warm-up: wrong result");
            }
            for (int use = 0; use < 2; use++)
                want = base.modPow(e.add(BigInteger.valueOf(use)), p).multiply(base).mod(p);
        }
        if (TransparentTables.heldBytes() != 0)
            throw new AssertionError("warm-up left a transparent table");
        long heapBefore = heapAfterCollection();
        boolean trimmed = trimNativeHeap();
        long rssBefore = rssKiB();
        long wrong = 0;
        long checked = 0;
        for (int b = 0; b < bases; b++) {
            NativeBigInteger base = new NativeBigInteger(new BigInteger(2040, random));
            // Short exponents, as I2P's Diffie-Hellman uses (the table is the
            // same): e, e + 1, e + 2, each result the one before times the
            // base, the first BigInteger's.
            BigInteger e = new BigInteger(256, random);
            BigInteger want = new BigInteger(base.toByteArray()).modPow(e, p);
            for (int use = 0; use < 3; use++) {
                BigInteger got = base.modPow(e.add(BigInteger.valueOf(use)), p);
                checked++;
                if (!got.equals(want))
                    wrong++;
                want = want.multiply(base).mod(p);
            }
        }
        // Read before any collection: memory that only a collection would free counts.
        long untrimmedRssAfter = rssKiB();
        trimmed &= trimNativeHeap();
        long rssAfter = trimmed ? rssKiB() : untrimmedRssAfter;
        long peak = statusKiB("VmHWM:");
        long heapAfter = heapAfterCollection();
        System.out.println("bases=" + bases);
        System.out.println("checked=" + checked);
        System.out.println("wrong=" + wrong);
        System.out.println("rss-before-kib=" + rssBefore);
        System.out.println("rss-after-kib=" + rssAfter);
        System.out.println("rss-growth-kib=" + (rssAfter - rssBefore));
        System.out.println("untrimmed-rss-growth-kib=" + (untrimmedRssAfter - rssBefore));
        System.out.println("peak-rss-growth-kib=" + (peak - rssBefore));
        System.out.println("trimmed=" + trimmed);
        System.out.println("heap-before=" + heapBefore);
        System.out.println("heap-after=" + heapAfter);
    }

    /**
     * Asks the JVM to give the C heap's free memory back to the system
     * (jcmd System.trim_native_heap, JDK 17.0.9 and later), as it does now
     * and then with -XX:TrimNativeHeapInterval: without it the arenas the JIT
     * compiler freed stay resident, 10 to 70 MiB that vary from run to run.
     * Returns whether the JVM could.
     */
    static boolean trimNativeHeap() {
        try {
            ObjectName diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
            ManagementFactory.getPlatformMBeanServer().invoke(diagnostics, "systemTrimNativeHeap",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            return true;
        } catch (Exception notThere) {
            return false;
        }
    }

    /** VmRSS of this process, in KiB; -1 where /proc does not say. */
    private static long rssKiB() throws IOException {
        return statusKiB("VmRSS:");
    }

    /** A line of /proc/self/status, in KiB; -1 where /proc does not say. */
    private static long statusKiB(String key) throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.UTF_8)) {
            if (line.startsWith(key))
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    private static long heapAfterCollection() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
