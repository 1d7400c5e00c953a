package net.i2p.util;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.IntFunction;

import net.i2p.util.BenchSampler.Case;
import net.i2p.util.BenchSampler.Timer;

/**
 * The section small of {@code make bench} ({@code --ops small}): the sizes
 * today's I2P routers call us at, called the way I2P's own
 * NativeBigInteger calls us: {@code nativeModPow(byte[], byte[], byte[])}
 * on {@code toByteArray()} of each operand, a new BigInteger made of each
 * result, a fresh base on every call.
 *
 * <p>The rows: Elligator2's three powers under p = 2^255 - 19 ((p-1)/2, a
 * Legendre symbol; (p-1)/4 and (p+3)/8, a square root); a random odd
 * modulus with a full-length exponent at 256, 384 and 521 bits; the whole
 * call with the exponent 3 at 256 bits (the cost of a call beside its
 * arithmetic, with its pieces timed alone: the native on arrays made
 * beforehand, and the Java side's conversions; and, when call_floor.c's
 * library loaded, its floor: JNI's work alone, and JNI's work with b^3 mod
 * m by GMP's mpn functions and nothing else); nativeModInverse at 256
 * bits (a prime modulus).  Beside each: BigInteger, the library's own
 * engine choice, each engine this CPU runs forced (for the whole of each
 * sample, not per call), GMP from C (rawgmp.c) and OpenSSL's
 * BN_mod_exp_mont and BN_mod_inverse where rawgmp was built with libcrypto.
 *
 * <p>The Legendre row also times {@code NativeBigInteger.jacobi(a, n)} when
 * the loaded classes have it (looked up once, see JACOBI), its answer given
 * as the power gives it (1, p-1 or 0), and GMP's mpz_jacobi from C.
 *
 * <p>The cases of a row are sampled in turns (BenchSampler), samples half as
 * long as --sample-ms says; every result is checked against BigInteger's
 * before and after timing.  Output: a table on stdout, OUT/small.csv.
 */
final class BenchSmall {
    static final BigInteger P25519 = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
    private static final long SEED = 0x6a62696773L;
    /** The hook for the Jacobi-symbol API: null when NativeBigInteger has no jacobi(BigInteger, BigInteger). */
    private static final MethodHandle JACOBI = findJacobi();
    /**
     * The engines forced where this CPU runs them: the names the library may
     * know (a new forcible engine's name goes here); one it does not know,
     * or one this CPU cannot run, is skipped.
     */
    private static final String[] ENGINES = {"gmp", "adx", "ifma", "p25519"};

    /** One row: cases compared with each other on one input set, sampled in turns. */
    private static final class Row {
        final String label;
        final BenchInputs.Set set;
        /** The target for the library's own choice over BigInteger, printed, never asserted; NaN: none. */
        final double target;
        final List<Case> cases = new ArrayList<>();
        /** Per case: how it is checked (null: by rawgmp, rawOps holds its op). */
        final List<IntFunction<BigInteger>> checks = new ArrayList<>();
        final List<String> rawOps = new ArrayList<>();
        Case java;
        Case auto;
        Case raw;
        /** The exponent-3 row's floor (call_floor.c's b^3 behind the same JNI calls), when it was loaded. */
        Case floor;

        Row(String label, BenchInputs.Set set, double target) {
            this.label = label;
            this.set = set;
            this.target = target;
        }
    }

    private final BenchOptions options;
    private final boolean alone;
    private final List<Row> rows = new ArrayList<>();
    private final List<Case> cases = new ArrayList<>();
    private final List<String> engines = new ArrayList<>();
    private BenchRawGmp raw;
    private String openSsl;

    BenchSmall(BenchOptions options, boolean alone) {
        this.options = options;
        this.alone = alone;
    }

