package net.i2p.util;

import java.math.BigInteger;

import net.i2p.util.BenchSampler.Case;

/**
 * What a FixedBase costs before it pays off: the time to build its tables,
 * each trial on a fresh object, and their size.
 *
 * <p>A trial times NativeBigInteger.fixedBase (the object and its
 * variable-time table), then the first modPowCT, which builds the
 * constant-time table: its time less that of a modPowCT from a built table
 * (the median its group measured; the constant-time path takes the same
 * time for every exponent) is the constant-time table's build.  The results
 * are checked too, so a table built wrong cannot go unnoticed.
 */
final class BenchFixedBase {
    /** Untimed trials first: class loading and the JIT of the Java side. */
    private static final int WARMUP_TRIALS = 2;

    /** The builds at one size, as cases for the report and the CSV; mismatches counted. */
    static final class Builds {
        final Case variableTime;
        final Case constantTime;
        int mismatches;

        Builds(int bits) {
            variableTime = new Case("fixedBase-build", bits, "FixedBase", null);
            constantTime = new Case("fixedBase-buildCT", bits, "FixedBase", null);
        }
    }

    private BenchFixedBase() {
    }

    /**
     * trials builds on the rows of set (one base and modulus, many
     * exponents; expected computed); modPowCTNanos: the time of one
     * fb.modPowCT once its table exists.
     */
    static Builds measure(BenchInputs.Set set, int trials, double modPowCTNanos) {
        BigInteger base = set.rows[0][0];
        BigInteger modulus = set.rows[0][2];
        Builds builds = new Builds(set.bits);
        double[] vt = new double[trials];
        double[] ct = new double[trials];
        for (int t = -WARMUP_TRIALS; t < trials; t++) {
            int k = Math.floorMod(t, set.rows.length);
            BigInteger exponent = set.rows[k][1];
            long t0 = System.nanoTime();
            FixedBase fb = NativeBigInteger.fixedBase(base, modulus);
            long built = System.nanoTime() - t0;
            long variableTimeBytes = fb.tableBytes(); // the constant-time table is not built yet
            long t1 = System.nanoTime();
            BigInteger first = fb.modPowCT(exponent);
            long t2 = System.nanoTime();
            builds.mismatches += check(first, set, k) + check(fb.modPowCT(exponent), set, k)
                    + check(fb.modPow(exponent), set, k);
            builds.variableTime.tableBytes = variableTimeBytes;
            builds.constantTime.tableBytes = fb.tableBytes() - variableTimeBytes;
            // Freed here, outside the timings, rather than by a later build once collected.
            fb.close();
            if (t >= 0) {
                vt[t] = built;
                ct[t] = (t2 - t1) - modPowCTNanos;
            }
        }
        for (Case c : new Case[] {builds.variableTime, builds.constantTime}) {
            c.opsPerSample = 1;
            c.settled = true;
            c.warmupRounds = WARMUP_TRIALS;
        }
        builds.variableTime.nanosPerOp = vt;
        builds.constantTime.nanosPerOp = ct;
        builds.variableTime.shortestSampleNanos = (long) builds.variableTime.min();
        builds.constantTime.shortestSampleNanos = (long) builds.constantTime.min();
        return builds;
    }

    private static int check(BigInteger got, BenchInputs.Set set, int k) {
        if (got.equals(set.expected[k]))
            return 0;
        System.out.println("MISMATCH table build: FixedBase " + set.bits + " bits, input " + k + " of " + set.name
                + ": got " + got.toString(16) + ", BigInteger gave " + set.expected[k].toString(16));
        return 1;
    }
}
