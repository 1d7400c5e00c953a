package net.i2p.util;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

import net.i2p.util.BenchSampler.Case;
import net.i2p.util.BenchSampler.Timer;
import net.i2p.util.BenchReport.Row;

/**
 * The benchmark behind {@code make bench}: BigInteger against
 * NativeBigInteger against GMP called from C, per operation and operand size.
 *
 * <pre>
 *   java -Djava.library.path=lib -cp build/classes:build/bench/classes net.i2p.util.Bench
 *        [--quick] [--sizes 256,2048] [--ops modPow,modInverse,i2p]
 *        [--rawgmp build/bench/rawgmp] [--out build/bench] [--samples N] [--sample-ms N]
 * </pre>
 *
 * <p>Per size, the cases compared with each other form a group: warmed up
 * until the JIT has settled, then sampled in turns (see BenchSampler), each
 * sample at least --sample-ms long.  The raw C program (rawgmp.c) runs as a
 * subprocess that takes its turn in the same rounds.
 *
 * <p>Every result is checked against BigInteger's before anything is timed,
 * and again after each group has been timed; a mismatch ends the run with
 * exit status 1.  Results go to stdout (a table), OUT/results.csv and
 * OUT/speedup.dat (the data of test/bench/speedup.gp).  Exit status: 0
 * measured, 1 mismatch or failure, 2 bad arguments.
 */
public final class Bench {
    /** Timed loops fold their results in here so the JIT cannot drop the work. */
    static volatile long sink;

    private static final int[] DEFAULT_SIZES = {256, 512, 1024, 2048, 3072, 4096, 8192};

    /** What a run measures and how hard. */
    private static final class Options {
        int[] sizes = DEFAULT_SIZES;
        boolean modPow = true;
        boolean modInverse = true;
        boolean i2p = true;
        String rawgmp;
        Path out = Paths.get("build/bench");
        int samples = 9;
        long sampleMillis = 200;
        long warmupSampleMillis = 100;
        long warmupCapMillis = 10_000;
        int pool = 16;
    }

    private final Options options;
    private final List<Case> cases = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();
    private final List<List<Case>> groups = new ArrayList<>();
    /** For each group, its cases computed in this JVM. */
    private final List<List<Checked>> groupChecks = new ArrayList<>();

