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
 * Every native result is checked against BigInteger before anything is
 * timed; a mismatch ends the run with exit status 1.  Results go to stdout
 * (a table), OUT/results.csv and OUT/speedup.dat (for test/bench/speedup.gp).
 * Exit status: 0 measured, 1 mismatch or failure, 2 bad arguments.
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

    private Bench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        int status;
        try {
            Options options = parse(args);
            status = options == null ? 2 : new Bench(options).run();
        } catch (IOException | RuntimeException e) {
            System.err.println("bench failed: " + e);
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
            if (!verify(sets, raw))
                return 1;
            for (BenchInputs.Set set : sets)
                addCases(set, raw);
            measure();
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

    // ---- checking before timing ----

    /** Every native and raw C result against BigInteger's; prints each mismatch. */
    private static boolean verify(List<BenchInputs.Set> sets, BenchRawGmp raw) throws IOException {
        System.err.println("Checking every native result against BigInteger...");
        int mismatches = 0;
        for (BenchInputs.Set set : sets) {
            List<BigInteger> rawFirst = null;
            List<BigInteger> rawSecond = null;
            if (raw != null) {
                rawFirst = raw.results(set.pow ? "powm" : "invert", set.name);
                rawSecond = set.pow ? raw.results("powm_sec", set.name) : null;
            }
            for (int r = 0; r < set.rows.length; r++) {
                BigInteger[] x = set.rows[r];
                String where = set.name + " input " + r;
                if (set.pow) {
                    BigInteger expected = x[0].modPow(x[1], x[2]);
                    NativeBigInteger base = new NativeBigInteger(x[0]);
                    NativeBigInteger modulus = new NativeBigInteger(x[2]);
                    mismatches += check(where, "NativeBigInteger.modPow", base.modPow(x[1], modulus), expected);
                    mismatches += check(where, "NativeBigInteger.modPowCT", base.modPowCT(x[1], modulus), expected);
                    if (raw != null) {
                        mismatches += check(where, "raw mpz_powm", rawFirst.get(r), expected);
                        mismatches += check(where, "raw mpz_powm_sec", rawSecond.get(r), expected);
                    }
                } else {
                    BigInteger expected = x[0].modInverse(x[1]);
                    mismatches += check(where, "NativeBigInteger.modInverse",
                            NativeBigInteger.modInverse(x[0], new NativeBigInteger(x[1])), expected);
                    if (raw != null)
                        mismatches += check(where, "raw mpz_invert", rawFirst.get(r), expected);
                }
            }
            if (raw != null && rawFirst.size() != set.rows.length) {
                System.out.println("MISMATCH " + set.name + ": rawgmp has " + rawFirst.size() + " inputs, not " + set.rows.length);
                mismatches++;
            }
        }
        if (mismatches > 0) {
            System.out.println(mismatches + " results differ from BigInteger: benchmark aborted.");
            return false;
        }
        return true;
    }

    private static int check(String where, String what, BigInteger got, BigInteger expected) {
        if (got.equals(expected))
            return 0;
        System.out.println("MISMATCH " + where + ": " + what + " gave " + got.toString(16)
                + ", BigInteger gave " + expected.toString(16));
        return 1;
    }

    // ---- the cases ----

    private void addCases(BenchInputs.Set set, BenchRawGmp raw) {
        String prefix = set.name.startsWith("i2p") ? "i2p-" : "";
        List<Case> group = new ArrayList<>();
        if (set.pow) {
            Case java = add(group, prefix + "modPow", set, "BigInteger", javaModPow(set));
            Case jbigi = add(group, prefix + "modPow", set, "NativeBigInteger", nativeModPow(set, false));
            Case jbigiCT = add(group, prefix + "modPowCT", set, "NativeBigInteger", nativeModPow(set, true));
            Case rawPow = raw == null ? null : add(group, prefix + "modPow", set, "raw-C", rawTimer(raw, "powm", set));
            Case rawSec = raw == null ? null : add(group, prefix + "modPowCT", set, "raw-C", rawTimer(raw, "powm_sec", set));
            link(java, java, rawPow);
            link(jbigi, java, rawPow);
            link(jbigiCT, java, rawSec);
            link(rawPow, java, rawPow);
            link(rawSec, java, rawSec);
            rows.add(new Row(prefix + "modPow", set.bits, java, jbigi, rawPow));
            rows.add(new Row(prefix + "modPowCT", set.bits, java, jbigiCT, rawSec));
        } else {
            Case java = add(group, "modInverse", set, "BigInteger", javaModInverse(set));
            Case jbigi = add(group, "modInverse", set, "NativeBigInteger", nativeModInverse(set));
            Case rawInv = raw == null ? null : add(group, "modInverse", set, "raw-C", rawTimer(raw, "invert", set));
            link(java, java, rawInv);
            link(jbigi, java, rawInv);
            link(rawInv, java, rawInv);
            rows.add(new Row("modInverse", set.bits, java, jbigi, rawInv));
        }
        groups.add(group);
    }

    private Case add(List<Case> group, String operation, BenchInputs.Set set, String implementation, Timer timer) {
        Case c = new Case(operation, set.bits, implementation, timer);
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

    private void measure() throws IOException {
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
        }
    }

    // ---- the timed loops: one per implementation, so each is compiled for its own types ----

    private static Timer javaModPow(BenchInputs.Set set) {
        BigInteger[] base = set.column(0);
        BigInteger[] exponent = set.column(1);
        BigInteger[] modulus = set.column(2);
        return (first, n) -> {
            int k = (int) (first % base.length);
            long acc = 0;
            long start = System.nanoTime();
            for (long i = 0; i < n; i++) {
                acc += base[k].modPow(exponent[k], modulus[k]).intValue();
                if (++k == base.length)
                    k = 0;
            }
            long nanos = System.nanoTime() - start;
            sink += acc;
            return nanos;
        };
    }

    /**
     * As I2P calls it: base and modulus are NativeBigIntegers whose byte
     * form is cached (I2P's generator and prime are constants), the exponent
     * is a plain BigInteger converted on every call (I2P's are new each time).
     */
    private static Timer nativeModPow(BenchInputs.Set set, boolean constantTime) {
        NativeBigInteger[] base = set.nativeColumn(0);
        BigInteger[] exponent = set.column(1);
        NativeBigInteger[] modulus = set.nativeColumn(2);
        if (constantTime) {
            return (first, n) -> {
                int k = (int) (first % base.length);
                long acc = 0;
                long start = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    acc += base[k].modPowCT(exponent[k], modulus[k]).intValue();
                    if (++k == base.length)
                        k = 0;
                }
                long nanos = System.nanoTime() - start;
                sink += acc;
                return nanos;
            };
        }
        return (first, n) -> {
            int k = (int) (first % base.length);
            long acc = 0;
            long start = System.nanoTime();
            for (long i = 0; i < n; i++) {
                acc += base[k].modPow(exponent[k], modulus[k]).intValue();
                if (++k == base.length)
                    k = 0;
            }
            long nanos = System.nanoTime() - start;
            sink += acc;
            return nanos;
        };
    }

    private static Timer javaModInverse(BenchInputs.Set set) {
        BigInteger[] value = set.column(0);
        BigInteger[] modulus = set.column(1);
        return (first, n) -> {
            int k = (int) (first % value.length);
            long acc = 0;
            long start = System.nanoTime();
            for (long i = 0; i < n; i++) {
                acc += value[k].modInverse(modulus[k]).intValue();
                if (++k == value.length)
                    k = 0;
            }
            long nanos = System.nanoTime() - start;
            sink += acc;
            return nanos;
        };
    }

    /** The value is converted on every call (a new number each time in I2P), the modulus is cached. */
    private static Timer nativeModInverse(BenchInputs.Set set) {
        BigInteger[] value = set.column(0);
        NativeBigInteger[] modulus = set.nativeColumn(1);
        return (first, n) -> {
            int k = (int) (first % value.length);
            long acc = 0;
            long start = System.nanoTime();
            for (long i = 0; i < n; i++) {
                acc += NativeBigInteger.modInverse(value[k], modulus[k]).intValue();
                if (++k == value.length)
                    k = 0;
            }
            long nanos = System.nanoTime() - start;
            sink += acc;
            return nanos;
        };
    }

    private static Timer rawTimer(BenchRawGmp raw, String op, BenchInputs.Set set) {
        return (first, n) -> raw.time(op, set.name, first % set.rows.length, n);
    }
}
