package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * One NativeBigInteger shared by calls in flight while a constant-time call
 * marks it secret: every result must still be BigInteger's.
 *
 * <p>Each round takes a fresh value, whose byte form a first modPow caches;
 * two threads then call modPow with it over and over while a third, once
 * both have started, uses it as the exponent of a modPowCT (p prime), which
 * marks it secret.  A value is marked only once, so only a fresh one can
 * race: the cached array that calls in flight are reading must not be
 * written under them (a zeroed exponent gives 1, a zeroed base 0, a zeroed
 * modulus an ArithmeticException).  The shared value is, in turn, the
 * exponent, the base, the modulus (one thread's modulus and the other's
 * base), the exponent of an explicit FixedBase, and the exponent of a
 * transparent table.
 *
 * <p>Each race runs for -Djbigi.race.millis (default 500) and at least
 * -Djbigi.race.rounds rounds (default 500; for at most ten times the
 * time) or, with -Djbigi.race.calls=N, until N modPow calls are made; each
 * prints its count.  Replay with -Djbigi.test.seed=N.
 */
class OwnershipRaceTest {
    private static final long MILLIS = Long.getLong("jbigi.race.millis", 500);
    private static final long CALLS = Long.getLong("jbigi.race.calls", 0);
    /** Rounds each timed race makes at least (a loaded machine makes them slowly), for at most 10 times the time. */
    private static final long ROUNDS = Long.getLong("jbigi.race.rounds", 500);
    private static final long SEED = Long.getLong("jbigi.test.seed", System.nanoTime());

    private static final Random RANDOM = new Random(SEED);
    /** Small operands: short calls, so a large share of each is the time around the native call. */
    private static final BigInteger M = BigInteger.probablePrime(64, RANDOM);
    private static final BigInteger P = BigInteger.probablePrime(64, RANDOM);
    private static final BigInteger B = new BigInteger(63, RANDOM).setBit(1);
    private static final BigInteger C = new BigInteger(63, RANDOM).setBit(2);
    /** Longer than M: no transparent table serves a NativeBigInteger base with it. */
    private static final BigInteger LONG_E = new BigInteger(100, RANDOM).setBit(99);

    /** One round: the shared value's calls, each true when its result is BigInteger's. */
    private abstract static class Round {
        volatile boolean firstStarted;
        volatile boolean secondStarted;
        /** Set once mark() has returned: calls that start later cannot race any more. */
        volatile boolean marked;

        /** One modPow of worker 0 or 1; its call number alternates roles where there are two. */
        abstract boolean work(int worker, long call);

        /** The modPowCT that marks the shared value secret. */
        abstract boolean mark();
    }

    @Test
    void anExponentMarkedSecretIsNeverZeroedUnderACallReadingIt() throws Exception {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        race("exponent", () -> {
            BigInteger plain = new BigInteger(64, RANDOM).setBit(63);
            NativeBigInteger e = new NativeBigInteger(plain.toByteArray());
            BigInteger power = B.modPow(plain, M);
            BigInteger powerCT = C.modPow(plain, P);
            assertEquals(power, NativeBigInteger.modPow(B, e, M)); // caches e's byte form
            return new Round() {
                boolean work(int worker, long call) {
                    return power.equals(NativeBigInteger.modPow(B, e, M));
                }

                boolean mark() {
                    return powerCT.equals(NativeBigInteger.modPowCT(C, e, P));
                }
            };
        });
    }

    @Test
    void aBaseMarkedSecretIsNeverZeroedUnderACallReadingIt() throws Exception {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        race("base", () -> {
            BigInteger plain = new BigInteger(63, RANDOM).setBit(62);
            NativeBigInteger x = new NativeBigInteger(plain.toByteArray());
            BigInteger power = plain.modPow(LONG_E, M);
            BigInteger powerCT = C.modPow(plain, P);
            assertEquals(power, NativeBigInteger.modPow(x, LONG_E, M)); // caches x's byte form
            return new Round() {
                boolean work(int worker, long call) {
                    return power.equals(NativeBigInteger.modPow(x, LONG_E, M));
                }

                boolean mark() {
                    return powerCT.equals(NativeBigInteger.modPowCT(C, x, P));
                }
            };
        });
    }

    @Test
    void aModulusMarkedSecretIsNeverZeroedUnderACallReadingIt() throws Exception {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        race("modulus", () -> {
            BigInteger plain = new BigInteger(64, RANDOM).setBit(63).setBit(0);
            NativeBigInteger x = new NativeBigInteger(plain.toByteArray());
            BigInteger asModulus = B.modPow(LONG_E, plain);
            BigInteger asBase = plain.modPow(LONG_E, M);
            BigInteger powerCT = C.modPow(plain, P);
            assertEquals(asModulus, NativeBigInteger.modPow(B, LONG_E, x)); // caches x's byte form
            return new Round() {
                boolean work(int worker, long call) {
                    // One thread's modulus while the other's base, and the other way round.
                    if (((call + worker) & 1) == 0)
                        return asModulus.equals(NativeBigInteger.modPow(B, LONG_E, x));
                    return asBase.equals(NativeBigInteger.modPow(x, LONG_E, M));
                }

                boolean mark() {
                    return powerCT.equals(NativeBigInteger.modPowCT(C, x, P));
                }
            };
        });
    }