    private Bench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        int status;
        try {
            Options options = parse(args);
            status = options == null ? 2 : new Bench(options).run();
        } catch (IOException e) {
            // Files or the raw C program: the message says enough.
            System.err.println("bench failed: " + e.getMessage());
            status = 1;
        } catch (RuntimeException e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    private static Options parse(String[] args) {
        Options o = new Options();
        Integer samples = null;
        Long sampleMillis = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick":
                        // A smoke check: everything runs, nothing is precise.
                        o.samples = 5;
                        o.sampleMillis = 40;
                        o.warmupSampleMillis = 20;
                        o.warmupCapMillis = 1500;
                        o.pool = 8;
                        break;
                    case "--sizes":
                        o.sizes = Arrays.stream(args[++i].split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
                        break;
                    case "--ops":
                        List<String> ops = Arrays.asList(args[++i].split(","));
                        o.modPow = ops.contains("modPow");
                        o.modInverse = ops.contains("modInverse");
                        o.i2p = ops.contains("i2p");
                        if (!o.modPow && !o.modInverse && !o.i2p)
                            return usage("--ops takes modPow, modInverse, i2p");
                        break;
                    case "--rawgmp":
                        o.rawgmp = args[++i];
                        break;
                    case "--out":
                        o.out = Paths.get(args[++i]);
                        break;
                    case "--samples":
                        samples = Integer.parseInt(args[++i]);
                        break;
                    case "--sample-ms":
                        sampleMillis = Long.parseLong(args[++i]);
                        break;
                    default:
                        return usage("unknown argument " + args[i]);
                }
            }
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            return usage("bad or missing value: " + e.getMessage());
        }
        // Given after --quick or before it, an explicit count still wins.
        if (samples != null)
            o.samples = samples;
        if (sampleMillis != null)
            o.sampleMillis = sampleMillis;
        if (o.samples < 1 || o.sampleMillis < 1)
            return usage("--samples and --sample-ms must be positive");
        for (int bits : o.sizes) {
            if (bits < 16)
                return usage("sizes must be at least 16 bits: " + bits);
        }
        return o;
    }

    private static Options usage(String problem) {
        System.err.println("bench: " + problem);
        System.err.println("usage: Bench [--quick] [--sizes 256,2048] [--ops modPow,modInverse,i2p]"
                + " [--rawgmp PROGRAM] [--out DIR] [--samples N] [--sample-ms N]");
        return null;
    }

    private int run() throws IOException {
        long start = System.nanoTime();
        printEnvironment();
        if (!NativeBigInteger.isNative()) {
            System.out.println("The native library is not loaded: nothing to compare. " + NativeBigInteger.loadStatus());
            return 1;
        }
        Files.createDirectories(options.out);
        List<BenchInputs.Set> sets = makeInputs();
        Path inputsFile = options.out.resolve("inputs.txt");
        BenchInputs.write(inputsFile, sets);

        BenchRawGmp raw = options.rawgmp == null ? null : new BenchRawGmp(options.rawgmp, inputsFile);
        try {
            printRawGmp(raw);
            computeExpected(sets);
            for (BenchInputs.Set set : sets)
                addCases(set, raw);
            if (!checkBeforeTiming(raw) || !measure())
                return 1;
        } finally {
            if (raw != null)
                raw.close();
        }

        System.out.println();
        BenchReport.printTable(System.out, rows, options.samples, options.sampleMillis);
        BenchReport.writeCsv(options.out.resolve("results.csv"), cases);
        BenchReport.writeChartData(options.out.resolve("speedup.dat"), rows, chartTitle(raw));
        System.out.printf(Locale.ROOT, "%nWrote %s and %s (%.1f minutes in all).%n",
                options.out.resolve("results.csv"), options.out.resolve("speedup.dat"),
                (System.nanoTime() - start) / 60e9);
        return 0;
    }

    private static void printEnvironment() {
        System.out.println("Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        System.out.println("CPU: " + NativeBigInteger.cpuModel() + " (" + Runtime.getRuntime().availableProcessors() + " cores)");
        System.out.println("jbigi: " + NativeBigInteger.loadStatus());
        if (NativeBigInteger.isNative())
            System.out.println("jbigi version " + NativeBigInteger.getJbigiVersion() + ", GMP " + NativeBigInteger.getLibGMPVersion());
    }

    private void printRawGmp(BenchRawGmp raw) {
        if (raw == null) {
            System.out.println("raw GMP: not measured (no --rawgmp)");
            return;
        }
        System.out.println("raw GMP: " + raw.gmpVersion + ", built with: " + raw.gmpCflags);
        if (!raw.gmpVersion.equals(NativeBigInteger.getLibGMPVersion())) {
            System.out.println("WARNING: the raw C program runs GMP " + raw.gmpVersion + " but jbigi runs GMP "
                    + NativeBigInteger.getLibGMPVersion() + ": the native/raw C ratios compare different GMPs.");
        }
    }

    private String chartTitle(BenchRawGmp raw) {
        return "jbigi " + NativeBigInteger.getJbigiVersion() + ", GMP " + NativeBigInteger.getLibGMPVersion()
                + (raw == null ? "" : " (" + raw.gmpCflags.replaceAll(".*(-march=\\S+).*", "$1") + ")")
                + ", Java " + System.getProperty("java.version") + ", " + NativeBigInteger.cpuModel();
    }

    private List<BenchInputs.Set> makeInputs() throws IOException {
        List<BenchInputs.Set> sets = new ArrayList<>();
        Path primes = options.out.resolve("primes.txt");
        for (int bits : options.sizes) {
            if (options.modPow)
                sets.add(BenchInputs.randomPow(bits, options.pool));
            if (options.modInverse)
                sets.add(BenchInputs.primeInverse(bits, options.pool, primes));
        }
        if (options.i2p)
            sets.add(BenchInputs.group14(options.pool));
        return sets;
    }

    // ---- the cases ----

    /** A case computed in this JVM, checked on the very operands it is timed on. */
    private static final class Checked {
        final Case c;
        final BenchInputs.Set set;
        final IntFunction<BigInteger> op;

        Checked(Case c, BenchInputs.Set set, IntFunction<BigInteger> op) {
            this.c = c;
            this.set = set;
            this.op = op;
        }
    }

    private void addCases(BenchInputs.Set set, BenchRawGmp raw) {
        List<Case> group = new ArrayList<>();
        List<Checked> checks = new ArrayList<>();
        if (set.pow)
            addPowCases(set, raw, group, checks);
        else
            addInverseCases(set, raw, group, checks);
        groups.add(group);
        groupChecks.add(checks);
    }

    /**
     * modPow: the modulus is a NativeBigInteger, converted once, as a
     * caller's constant modulus would be; the exponent a BigInteger,
     * converted on every call (a new one each time in DH, ElGamal, DSA).
     * The base is new on every call too (a plain BigInteger), except in
     * modPow-samebase and the I2P workload, where it is a NativeBigInteger
     * used again and again, as I2P's generator is: NativeBigInteger may keep
     * work for such a base, so the two are measured apart.
     */
    private void addPowCases(BenchInputs.Set set, BenchRawGmp raw, List<Case> group, List<Checked> checks) {
        boolean i2p = set.name.startsWith("i2p");
        String pow = i2p ? "i2p-modPow" : "modPow";
        String powCT = i2p ? "i2p-modPowCT" : "modPowCT";
        BigInteger[] base = set.column(0);
        BigInteger[] exponent = set.column(1);
        BigInteger[] modulus = set.column(2);
        NativeBigInteger[] nativeBase = set.nativeColumn(0);
        NativeBigInteger[] nativeModulus = set.nativeColumn(2);

        Case java = add(group, checks, pow, set, "BigInteger", k -> base[k].modPow(exponent[k], modulus[k]));
        Case jbigi;
        Case jbigiCT;
        Case sameBase = null;
        if (i2p) {
            jbigi = add(group, checks, pow, set, "NativeBigInteger", k -> nativeBase[k].modPow(exponent[k], nativeModulus[k]));
            jbigiCT = add(group, checks, powCT, set, "NativeBigInteger", k -> nativeBase[k].modPowCT(exponent[k], nativeModulus[k]));
        } else {
            jbigi = add(group, checks, pow, set, "NativeBigInteger",
                    k -> NativeBigInteger.modPow(base[k], exponent[k], nativeModulus[k]));
            sameBase = add(group, checks, "modPow-samebase", set, "NativeBigInteger",
                    k -> nativeBase[k].modPow(exponent[k], nativeModulus[k]));
            jbigiCT = add(group, checks, powCT, set, "NativeBigInteger",
                    k -> NativeBigInteger.modPowCT(base[k], exponent[k], nativeModulus[k]));
        }
        Case rawPow = addRaw(group, raw, pow, set, "powm");
        Case rawSec = addRaw(group, raw, powCT, set, "powm_sec");
        for (Case c : new Case[] {java, jbigi, sameBase, rawPow})
            link(c, java, rawPow);
        for (Case c : new Case[] {jbigiCT, rawSec})
            link(c, java, rawSec);
        rows.add(new Row(pow, set.bits, java, jbigi, rawPow));
        if (sameBase != null)
            rows.add(new Row(sameBase.operation, set.bits, java, sameBase, rawPow));
        rows.add(new Row(powCT, set.bits, java, jbigiCT, rawSec));
    }

    /** modInverse: the prime modulus converted once, the value on every call. */
    private void addInverseCases(BenchInputs.Set set, BenchRawGmp raw, List<Case> group, List<Checked> checks) {
        BigInteger[] value = set.column(0);
        BigInteger[] modulus = set.column(1);
        NativeBigInteger[] nativeModulus = set.nativeColumn(1);
        Case java = add(group, checks, "modInverse", set, "BigInteger", k -> value[k].modInverse(modulus[k]));
        Case jbigi = add(group, checks, "modInverse", set, "NativeBigInteger",
                k -> NativeBigInteger.modInverse(value[k], nativeModulus[k]));
        Case rawInv = addRaw(group, raw, "modInverse", set, "invert");
        for (Case c : new Case[] {java, jbigi, rawInv})
            link(c, java, rawInv);
        rows.add(new Row("modInverse", set.bits, java, jbigi, rawInv));
    }

    private Case add(List<Case> group, List<Checked> checks, String operation, BenchInputs.Set set,
            String implementation, IntFunction<BigInteger> op) {
        Case c = new Case(operation, set.bits, implementation, loop(op, set.rows.length));
        group.add(c);
        cases.add(c);
        checks.add(new Checked(c, set, op));
        return c;
    }

    private Case addRaw(List<Case> group, BenchRawGmp raw, String operation, BenchInputs.Set set, String gmpOp) {
        if (raw == null)
            return null;
        Timer timer = (first, n) -> raw.time(gmpOp, set.name, first % set.rows.length, n);
        Case c = new Case(operation, set.bits, "raw-C", timer);
        c.rawOp = gmpOp;
        group.add(c);
        cases.add(c);
        return c;
    }

    private static void link(Case c, Case java, Case raw) {
        if (c != null) {
            c.javaReference = java;
            c.rawReference = raw;
        }
    }

    /**
     * The timed loop: n operations cycling through the pool, each result
     * folded into sink.  One interface call per operation (a few
     * nanoseconds, the same for every implementation) keeps this one loop
     * for all of them.
     */
    private static Timer loop(IntFunction<BigInteger> op, int poolSize) {
        return (first, n) -> {
            int k = (int) (first % poolSize);
            long acc = 0;
            long start = System.nanoTime();
            for (long i = 0; i < n; i++) {
                acc += op.apply(k).intValue();
                if (++k == poolSize)
                    k = 0;
            }
            long nanos = System.nanoTime() - start;
            sink += acc;
            return nanos;
        };
    }

    // ---- checking: before timing, and after it (when state kept per base is in use) ----

    private static void computeExpected(List<BenchInputs.Set> sets) {
        System.err.println("Computing BigInteger's results...");
        for (BenchInputs.Set set : sets) {
            set.expected = new BigInteger[set.rows.length];
            for (int r = 0; r < set.rows.length; r++) {
                BigInteger[] x = set.rows[r];
                set.expected[r] = set.pow ? x[0].modPow(x[1], x[2]) : x[0].modInverse(x[1]);
            }
        }
    }

    /**
     * Every result of every case of a group against BigInteger's, the raw C
     * ones too if raw is given; prints each mismatch and returns their number.
     */
    private int checkAll(List<Checked> checks, List<Case> group, BenchRawGmp raw, String when) throws IOException {
        int mismatches = 0;
        for (Checked ch : checks) {
            for (int k = 0; k < ch.set.rows.length; k++)
                mismatches += check(ch.c, ch.set, k, ch.op.apply(k), when);
        }
        for (Case c : group) {
            if (c.rawOp == null || raw == null)
                continue;
            BenchInputs.Set set = checks.get(0).set;
            List<BigInteger> results = raw.results(c.rawOp, set.name);
            if (results.size() != set.rows.length) {
                System.out.println("MISMATCH " + set.name + ": rawgmp has " + results.size() + " inputs, not " + set.rows.length);
                mismatches++;
                continue;
            }
            for (int k = 0; k < results.size(); k++)
                mismatches += check(c, set, k, results.get(k), when);
        }
        return mismatches;
    }

    private static int check(Case c, BenchInputs.Set set, int k, BigInteger got, String when) {
        if (got.equals(set.expected[k]))
            return 0;
        System.out.println("MISMATCH " + when + ": " + c.operation + " " + c.bits + " bits, " + c.implementation
                + ", input " + k + " of " + set.name + ": got " + got.toString(16) + ", BigInteger gave "
                + set.expected[k].toString(16));
        return 1;
    }

    private boolean checkBeforeTiming(BenchRawGmp raw) throws IOException {
        System.err.println("Checking every result against BigInteger's...");
        int mismatches = 0;
        for (int g = 0; g < groups.size(); g++)
            mismatches += checkAll(groupChecks.get(g), groups.get(g), raw, "before timing");
        if (mismatches > 0)
            System.out.println(mismatches + " results differ from BigInteger's: benchmark aborted.");
        return mismatches == 0;
    }

    /** Times every group; false if results went wrong on the way. */
    private boolean measure() throws IOException {
        BenchSampler sampler = new BenchSampler(options.samples, options.sampleMillis * 1_000_000L,
                options.warmupSampleMillis * 1_000_000L, options.warmupCapMillis * 1_000_000L);
        for (int g = 0; g < groups.size(); g++) {
            List<Case> group = groups.get(g);
            long start = System.nanoTime();
            sampler.measure(group);
            Case first = group.get(0);
            System.err.printf(Locale.ROOT, "[%2d/%d] %-10s %5d bits: %d cases, warm-up %d rounds%s, %.1f s%n",
                    g + 1, groups.size(), first.operation, first.bits, group.size(), first.warmupRounds,
                    first.settled ? "" : " (capped)", (System.nanoTime() - start) / 1e9);
            // Again now that the cases have run thousands of times: whatever
            // NativeBigInteger keeps between calls is in use by now.
            int mismatches = checkAll(groupChecks.get(g), group, null, "after timing");
            if (mismatches > 0) {
                System.out.println(mismatches + " results differ from BigInteger's after timing: benchmark aborted.");
                return false;
            }
        }
        return true;
    }
}