    private static MethodHandle findJacobi() {
        try {
            return MethodHandles.publicLookup().findStatic(NativeBigInteger.class, "jacobi",
                    MethodType.methodType(int.class, BigInteger.class, BigInteger.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    /** 0 measured, 1 a mismatch or failure. */
    int run() throws IOException {
        long start = System.nanoTime();
        if (alone) {
            Bench.printEnvironment();
            if (!NativeBigInteger.isNative()) {
                System.out.println("The native library is not loaded: nothing to compare. " + NativeBigInteger.loadStatus());
                return 1;
            }
        }
        Files.createDirectories(options.out);
        for (String engine : ENGINES) {
            if (BenchEngines.engineRuns(engine))
                engines.add(engine);
        }
        List<BenchInputs.Set> sets = makeSets();
        Path inputs = options.out.resolve("inputs-small.txt");
        BenchInputs.write(inputs, sets);
        raw = options.rawgmp == null ? null : new BenchRawGmp(options.rawgmp, inputs);
        try {
            openSsl = raw == null ? null : raw.openssl();
            for (BenchInputs.Set set : sets)
                expect(set);
            addRows(sets);
            System.err.println("small: checking every result against BigInteger's...");
            if (checkAll(true) > 0)
                return 1;
            BenchSampler sampler = new BenchSampler(options.samples, Math.max(1, options.sampleMillis / 2) * 1_000_000L,
                    Math.max(1, options.warmupSampleMillis / 2) * 1_000_000L, options.warmupCapMillis / 2 * 1_000_000L);
            for (int i = 0; i < rows.size(); i++) {
                Row row = rows.get(i);
                long t = System.nanoTime();
                sampler.measure(row.cases);
                System.err.printf(Locale.ROOT, "[small %d/%d] %-14s %d cases, warm-up %d rounds%s, %.1f s%n", i + 1,
                        rows.size(), row.label, row.cases.size(), row.java.warmupRounds,
                        row.java.settled ? "" : " (capped)", (System.nanoTime() - t) / 1e9);
            }
            if (checkAll(false) > 0)
                return 1;
        } finally {
            if (raw != null)
                raw.close();
        }
        print();
        BenchReport.writeCsv(options.out.resolve("small.csv"), cases);
        System.out.printf(Locale.ROOT, "Wrote %s (section small: %.1f minutes).%n", options.out.resolve("small.csv"),
                (System.nanoTime() - start) / 60e9);
        return 0;
    }

    // ---- inputs ----

    private List<BenchInputs.Set> makeSets() throws IOException {
        BigInteger one = BigInteger.ONE;
        BigInteger pm1 = P25519.subtract(one);
        List<BenchInputs.Set> sets = new ArrayList<>();
        sets.add(elligator("small-255-legendre", pm1.shiftRight(1)));
        sets.add(elligator("small-255-sqrt4", pm1.shiftRight(2)));
        sets.add(elligator("small-255-sqrt8", P25519.add(BigInteger.valueOf(3)).shiftRight(3)));
        for (int bits : new int[] {256, 384, 521})
            sets.add(new BenchInputs.Set("small-" + bits, true, bits, BenchInputs.randomPow(bits, options.pool).rows));
        BigInteger[][] e3 = BenchInputs.randomPow(256, options.pool).rows;
        for (BigInteger[] r : e3)
            r[1] = BigInteger.valueOf(3);
        sets.add(new BenchInputs.Set("small-256-e3", true, 256, e3));
        BenchInputs.Set inv = BenchInputs.primeInverse(256, options.pool, options.out.resolve("primes.txt"));
        sets.add(new BenchInputs.Set("small-256-inverse", false, 256, inv.rows));
        return sets;
    }

    /** Fresh bases in [2, p) under p = 2^255 - 19, one exponent for all. */
    private BenchInputs.Set elligator(String name, BigInteger exponent) {
        Random random = new Random(SEED + name.hashCode());
        BigInteger[][] rows = new BigInteger[options.pool][];
        for (int r = 0; r < rows.length; r++) {
            BigInteger base;
            do
                base = new BigInteger(255, random);
            while (base.compareTo(P25519) >= 0 || base.compareTo(BigInteger.valueOf(2)) < 0);
            rows[r] = new BigInteger[] {base, exponent, P25519};
        }
        return new BenchInputs.Set(name, true, 255, rows);
    }

    private static void expect(BenchInputs.Set set) {
        set.expected = new BigInteger[set.rows.length];
        for (int r = 0; r < set.rows.length; r++) {
            BigInteger[] x = set.rows[r];
            set.expected[r] = set.pow ? x[0].modPow(x[1], x[2]) : x[0].modInverse(x[1]);
        }
    }

    // ---- the rows and their cases ----

    /** The targets: the library's choice over BigInteger. */
    private void addRows(List<BenchInputs.Set> sets) throws IOException {
        double[] targets = {0.12, 0.30, 0.30, 0.40, Double.NaN, Double.NaN, 0.60, 0.10};
        String[] labels = {"255 (p-1)/2", "255 (p-1)/4", "255 (p+3)/8", "256 random", "384 random", "521 random",
            "256 e=3 call", "256 modInverse"};
        for (int i = 0; i < sets.size(); i++) {
            BenchInputs.Set set = sets.get(i);
            Row row = new Row(labels[i], set, targets[i]);
            if (set.pow)
                addPowCases(row, set.name.endsWith("legendre"));
            else
                addInverseCases(row);
            for (Case c : row.cases) {
                c.javaReference = row.java;
                c.rawReference = row.raw;
            }
            rows.add(row);
        }
    }

    private void addPowCases(Row row, boolean legendre) throws IOException {
        BigInteger[] b = row.set.column(0);
        BigInteger[] e = row.set.column(1);
        BigInteger[] m = row.set.column(2);
        row.java = add(row, "BigInteger.modPow", null, k -> b[k].modPow(e[k], m[k]));
        IntFunction<BigInteger> i2p = k -> new BigInteger(
                NativeBigInteger.nativeModPow(b[k].toByteArray(), e[k].toByteArray(), m[k].toByteArray()));
        row.auto = add(row, "nativeModPow", null, i2p);
        for (String engine : engines)
            add(row, "nativeModPow " + engine, engine, i2p);
        row.raw = addRaw(row, "mpz_powm (C)", "powm");
        if (openSsl != null)
            addRaw(row, "BN_mod_exp_mont (C)", "openssl_powm");
        if (row.set.name.endsWith("e3"))
            addCallPieces(row, b, e, m);
        if (legendre) {
            if (JACOBI != null)
                add(row, "NativeBigInteger.jacobi", null, k -> legendre(jacobi(b[k], m[k]), m[k]));
            addRaw(row, "mpz_jacobi (C)", "legendre");
        }
    }

    /**
     * The call's pieces, for the exponent-3 row: the native alone on arrays
     * made beforehand (its result array not converted), and the Java side
     * alone (toByteArray() of the three operands, a BigInteger of a result
     * array made beforehand).
     */
    private void addCallPieces(Row row, BigInteger[] b, BigInteger[] e, BigInteger[] m) {
        int n = b.length;
        byte[][][] in = new byte[n][][];
        byte[][] out = new byte[n][];
        for (int k = 0; k < n; k++) {
            in[k] = new byte[][] {b[k].toByteArray(), e[k].toByteArray(), m[k].toByteArray()};
            out[k] = row.set.expected[k].toByteArray();
        }
        Timer nativeOnly = (first, count) -> {
            int k = (int) (first % n);
            long acc = 0;
            long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                acc += NativeBigInteger.nativeModPow(in[k][0], in[k][1], in[k][2])[0];
                if (++k == n)
                    k = 0;
            }
            long nanos = System.nanoTime() - start;
            Bench.sink += acc;
            return nanos;
        };
        addCase(row, "native alone (arrays)", nativeOnly,
                k -> new BigInteger(NativeBigInteger.nativeModPow(in[k][0], in[k][1], in[k][2])), null);
        Timer javaOnly = (first, count) -> {
            int k = (int) (first % n);
            long acc = 0;
            long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                acc += b[k].toByteArray().length + e[k].toByteArray().length + m[k].toByteArray().length;
                acc += new BigInteger(out[k]).intValue();
                if (++k == n)
                    k = 0;
            }
            long nanos = System.nanoTime() - start;
            Bench.sink += acc;
            return nanos;
        };
        addCase(row, "Java side alone", javaOnly, k -> new BigInteger(out[k]), null);
        if (BenchCallFloor.LOADED)
            addFloorCases(row, b, e, m);
    }

    /**
     * The floor under the whole call (call_floor.c), called as I2P calls:
     * a native that only reads the three arrays and returns a copy of the
     * first (checked by its copy), and one that adds b^3 mod m by GMP's mpn
     * functions and nothing else (checked by its result).
     */
    private void addFloorCases(Row row, BigInteger[] b, BigInteger[] e, BigInteger[] m) {
        IntFunction<BigInteger> jni = k -> new BigInteger(
                BenchCallFloor.arraysOnly(b[k].toByteArray(), e[k].toByteArray(), m[k].toByteArray()));
        addCase(row, "floor: JNI alone", Bench.loop(jni, b.length),
                k -> jni.apply(k).equals(b[k]) ? row.set.expected[k] : null, null);
        row.floor = add(row, "floor: JNI + mpn b^3", null, k -> new BigInteger(
                BenchCallFloor.cube(b[k].toByteArray(), e[k].toByteArray(), m[k].toByteArray())));
    }

    private void addInverseCases(Row row) throws IOException {
        BigInteger[] v = row.set.column(0);
        BigInteger[] m = row.set.column(1);
        row.java = add(row, "BigInteger.modInverse", null, k -> v[k].modInverse(m[k]));
        row.auto = add(row, "nativeModInverse", null,
                k -> new BigInteger(NativeBigInteger.nativeModInverse(v[k].toByteArray(), m[k].toByteArray())));
        row.raw = addRaw(row, "mpz_invert (C)", "invert");
        if (openSsl != null)
            addRaw(row, "BN_mod_inverse (C)", "openssl_invert");
    }

    private static int jacobi(BigInteger a, BigInteger n) {
        try {
            return (int) JACOBI.invokeExact(a, n);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A Legendre symbol as the power (p-1)/2 gives it: 1, p-1 or 0. */
    private static BigInteger legendre(int symbol, BigInteger p) {
        return symbol < 0 ? p.subtract(BigInteger.ONE) : BigInteger.valueOf(symbol);
    }

    /** A case timed in this JVM; engine not null: forced for the whole of each sample (and each check). */
    private Case add(Row row, String name, String engine, IntFunction<BigInteger> op) {
        Timer loop = Bench.loop(op, row.set.rows.length);
        Timer timer = engine == null ? loop : (first, n) -> {
            Engine.nativeForce(engine);
            try {
                return loop.run(first, n);
            } finally {
                BenchEngines.restoreEngine();
            }
        };
        IntFunction<BigInteger> check = engine == null ? op
                : k -> BenchEngines.withEngine(engine, () -> op.apply(k));
        return addCase(row, name, timer, check, null);
    }

    private Case addRaw(Row row, String name, String op) {
        if (raw == null)
            return null;
        BenchInputs.Set set = row.set;
        Timer timer = (first, n) -> raw.time(op, set.name, first % set.rows.length, n, null);
        return addCase(row, name, timer, null, op);
    }

    private Case addCase(Row row, String name, Timer timer, IntFunction<BigInteger> check, String rawOp) {
        Case c = new Case(row.label, row.set.bits, name, timer);
        row.cases.add(c);
        row.checks.add(check);
        row.rawOps.add(rawOp);
        cases.add(c);
        return c;
    }

    // ---- checking ----

    /** Every result against BigInteger's (rawgmp's only before timing); prints each mismatch. */
    private int checkAll(boolean withRaw) throws IOException {
        int mismatches = 0;
        for (Row row : rows) {
            BenchInputs.Set set = row.set;
            for (int i = 0; i < row.cases.size(); i++) {
                Case c = row.cases.get(i);
                IntFunction<BigInteger> op = row.checks.get(i);
                List<BigInteger> got = new ArrayList<>();
                if (op != null) {
                    for (int k = 0; k < set.rows.length; k++)
                        got.add(op.apply(k));
                } else if (withRaw) {
                    got = raw.results(row.rawOps.get(i), set.name, null);
                } else {
                    continue;
                }
                for (int k = 0; k < set.rows.length; k++) {
                    BigInteger r = k < got.size() ? got.get(k) : null;
                    if (set.expected[k].equals(r))
                        continue;
                    mismatches++;
                    System.out.println("MISMATCH " + (withRaw ? "before" : "after") + " timing: " + row.label + ", "
                            + c.implementation + ", input " + k + ": got " + (r == null ? "nothing" : r.toString(16))
                            + ", BigInteger gave " + set.expected[k].toString(16));
                }
            }
        }
        if (mismatches > 0)
            System.out.println(mismatches + " results of the section small differ from BigInteger's: aborted.");
        return mismatches;
    }

    // ---- the report ----

    private void print() {
        System.out.println();
        System.out.println("Section small: calls as I2P's NativeBigInteger makes them (nativeModPow and nativeModInverse on");
        System.out.println("toByteArray() of each operand, a new BigInteger of each result), a fresh base on every call.");
        System.out.printf(Locale.ROOT, "us/op: median of %d samples of at least %d ms, the cases of a row interleaved; ratios of medians.%n",
                options.samples, Math.max(1, options.sampleMillis / 2));
        System.out.println("nativeModPow: the engine the library chooses; nativeModPow NAME: that engine forced"
                + (engines.isEmpty() ? " (none forcible here)." : " (" + String.join(", ", engines) + " run here)."));
        if (raw == null)
            System.out.println("No C rows (no --rawgmp).");
        else if (openSsl == null)
            System.out.println("No OpenSSL rows (rawgmp built without libcrypto: apt-get install libssl-dev).");
        else
            System.out.println("OpenSSL: " + openSsl + " (its Montgomery context made per call).");
        if (JACOBI == null)
            System.out.println("No NativeBigInteger.jacobi in these classes: its line is left out.");
        String cols = "%-15s %-26s %10s %-14s %11s %8s %8s%n";
        System.out.println();
        System.out.printf(cols, "row", "implementation", "us/op", "spread", "/BigInteger", "/GMP C", "target");
        boolean capped = false;
        for (Row row : rows) {
            for (Case c : row.cases) {
                capped |= !c.settled;
                boolean targeted = c == row.auto && !Double.isNaN(row.target);
                System.out.printf(Locale.ROOT, cols, c == row.cases.get(0) ? row.label : "", c.implementation + (c.settled ? "" : " *"),
                        micros(c.median()), spread(c), ratio(c, row.java), ratio(c, row.raw),
                        targeted ? String.format(Locale.ROOT, "<= %.2f", row.target) : "");
            }
        }
        if (capped)
            System.out.println("*: the warm-up reached its time cap before the times settled (within 2%).");
        System.out.println("target: issue 49's, for the library's own choice over BigInteger, printed, never asserted:");
        for (Row row : rows) {
            if (Double.isNaN(row.target))
                continue;
            double r = row.auto.median() / row.java.median();
            System.out.printf(Locale.ROOT, "  %-15s %.3f (<= %.2f) %s%n", row.label, r, row.target,
                    r <= row.target ? "met" : "MISSED");
        }
        for (Row row : rows) {
            if (row.floor != null)
                System.out.printf(Locale.ROOT, "  %-15s floor %.3f: call_floor.c's b^3 mod m by mpn behind the same JNI calls%n",
                        row.label, row.floor.median() / row.java.median());
        }
    }

    private static String ratio(Case c, Case reference) {
        return reference == null ? "-" : String.format(Locale.ROOT, "%.3f", c.median() / reference.median());
    }

    private static String spread(Case c) {
        double median = c.median();
        return String.format(Locale.ROOT, "-%.1f/+%.1f%%", 100 * (median - c.min()) / median,
                100 * (c.max() - median) / median);
    }

    private static String micros(double nanos) {
        return String.format(Locale.ROOT, nanos < 100_000 ? "%.3f" : "%.1f", nanos / 1e3);
    }
}
