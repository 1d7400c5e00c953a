package net.i2p.util;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;

/**
 * The Legendre symbol under p = 2^255 - 19 as I2P's Elligator2 asks it,
 * x.modPow((p-1)/2, p) with a fresh x each call, through nativeModPow as
 * I2P's NativeBigInteger calls it (toByteArray() of each operand, a new
 * value from the result), against BigInteger.modPow, in one JVM: blocks of
 * each in turn on the thread's CPU clock, the median over rounds of each
 * one's time per call and of its ratio to BigInteger's.  Beside them: the
 * power next to it ((p-1)/2 - 1, no shortcut), NativeBigInteger.jacobi and
 * the pure-Java Jacobi.  A measurement, never a test:
 *
 *   javac -d build/bench/legendre -cp build/classes test/bench/LegendreBench.java
 *   java -Djava.library.path=lib -cp build/classes:build/bench/legendre net.i2p.util.LegendreBench [ROUNDS]
 */
public final class LegendreBench {
    private static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
    private static final BigInteger HALF = P.subtract(BigInteger.ONE).shiftRight(1);
    private static final BigInteger HALF_LESS = HALF.subtract(BigInteger.ONE);
    private static final int CALLS = 2000;
    private static final int BLOCK = 50;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private LegendreBench() {
    }

    private interface Call {
        long run(BigInteger x);
    }

    private static final Call[] CALLS_UNDER_TEST = {
        x -> x.modPow(HALF, P).longValue(), // BigInteger
        x -> new NativeBigInteger(NativeBigInteger.nativeModPow(x.toByteArray(), HALF.toByteArray(), P.toByteArray()))
                .longValue(),
        x -> new NativeBigInteger(NativeBigInteger.nativeModPow(x.toByteArray(), HALF_LESS.toByteArray(),
                P.toByteArray())).longValue(),
        x -> x.modPow(HALF_LESS, P).longValue(),
        x -> NativeBigInteger.jacobi(x, P),
        x -> Jacobi.inJava(x, P),
    };

    private static final String[] NAMES = {"BigInteger.modPow((p-1)/2)", "nativeModPow((p-1)/2), I2P's call",
        "nativeModPow((p-1)/2 - 1), the power", "BigInteger.modPow((p-1)/2 - 1)", "NativeBigInteger.jacobi",
        "Jacobi.inJava (the fallback)"};

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 21;
        System.out.println("# " + NativeBigInteger.loadStatus());
        Random random = new Random(1);
        BigInteger[] xs = new BigInteger[CALLS];
        for (int i = 0; i < CALLS; i++)
            xs[i] = new BigInteger(255, random).mod(P);
        int n = CALLS_UNDER_TEST.length;
        double[][] perCall = new double[n][rounds];
        double[][] ratio = new double[n][rounds];
        long sink = 0;
        for (int r = -3; r < rounds; r++) { // three rounds of warm-up
            long[] ns = new long[n];
            for (int i0 = 0; i0 < CALLS; i0 += BLOCK) {
                for (int k = 0; k < n; k++) {
                    long t0 = THREADS.getCurrentThreadCpuTime();
                    for (int i = i0; i < i0 + BLOCK; i++)
                        sink += CALLS_UNDER_TEST[k].run(xs[i]);
                    ns[k] += THREADS.getCurrentThreadCpuTime() - t0;
                }
            }
            if (r < 0)
                continue;
            for (int k = 0; k < n; k++) {
                perCall[k][r] = ns[k] / (double) CALLS;
                ratio[k][r] = ns[k] / (double) ns[0];
            }
        }
        System.out.println("# " + rounds + " rounds of " + CALLS + " fresh bases, blocks of " + BLOCK + " in turn; sink "
                + (sink & 1));
        for (int k = 0; k < n; k++)
            System.out.printf("%-40s %9.0f ns  %.3f of BigInteger.modPow((p-1)/2)%n", NAMES[k], median(perCall[k]),
                    median(ratio[k]));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
