package net.i2p.util;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * The speed test behind {@code java net.i2p.util.NativeBigInteger}: I2P's
 * three runs (modPow, modPowCT, modInverse) over the RFC 3526 2048-bit MODP
 * group, each with a new generator object per run as I2P's test does; then
 * modPow and modPowCT again with one generator object reused, as I2P's
 * CryptoConstants.elgg is, which builds a fixed-base table.  Each native
 * result is checked against BigInteger's.
 */
final class SpeedTest {
    /** RFC 3526 group 14: the 2048-bit MODP prime, generator 2. */
    static final BigInteger GROUP14_PRIME = new BigInteger(
            "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
            + "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
            + "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
            + "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
            + "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
            + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718"
            + "3995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF", 16);
    static final BigInteger GROUP14_GENERATOR = BigInteger.valueOf(2);

    private enum Operation {
        MOD_POW("modPow", 100),
        MOD_POW_CT("modPowCT", 100),
        MOD_INVERSE("modInverse", 10000),
        /** One generator object for all runs: its fixed-base table is built on the third. */
        FIXED_BASE_MOD_POW("modPow, reused base (fixed-base table)", 100),
        FIXED_BASE_MOD_POW_CT("modPowCT, reused base (fixed-base table)", 100);

        final String label;
        final int runs;

        Operation(String label, int runs) {
            this.label = label;
            this.runs = runs;
        }
    }

    private final SecureRandom random = new SecureRandom();
    private final boolean skipJava;

    private SpeedTest(boolean skipJava) {
        this.skipJava = skipJava;
    }

    /** Returns the process exit status. */
    static int run(String[] args) {
        boolean skipJava = false;
        for (String arg : args) {
            if (arg.equals("-n")) {
                skipJava = true;
            } else {
                System.err.println("usage: java net.i2p.util.NativeBigInteger [-n]   (-n: native only, no Java timing)");
                return 2;
            }
        }
        printEnvironment();
        if (skipJava && !NativeBigInteger.isNative()) {
            System.out.println("The native library is not loaded: nothing to time with -n.");
            return 1;
        }
        return new SpeedTest(skipJava).runAll() ? 0 : 1;
    }

    private static void printEnvironment() {
        // The release version: the jar's manifest (Implementation-Version, from the file VERSION).
        Package own = SpeedTest.class.getPackage();
        String release = own == null ? null : own.getImplementationVersion();
        System.out.println("Release: " + (release != null ? release : "unknown (not run from jbigi's jar)"));
        System.out.println("java.library.path: " + JbigiProperties.get("java.library.path", ""));
        System.out.println("Status: " + NativeBigInteger.loadStatus());
        if (NativeBigInteger.getLoadedResourceName() != null)
            System.out.println("Loaded from resource: " + NativeBigInteger.getLoadedResourceName());
        System.out.println("CPU: " + NativeBigInteger.cpuModel() + " (type " + NativeBigInteger.cpuType() + ")");
        if (NativeBigInteger.isNative()) {
            System.out.println("jbigi version: " + NativeBigInteger.getJbigiVersion());
            System.out.println("GMP version: " + NativeBigInteger.getLibGMPVersion());
            System.out.println("Engine: " + NativeBigInteger.engine() + Engine.features(NativeBigInteger.engine()));
        } else {
            System.out.println("WARNING: " + JbigiLoader.NOT_LOADED);
        }
        System.out.println();
    }

    private boolean runAll() {
        System.out.println("Warming up the JIT...");
        for (Operation op : Operation.values())
            timeRuns(op, op.runs / 2, false);
        boolean allMatch = true;
        for (Operation op : Operation.values())
            allMatch &= report(op, timeRuns(op, op.runs, true), skipJava);
        if (skipJava)
            System.out.println("Results not compared with BigInteger (-n).");
        else
            System.out.println(allMatch ? "All results matched BigInteger." : "ERROR: results differ from BigInteger.");
        return allMatch;
    }

    /** Nanoseconds spent natively and in Java, and whether every result matched. */
    private static final class Timing {
        long nativeNanos;
        long javaNanos;
        int runs;
        boolean matched = true;
    }

    private Timing timeRuns(Operation op, int runs, boolean verbose) {
        Timing t = new Timing();
        BigInteger p = GROUP14_PRIME;
        NativeBigInteger nativeP = new NativeBigInteger(p);
        NativeBigInteger reusedG = new NativeBigInteger(GROUP14_GENERATOR);
        for (int i = 0; i < runs; i++) {
            boolean reuse = op == Operation.FIXED_BASE_MOD_POW || op == Operation.FIXED_BASE_MOD_POW_CT;
            NativeBigInteger nativeG = reuse ? reusedG : new NativeBigInteger(GROUP14_GENERATOR);
            BigInteger x = op == Operation.MOD_INVERSE
                    ? new BigInteger(p.bitLength() - 1, random).add(BigInteger.ONE)
                    : new BigInteger(p.bitLength(), random);
            long start = System.nanoTime();
            BigInteger nativeResult = op == Operation.MOD_INVERSE ? new NativeBigInteger(x).modInverse(nativeP)
                    : op == Operation.MOD_POW_CT || op == Operation.FIXED_BASE_MOD_POW_CT ? nativeG.modPowCT(x, nativeP)
                    : nativeG.modPow(x, nativeP);
            long middle = System.nanoTime();
            t.nativeNanos += middle - start;
            t.runs++;
            if (skipJava)
                continue;
            BigInteger javaResult = op == Operation.MOD_INVERSE
                    ? x.modInverse(p) : GROUP14_GENERATOR.modPow(x, p);
            t.javaNanos += System.nanoTime() - middle;
            if (!nativeResult.equals(javaResult)) {
                t.matched = false;
                if (verbose) {
                    System.out.println("ERROR: " + op.label + " run " + i + ": native " + nativeResult.toString(16)
                            + " != java " + javaResult.toString(16));
                }
                break;
            }
        }
        return t;
    }

    private static boolean report(Operation op, Timing t, boolean skipJava) {
        String what = NativeBigInteger.isNative() ? "Native" : "Fallback";
        System.out.println(op.label + ": " + t.runs + " runs" + (skipJava ? ", not compared with BigInteger (-n)"
                : t.matched ? ", all results match BigInteger" : ", MISMATCH"));
        System.out.println(what + " run time: \t" + millis(t.nativeNanos) + " ms (" + micros(t.nativeNanos, t.runs) + " us each)");
        if (t.javaNanos > 0) {
            System.out.println("Java run time:   \t" + millis(t.javaNanos) + " ms (" + micros(t.javaNanos, t.runs) + " us each)");
            double percent = 100.0 * t.nativeNanos / t.javaNanos;
            System.out.println(what + " = " + String.format("%.1f", percent) + "% of pure Java time");
            if (t.nativeNanos <= t.javaNanos) {
                System.out.println(what + " is BETTER by a factor of "
                        + String.format("%.2f", (double) t.javaNanos / t.nativeNanos));
            } else {
                System.out.println(what + " is WORSE by a factor of "
                        + String.format("%.2f", (double) t.nativeNanos / t.javaNanos));
            }
        }
        if (!NativeBigInteger.isNative())
            System.out.println("The native library is not loaded, so this doesn't test much.");
        System.out.println();
        return t.matched;
    }

    private static String millis(long nanos) {
        return String.format("%.1f", nanos / 1e6);
    }

    private static String micros(long nanos, int runs) {
        return String.format("%.1f", nanos / 1e3 / Math.max(1, runs));
    }
}
