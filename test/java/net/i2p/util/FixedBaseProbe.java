package net.i2p.util;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run in a fresh JVM by TransparentTablesTest, whose options (heap size,
 * -Djbigi.fixedBase.after, -Djbigi.fixedBase.cacheBytes, -Xlog:gc) are set per
 * run.  Prints key=value lines; never judges, the test does.
 *
 *   race THREADS CALLS   one NativeBigInteger base shared by all threads,
 *                        each call with one of three moduli in turn;
 *                        prints wrong= (results unlike BigInteger's)
 *   heap BASES BITS      BASES NativeBigIntegers kept alive, each used four
 *                        times as a base with one BITS-bit modulus, a hot
 *                        base used between every two of them; prints the
 *                        bytes held at most, the native bytes of tables
 *                        alive at the end, and whether the hot base kept
 *                        its one table
 *   gclocker SECONDS     two threads looping fixed-base modPows, a third
 *                        allocating; the test reads the -Xlog:gc lines
 */
public final class FixedBaseProbe {
    public static void main(String[] args) throws Exception {
        System.out.println("native=" + NativeBigInteger.isNative() + " fixedBase=" + NativeBigInteger.hasFixedBase());
        switch (args[0]) {
        case "race":
            race(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            break;
        case "heap":
            heap(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            break;
        case "gclocker":
            gcLocker(Integer.parseInt(args[1]));
            break;
        default:
            throw new IllegalArgumentException(args[0]);
        }
        System.out.println("done");
    }

    private static void race(int threads, int calls) throws InterruptedException {
        Random random = new Random(7);
        final NativeBigInteger base = new NativeBigInteger(new BigInteger(250, random));
        final BigInteger[] moduli = new BigInteger[3];
        final BigInteger[] exponents = new BigInteger[16];
        final BigInteger[][] want = new BigInteger[moduli.length][exponents.length];
        for (int i = 0; i < moduli.length; i++)
            moduli[i] = new BigInteger(256, random).setBit(255).setBit(0);
        for (int j = 0; j < exponents.length; j++)
            exponents[j] = new BigInteger(250, random);
        for (int i = 0; i < moduli.length; i++)
            for (int j = 0; j < exponents.length; j++)
                want[i][j] = new BigInteger(base.toByteArray()).modPow(exponents[j], moduli[i]);
        final AtomicLong wrong = new AtomicLong();
        final AtomicLong done = new AtomicLong();
        final CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<Thread>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int c = 0; c < calls; c++) {
                    int i = (c + id) % moduli.length;
                    int j = (c * 7 + id) % exponents.length;
                    BigInteger got = (c & 1) == 0 ? base.modPow(exponents[j], moduli[i])
                            : base.modPowCT(exponents[j], moduli[i]);
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
        System.out.println("calls=" + done.get());
        System.out.println("wrong=" + wrong.get());
    }

    private static void heap(int bases, int bits) {
        Random random = new Random(9);
        BigInteger modulus = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
        NativeBigInteger hot = new NativeBigInteger(BigInteger.valueOf(2));
        List<NativeBigInteger> alive = new ArrayList<NativeBigInteger>();
        long mostHeld = 0;
        long wrong = 0;
        FixedBase hotTable = null;
        boolean hotKept = true;
        for (int i = 0; i < bases; i++) {
            NativeBigInteger b = new NativeBigInteger(new BigInteger(bits - 1, random));
            alive.add(b);
            for (int use = 0; use < 4; use++) {
                BigInteger e = new BigInteger(bits - 1, random);
                BigInteger got = b.modPow(e, modulus);
                // The last use is the one a table serves; checking it alone keeps the run short.
                if (use == 3 && !got.equals(new BigInteger(b.toByteArray()).modPow(e, modulus)))
                    wrong++;
                mostHeld = Math.max(mostHeld, TransparentTables.heldBytes());
                hot.modPow(e, modulus);
                TransparentTables.Use use0 = hot.baseUse;
                FixedBase now = use0 == null ? null : use0.fixed;
                if (hotTable == null)
                    hotTable = now;
                else if (now != hotTable)
                    hotKept = false;
            }
        }
        System.gc();
        System.out.println("bases=" + alive.size());
        System.out.println("wrong=" + wrong);
        System.out.println("bound=" + TransparentTables.MAX_BYTES);
        System.out.println("most-held=" + mostHeld);
        System.out.println("held-tables=" + TransparentTables.heldTables());
        System.out.println("tables-admitted=" + TransparentTables.tablesAdmitted());
        System.out.println("hot-kept=" + (hotTable != null && hotKept));
        System.out.println("held-bytes=" + TransparentTables.heldBytes());
        System.out.println("live-table-bytes=" + NativeTable.liveBytes());
        System.out.println("heap-used=" + (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()));
    }

    private static void gcLocker(int seconds) throws InterruptedException {
        Random random = new Random(3);
        final BigInteger modulus = new BigInteger(2048, random).setBit(2047).setBit(0);
        final FixedBase fixed = NativeBigInteger.fixedBase(new BigInteger(2000, random), modulus);
        final BigInteger exponent = new BigInteger(2040, random);
        final long end = System.nanoTime() + seconds * 1000000000L;
        final AtomicLong powers = new AtomicLong();
        List<Thread> threads = new ArrayList<Thread>();
        for (int t = 0; t < 2; t++) {
            threads.add(new Thread(() -> {
                while (System.nanoTime() < end) {
                    fixed.modPow(exponent);
                    fixed.modPowCT(exponent);
                    powers.addAndGet(2);
                }
            }));
        }
        threads.add(new Thread(() -> {
            long sink = 0;
            while (System.nanoTime() < end) {
                byte[] garbage = new byte[64 * 1024];
                sink += garbage.length;
            }
            System.out.println("allocated=" + sink);
        }));
        for (Thread t : threads)
            t.start();
        for (Thread t : threads)
            t.join();
        System.out.println("powers=" + powers.get());
    }
}