    @Test
    void anExplicitFixedBasesExponentMarkedSecretIsNeverZeroedUnderACallReadingIt() throws Exception {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.hasFixedBase(), "no fixed-base natives");
        BigInteger g = new BigInteger(63, RANDOM).setBit(62);
        try (FixedBase fixed = NativeBigInteger.fixedBase(g, P)) {
            assertTrue(fixed.usesTable());
            race("explicit FixedBase", () -> {
                BigInteger plain = new BigInteger(64, RANDOM).setBit(63);
                NativeBigInteger e = new NativeBigInteger(plain.toByteArray());
                BigInteger power = g.modPow(plain, P);
                assertEquals(power, fixed.modPow(e)); // caches e's byte form
                return new Round() {
                    boolean work(int worker, long call) {
                        return power.equals(fixed.modPow(e));
                    }

                    boolean mark() {
                        return power.equals(fixed.modPowCT(e));
                    }
                };
            });
        }
    }

    @Test
    void aTransparentTablesExponentMarkedSecretIsNeverZeroedUnderACallReadingIt() throws Exception {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.hasFixedBase(), "no fixed-base natives");
        assumeTrue(TransparentTables.AFTER_USES > 0 && TransparentTables.MAX_BYTES > 0, "transparent tables are off");
        BigInteger plainG = new BigInteger(63, RANDOM).setBit(62);
        NativeBigInteger g = new NativeBigInteger(plainG.toByteArray());
        for (int i = 0; i <= TransparentTables.AFTER_USES; i++) {
            NativeBigInteger.modPow(g, BigInteger.valueOf(3 + i), P);
            NativeBigInteger.modPowCT(g, BigInteger.valueOf(3 + i), P);
        }
        assertNotNull(g.baseUse, "g was not counted as a base");
        assertNotNull(g.baseUse.fixed, "g has no transparent table");
        race("transparent table", () -> {
            BigInteger plain = new BigInteger(64, RANDOM).setBit(63);
            NativeBigInteger e = new NativeBigInteger(plain.toByteArray());
            BigInteger power = plainG.modPow(plain, P);
            assertEquals(power, NativeBigInteger.modPow(g, e, P)); // caches e's byte form
            return new Round() {
                boolean work(int worker, long call) {
                    return power.equals(NativeBigInteger.modPow(g, e, P));
                }

                boolean mark() {
                    return power.equals(NativeBigInteger.modPowCT(g, e, P));
                }
            };
        });
    }

    /**
     * Runs rounds until the time or the calls are used up: two workers call
     * the current round's modPow in a loop, while this thread makes each
     * round, waits until both workers have started a call in it, and marks.
     */
    private static void race(String name, Supplier<Round> rounds) throws InterruptedException {
        AtomicLong calls = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        Queue<String> firstWrong = new ConcurrentLinkedQueue<String>();
        Thread[] workers = new Thread[2];
        Round first = rounds.get();
        Holder holder = new Holder(first);
        for (int w = 0; w < 2; w++) {
            final int worker = w;
            workers[w] = new Thread(() -> {
                long call = 0;
                Round done = null;
                while (!holder.stop) {
                    Round r = holder.round;
                    if (r == done) { // leave the processors to the next round's making
                        LockSupport.parkNanos(1000);
                        continue;
                    }
                    if (r.marked)
                        done = r;
                    if (worker == 0)
                        r.firstStarted = true;
                    else
                        r.secondStarted = true;
                    boolean right;
                    String failure = null;
                    try {
                        right = r.work(worker, call);
                    } catch (RuntimeException e) {
                        right = false;
                        failure = e.toString();
                    }
                    call++;
                    calls.incrementAndGet();
                    if (!right) {
                        wrong.incrementAndGet();
                        if (firstWrong.size() < 5)
                            firstWrong.add("modPow call " + call + " of worker " + worker
                                    + (failure == null ? ": wrong value" : ": " + failure));
                    }
                }
            }, "race-" + name + "-" + w);
            workers[w].start();
        }
        long start = System.nanoTime();
        long deadline = start + MILLIS * 1000000L;
        long lastDeadline = start + 10 * MILLIS * 1000000L;
        long made = 0;
        try {
            Round r = first;
            while (CALLS > 0 ? calls.get() < CALLS : more(made, deadline, lastDeadline)) {
                while (!(r.firstStarted && r.secondStarted))
                    LockSupport.parkNanos(1000);
                boolean right;
                String failure = null;
                try {
                    right = r.mark();
                } catch (RuntimeException e) {
                    right = false;
                    failure = e.toString();
                }
                if (!right) {
                    wrong.incrementAndGet();
                    firstWrong.add("modPowCT of round " + made + (failure == null ? ": wrong value" : ": " + failure));
                }
                r.marked = true;
                made++;
                r = rounds.get();
                holder.round = r;
            }
        } finally {
            holder.stop = true;
            for (Thread t : workers)
                t.join();
        }
        long millis = (System.nanoTime() - start) / 1000000L;
        System.out.println("race " + name + ": " + calls.get() + " modPow calls and " + made
                + " modPowCT calls in " + millis + " ms, " + wrong.get() + " wrong (seed " + SEED + ")");
        assertEquals(0, wrong.get(), name + ": " + wrong.get() + " wrong results in " + calls.get()
                + " calls (seed " + SEED + "), first: " + firstWrong);
    }

    /** Whether a timed race goes on: until the time is up and enough rounds are made, or the last deadline. */
    private static boolean more(long made, long deadline, long lastDeadline) {
        long now = System.nanoTime();
        return now - lastDeadline < 0 && (now - deadline < 0 || made < ROUNDS);
    }

    /** The round the workers call, and whether to stop. */
    private static final class Holder {
        volatile Round round;
        volatile boolean stop;

        Holder(Round round) {
            this.round = round;
        }
    }
}
