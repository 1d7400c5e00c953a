package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many threads in the natives at once, on shared operands: every result
 * must still be BigInteger's.  The library keeps no global state, so any
 * mix-up (a shared buffer, a static mpz_t, a lazily initialised cache in
 * NativeBigInteger) shows up as a wrong value here.
 *
 * The expected outcomes are computed up front, single-threaded, so that
 * the threads spend their time in native code rather than in BigInteger,
 * and the threads are released together.  Replay with -Djbigi.test.seed=N.
 */
class ConcurrencyTest {
    private static final int THREADS = Math.max(16, 2 * Runtime.getRuntime().availableProcessors());
    private static final int CALLS_PER_THREAD = 2000;
    private static final int CASES = 500;

    /** One set of operands, shared by all threads, with what each operation must give. */
    private static final class Case {
        final BigInteger base;
        final BigInteger exponent;
        final BigInteger modulus;
        /** Built from bytes, so its cached byte form is filled in by whichever thread gets there first. */
        final NativeBigInteger nativeBase;
        final byte[] baseBytes;
        final byte[] exponentBytes;
        final byte[] modulusBytes;
        final Outcome power;
        final Outcome powerCT;
        final Outcome inverse;

        Case(BigInteger base, BigInteger exponent, BigInteger modulus) {
            this.base = base;
            this.exponent = exponent;
            this.modulus = modulus;
            this.nativeBase = new NativeBigInteger(base.toByteArray());
            this.baseBytes = base.toByteArray();
            this.exponentBytes = exponent.toByteArray();
            this.modulusBytes = modulus.toByteArray();
            this.power = Outcome.of(() -> base.modPow(exponent, modulus));
            // The native CT entry refuses even moduli and exponents <= 0; the public modPowCT falls back instead.
            this.powerCT = modulus.testBit(0) && exponent.signum() > 0 ? power
                    : Outcome.of(() -> {
                        throw new ArithmeticException("refused");
                    });
            this.inverse = Outcome.of(() -> base.modInverse(modulus));
        }
    }

    private static Case randomCase(Random random) {
        int bits = 1 + random.nextInt(2048);
        BigInteger modulus = new BigInteger(bits, random).add(BigInteger.ONE);
        if (random.nextInt(4) != 0)
            modulus = modulus.setBit(0);
        BigInteger base = new BigInteger(1 + random.nextInt(bits + 64), random);
        if (random.nextBoolean())
            base = base.negate();
        // Exponents mostly shorter than the modulus, to keep BigInteger's share of the run small.
        BigInteger exponent = new BigInteger(1 + random.nextInt(Math.min(bits, 512)), random);
        if (random.nextInt(8) == 0)
            exponent = exponent.negate();
        return new Case(base, exponent, modulus);
    }

    /** One call, chosen at random among the three operations and the ways to reach them. */
    private static String oneCall(Case c, Random random) {
        Outcome want;
        Outcome got;
        String op;
        switch (random.nextInt(7)) {
        case 0:
            op = "modPow";
            want = c.power;
            got = Outcome.of(() -> c.nativeBase.modPow(c.exponent, c.modulus));
            break;
        case 1:
            op = "static modPowCT";
            want = c.power;
            got = Outcome.of(() -> NativeBigInteger.modPowCT(c.base, c.exponent, c.modulus));
            break;
        case 2:
            op = "modInverse";
            want = c.inverse;
            got = Outcome.of(() -> c.nativeBase.modInverse(c.modulus));
            break;
        case 3:
            op = "nativeModPow";
            want = c.power;
            got = Outcome.of(() -> new BigInteger(NativeBigInteger.nativeModPow(c.baseBytes, c.exponentBytes, c.modulusBytes)));
            break;
        case 4:
            op = "nativeModPowCT";
            want = c.powerCT;
            got = Outcome.of(() -> new BigInteger(NativeBigInteger.nativeModPowCT(c.baseBytes, c.exponentBytes, c.modulusBytes)));
            break;
        case 5:
            op = "nativeModInverse";
            want = c.inverse;
            got = Outcome.of(() -> new BigInteger(NativeBigInteger.nativeModInverse(c.baseBytes, c.modulusBytes)));
            break;
        default:
            op = "modPowCT";
            want = c.power;
            got = Outcome.of(() -> c.nativeBase.modPowCT(c.exponent, c.modulus));
            break;
        }
        if (want.sameAs(got))
            return null;
        return op + "(" + c.base.toString(16) + ", " + c.exponent.toString(16) + ", " + c.modulus.toString(16)
                + "): expected " + want + ", got " + got;
    }

    @Test
    void threadsGetBigIntegersResults() throws Exception {
        long seed = Long.getLong("jbigi.test.seed", System.nanoTime());
        Random random = new Random(seed);
        List<Case> cases = new ArrayList<Case>();
        for (int i = 0; i < CASES; i++)
            cases.add(randomCase(random));

        Queue<String> failures = new ConcurrentLinkedQueue<String>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<Integer>> done = new ArrayList<Future<Integer>>();
        for (int t = 0; t < THREADS; t++) {
            long threadSeed = seed + 1 + t;
            done.add(pool.submit(() -> {
                Random own = new Random(threadSeed);
                start.await();
                int calls = 0;
                for (; calls < CALLS_PER_THREAD; calls++) {
                    String failure = oneCall(cases.get(own.nextInt(cases.size())), own);
                    if (failure != null)
                        failures.add(failure);
                }
                return calls;
            }));
        }
        start.countDown();
        pool.shutdown();
        boolean finished = pool.awaitTermination(5, TimeUnit.MINUTES);
        assertTrue(finished, "threads still running after 5 minutes: deadlock?");
        int calls = 0;
        for (Future<Integer> f : done)
            calls += f.get();

        System.out.println("concurrency: " + THREADS + " threads x " + CALLS_PER_THREAD + " calls = " + calls
                + " calls on " + CASES + " shared cases, seed " + seed);
        assertEquals(THREADS * CALLS_PER_THREAD, calls);
        assertTrue(failures.isEmpty(), failures.size() + " wrong results (seed " + seed + "), first ones:\n"
                + String.join("\n", new ArrayList<String>(failures).subList(0, Math.min(10, failures.size()))));
        // The shared input arrays were only read.
        for (Case c : cases) {
            assertArrayEquals(c.base.toByteArray(), c.baseBytes);
            assertArrayEquals(c.exponent.toByteArray(), c.exponentBytes);
            assertArrayEquals(c.modulus.toByteArray(), c.modulusBytes);
            assertArrayEquals(c.base.toByteArray(), c.nativeBase.toByteArray());
        }
    }
}
