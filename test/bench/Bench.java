package net.i2p.util;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

import net.i2p.util.BenchGroup.Checked;
import net.i2p.util.BenchGroup.Group;
import net.i2p.util.BenchReport.FixedBaseRow;
import net.i2p.util.BenchReport.Row;
import net.i2p.util.BenchReport.WipeRow;
import net.i2p.util.BenchSampler.Case;
import net.i2p.util.BenchSampler.Timer;

/**
 * The benchmark behind {@code make bench}: BigInteger against
 * NativeBigInteger against GMP called from C, per operation and operand size.
 *
 * <pre>
 *   java -Djava.library.path=lib -cp build/classes:build/bench/classes net.i2p.util.Bench
 *        [--quick] [--sizes 256,2048] [--ops modPow,modInverse,i2p,fixedBase,wipe,short,small]
 *        [--rawgmp build/bench/rawgmp] [--out build/bench] [--samples N] [--sample-ms N]
 * </pre>
 *
 * <p>Per size, the cases compared with each other form a group: warmed up
 * until the JIT has settled, then sampled in turns (see BenchSampler), each
 * sample at least --sample-ms long.  The raw C program (rawgmp.c) runs as a
 * subprocess that takes its turn in the same rounds.
 *
 * <p>The groups: modPow and modInverse at every size, the modPow group
 * joined by a FixedBase's modPow and modPowCT from 1024 to 4096 bits (its
 * table builds are timed after the group); the I2P workload; wipe (GMP in C
 * with its default memory functions against jbigi's wiping ones,
 * src/core/wipe.c) at 256 and 2048 bits.  Each only at the sizes of --sizes (see
 * BenchOptions).  Then the section small (BenchSmall), its own sizes.
 *
 * <p>Every result is checked against BigInteger's before anything is timed,
 * and again after each group has been timed; a mismatch ends the run with
 * exit status 1.  Results go to stdout (tables), OUT/results.csv and
 * OUT/speedup.dat (the data of test/bench/speedup.gp).  Exit status: 0
 * measured, 1 mismatch or failure, 2 bad arguments.
 */
public final class Bench {
    /** Timed loops fold their results in here so the JIT cannot drop the work. */
    static volatile long sink;

    private final BenchOptions options;
    /** Every case, in the order measured: the CSV. */
    private final List<Case> cases = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();
    /** OpenSSL's version when rawgmp runs its exponentiations, else null. */
    private String openSslVersion;
    private final List<FixedBaseRow> fixedBaseRows = new ArrayList<>();
    private final List<WipeRow> wipeRows = new ArrayList<>();
    private final List<Group> groups = new ArrayList<>();
    private final List<BenchReport.ShortRow> shortRows = new ArrayList<>();

    private Bench(BenchOptions options) {
        this.options = options;
    }

    public static void main(String[] args) {
        int status;
        try {
            BenchOptions options = BenchOptions.parse(args);
            status = options == null ? 2 : options.mainSections() ? new Bench(options).run() : 0;
            if (status == 0 && options.small)
                status = new BenchSmall(options, !options.mainSections()).run();
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

    private int run() throws IOException {
        long start = System.nanoTime();
        printEnvironment();
        if (!NativeBigInteger.isNative()) {
            System.out.println("The native library is not loaded: nothing to compare. " + NativeBigInteger.loadStatus());
            return 1;
        }
        Files.createDirectories(options.out);
        Map<String, BenchInputs.Set> sets = makeInputs();
        Path inputsFile = options.out.resolve("inputs.txt");
        BenchInputs.write(inputsFile, new ArrayList<>(sets.values()));

        BenchRawGmp raw = options.rawgmp == null ? null : new BenchRawGmp(options.rawgmp, inputsFile);
        try {
            openSslVersion = raw == null ? null : raw.openssl();
            printRawGmp(raw);
            computeExpected(sets.values());
            addGroups(sets, raw);
            if (!checkBeforeTiming(raw) || !measure())
                return 1;
        } finally {
            if (raw != null)
                raw.close();
        }

        System.out.println();
        BenchReport.printTable(System.out, rows, options.samples, options.sampleMillis);
        BenchReport.printEngines(System.out, rows);
        BenchReport.printOpenSsl(System.out, rows);
        BenchReport.printFixedBase(System.out, fixedBaseRows);
        BenchReport.printShort(System.out, shortRows);
        BenchReport.printWiping(System.out, wipeRows,
                options.wipe && raw == null && Arrays.stream(options.sizes).anyMatch(BenchOptions::wipeSize));
        BenchReport.writeCsv(options.out.resolve("results.csv"), cases);
        BenchReport.writeChartData(options.out.resolve("speedup.dat"), rows, chartTitle(raw));
        System.out.printf(Locale.ROOT, "%nWrote %s and %s (%.1f minutes in all).%n",
                options.out.resolve("results.csv"), options.out.resolve("speedup.dat"),
                (System.nanoTime() - start) / 60e9);
        return 0;
    }

    static void printEnvironment() {
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
        System.out.println("OpenSSL: " + (openSslVersion == null
                ? "not measured (rawgmp built without libcrypto: apt-get install libssl-dev)" : openSslVersion));
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

    /** Every input set the run needs, by name; the wiping groups reuse the modPow and modInverse sets. */
    private Map<String, BenchInputs.Set> makeInputs() throws IOException {
        Map<String, BenchInputs.Set> sets = new LinkedHashMap<>();
        Path primes = options.out.resolve("primes.txt");
        for (int bits : options.sizes) {
            List<BenchInputs.Set> made = new ArrayList<>();
            if (options.modPow || options.fixedBaseAt(bits) || options.wipeAt(bits)) {
                BenchInputs.Set pow = BenchInputs.randomPow(bits, options.pool);
                made.add(pow);
                if (options.fixedBaseAt(bits))
                    made.add(BenchInputs.fixedBase(pow));
            }
            if (options.modInverse || options.wipeAt(bits))
                made.add(BenchInputs.primeInverse(bits, options.pool, primes));
            // A size given twice must not give rawgmp the same set twice.
            for (BenchInputs.Set set : made)
                sets.putIfAbsent(set.name, set);
        }
        if (options.i2p) {
            BenchInputs.Set set = BenchInputs.group14(options.pool);
            sets.put(set.name, set);
        }
        if (options.shortExponents) {
            for (int[] shape : BenchOptions.SHORT_SHAPES) {
                BenchInputs.Set set = BenchInputs.randomShort(shape[0], shape[1], options.pool);
                sets.put(set.name, set);
            }
        }
        return sets;
    }

    /** The groups in the order they are measured: per size modPow (with FixedBase), modInverse; then I2P; then wiping. */
    private void addGroups(Map<String, BenchInputs.Set> sets, BenchRawGmp raw) throws IOException {
        int[] sizes = Arrays.stream(options.sizes).distinct().toArray();
        for (int bits : sizes) {
            if (options.modPow || options.fixedBaseAt(bits))
                addPowGroup(sets.get("modpow-" + bits), sets.get("fixedbase-" + bits), raw);
            if (options.modInverse)
                addInverseGroup(sets.get("modinv-" + bits), raw);
        }
        if (options.i2p)
            addPowGroup(sets.get("i2p-group14"), null, raw);
        if (options.shortExponents) {
            for (int[] shape : BenchOptions.SHORT_SHAPES)
                addShortGroup(sets.get("short-" + shape[0] + "-" + shape[1]), shape[1], raw);
        }
        for (int bits : sizes) {
            if (options.wipeAt(bits))
                addWipeGroup(sets.get("modpow-" + bits), sets.get("modinv-" + bits), raw);
        }
    }

    // ---- the cases ----

    /**
     * modPow: the modulus is a NativeBigInteger, converted once, as a
     * caller's constant modulus would be; the exponent a BigInteger,
     * converted on every call (a new one each time in DH, ElGamal, DSA).
     * The base is new on every call too (a plain BigInteger), except in
     * modPow-samebase and the I2P workload, where it is a NativeBigInteger
     * used again and again, as I2P's generator is: NativeBigInteger then
     * builds a fixed-base table for it by itself (the transparent path), so
     * the two are measured apart.  fixedSet, if not null: the FixedBase
     * cases join the group.
     */
    private void addPowGroup(BenchInputs.Set set, BenchInputs.Set fixedSet, BenchRawGmp raw) {
        boolean i2p = set.name.startsWith("i2p");
        Group group = new Group(i2p ? "i2p" : fixedSet == null ? "modPow" : "modPow+FB", set.bits);
        String pow = i2p ? "i2p-modPow-transparent" : "modPow";
        String powCT = i2p ? "i2p-modPowCT-transparent" : "modPowCT";
        BigInteger[] base = set.column(0);
        BigInteger[] exponent = set.column(1);
        BigInteger[] modulus = set.column(2);
        NativeBigInteger[] nativeBase = set.nativeColumn(0);
        NativeBigInteger[] nativeModulus = set.nativeColumn(2);

        Case java = add(group, pow, set, "BigInteger", k -> base[k].modPow(exponent[k], modulus[k]));
        Case jbigi;
        Case jbigiCT;
        Case sameBase = null;
        if (i2p) {
            jbigi = add(group, pow, set, "NativeBigInteger", k -> nativeBase[k].modPow(exponent[k], nativeModulus[k]));
            jbigiCT = add(group, powCT, set, "NativeBigInteger", k -> nativeBase[k].modPowCT(exponent[k], nativeModulus[k]));
        } else {
            jbigi = add(group, pow, set, "NativeBigInteger",
                    k -> NativeBigInteger.modPow(base[k], exponent[k], nativeModulus[k]));
            sameBase = add(group, "modPow-samebase", set, "NativeBigInteger",
                    k -> nativeBase[k].modPow(exponent[k], nativeModulus[k]));
            jbigiCT = add(group, powCT, set, "NativeBigInteger",
                    k -> NativeBigInteger.modPowCT(base[k], exponent[k], nativeModulus[k]));
        }
        // Where the engine chosen per call is not GMP, the same calls with GMP
        // forced, and with every other engine this CPU runs forced, interleaved
        // with the rest: the engines side by side in one run.
        List<Case> forcedPow = new ArrayList<>();
        List<Case> forcedPowCT = new ArrayList<>();
        if (!i2p) {
            for (String engine : BenchEngines.forcedEngines(set.bits)) {
                forcedPow.add(add(group, "modPow-" + engine, set, "NativeBigInteger",
                        k -> BenchEngines.withEngine(engine, () -> NativeBigInteger.modPow(base[k], exponent[k], nativeModulus[k]))));
                forcedPowCT.add(add(group, "modPowCT-" + engine, set, "NativeBigInteger",
                        k -> BenchEngines.withEngine(engine, () -> NativeBigInteger.modPowCT(base[k], exponent[k], nativeModulus[k]))));
            }
        }
        Case rawPow = addRaw(group, raw, pow, set, "powm", null, "raw-C");
        Case rawSec = addRaw(group, raw, powCT, set, "powm_sec", null, "raw-C");
        // OpenSSL's BN_mod_exp_mont and BN_mod_exp_mont_consttime on the same
        // inputs: the anchor (rows "modPow-openssl", "modPowCT-openssl").
        Case openSsl = null;
        Case openSslCT = null;
        if (!i2p && openSslVersion != null) {
            openSsl = addRaw(group, raw, "modPow-openssl", set, "openssl_powm", null, "OpenSSL");
            openSslCT = addRaw(group, raw, "modPowCT-openssl", set, "openssl_powm_sec", null, "OpenSSL");
        }
        List<Case> powCases = new ArrayList<>(Arrays.asList(java, jbigi, sameBase, rawPow, openSsl));
        powCases.addAll(forcedPow);
        List<Case> powCTCases = new ArrayList<>(Arrays.asList(jbigiCT, rawSec, openSslCT));
        powCTCases.addAll(forcedPowCT);
        for (Case c : powCases)
            link(c, java, rawPow);
        for (Case c : powCTCases)
            link(c, java, rawSec);
        rows.add(new Row(pow, set.bits, java, jbigi, rawPow));
        for (Case c : forcedPow)
            rows.add(new Row(c.operation, set.bits, java, c, rawPow));
        if (sameBase != null)
            rows.add(new Row(sameBase.operation, set.bits, java, sameBase, rawPow));
        rows.add(new Row(powCT, set.bits, java, jbigiCT, rawSec));
        for (Case c : forcedPowCT)
            rows.add(new Row(c.operation, set.bits, java, c, rawSec));
        if (openSsl != null) {
            rows.add(new Row(openSsl.operation, set.bits, java, openSsl, rawPow));
            rows.add(new Row(openSslCT.operation, set.bits, java, openSslCT, rawSec));
        }
        if (fixedSet != null)
            addFixedBaseCases(group, fixedSet, new FixedBaseRow(set.bits, java, jbigi, jbigiCT, rawPow, rawSec));
        groups.add(group);
    }

    /**
     * FixedBase joins a modPow group: fb = NativeBigInteger.fixedBase(base,
     * modulus) for the base and modulus of the set's first row, built here,
     * before anything is timed (its constant-time table on the first
     * modPowCT, in the check before timing), raised to the set's exponents.
     * It is compared with the group's plain cases, interleaved with them:
     * NativeBigInteger.modPow and modPowCT with a plain BigInteger base -
     * converted on every call, as a new base is, and never given a table,
     * which only NativeBigInteger bases get - BigInteger.modPow, mpz_powm and
     * mpz_powm_sec, on inputs of the same size and kind and the same
     * exponents (their time depends on those, not on the base or modulus).
     */
    private void addFixedBaseCases(Group group, BenchInputs.Set set, FixedBaseRow row) {
        BigInteger base = set.rows[0][0];
        BigInteger modulus = set.rows[0][2];
        BigInteger[] exponent = set.column(1);
        FixedBase fb = NativeBigInteger.fixedBase(base, modulus);
        row.fixed = add(group, "fixedBase-modPow", set, "FixedBase", k -> fb.modPow(exponent[k]));
        row.fixedCT = add(group, "fixedBase-modPowCT", set, "FixedBase", k -> fb.modPowCT(exponent[k]));
        link(row.fixed, row.java, row.rawPow);
        link(row.fixedCT, row.java, row.rawSec);
        row.fixed.baselineReference = row.plain;
        row.fixedCT.baselineReference = row.plainCT;
        rows.add(new Row(row.fixed.operation, set.bits, row.java, row.fixed, row.rawPow));
        rows.add(new Row(row.fixedCT.operation, set.bits, row.java, row.fixedCT, row.rawSec));
        if (BenchEngines.forcedEngines(set.bits).contains("gmp")) {
            // The same base with tables built while GMP is forced: GMP's format
            // and shape, as a library without the engine makes them.  Both
            // tables exist before timing; the calls themselves need no force
            // (a table's format decides who computes it).
            FixedBase gmpFb = BenchEngines.withEngine("gmp", () -> {
                FixedBase f = NativeBigInteger.fixedBase(base, modulus);
                f.modPowCT(exponent[0]);
                return f;
            });
            Case gmpFixed = add(group, "fixedBase-modPow-gmp", set, "FixedBase", k -> gmpFb.modPow(exponent[k]));
            Case gmpFixedCT = add(group, "fixedBase-modPowCT-gmp", set, "FixedBase",
                    k -> gmpFb.modPowCT(exponent[k]));
            link(gmpFixed, row.java, row.rawPow);
            link(gmpFixedCT, row.java, row.rawSec);
            rows.add(new Row(gmpFixed.operation, set.bits, row.java, gmpFixed, row.rawPow));
            rows.add(new Row(gmpFixedCT.operation, set.bits, row.java, gmpFixedCT, row.rawSec));
        }
        group.fixedBaseSet = set;
        group.fixedBase = row;
        fixedBaseRows.add(row);
    }

    /**
     * Short exponents (below 2^ebits) under a larger modulus, on every
     * engine this CPU runs, each forced for its own cases: modPow,
     * modPowCT, the bounded modPowCT(e, m, ebits), and an explicit
     * FixedBase (tables built under that engine before timing) through
     * modPowCT and its bounded form; beside BigInteger.modPow, mpz_powm and
     * mpz_powm_sec on the same inputs.  One base and modulus for all rows.
     * Operation names: "<op> e<ebits> <engine>".
     */
    private void addShortGroup(BenchInputs.Set set, int ebits, BenchRawGmp raw) {
        Group group = new Group("short", set.bits);
        BigInteger base = set.rows[0][0];
        BigInteger modulus = set.rows[0][2];
        NativeBigInteger nativeModulus = set.nativeColumn(2)[0];
        BigInteger[] exponent = set.column(1);
        String e = " e" + ebits;
        Case java = add(group, "modPow" + e, set, "BigInteger", k -> base.modPow(exponent[k], modulus));
        Case rawPow = addRaw(group, raw, "modPow" + e + " gmp-C", set, "powm", null, "raw-C");
        Case rawSec = addRaw(group, raw, "modPowCT" + e + " gmp-C", set, "powm_sec", null, "raw-C");
        link(rawPow, java, rawPow);
        link(rawSec, java, rawSec);
        List<String> engines = new ArrayList<>();
        for (String engine : new String[] {"gmp", "adx", "ifma"}) {
            if (BenchEngines.engineRuns(engine))
                engines.add(engine);
        }
        for (String engine : engines) {
            String tag = e + " " + engine;
            Case pow = add(group, "modPow" + tag, set, "NativeBigInteger",
                    k -> BenchEngines.withEngine(engine, () -> NativeBigInteger.modPow(base, exponent[k], nativeModulus)));
            Case ct = add(group, "modPowCT" + tag, set, "NativeBigInteger",
                    k -> BenchEngines.withEngine(engine, () -> NativeBigInteger.modPowCT(base, exponent[k], nativeModulus)));
            Case bound = add(group, "modPowCT-bound" + tag, set, "NativeBigInteger",
                    k -> BenchEngines.withEngine(engine, () -> NativeBigInteger.modPowCT(base, exponent[k], nativeModulus, ebits)));
            FixedBase fb = BenchEngines.withEngine(engine, () -> {
                FixedBase f = NativeBigInteger.fixedBase(base, modulus);
                f.modPowCT(exponent[0]);
                return f;
            });
            Case fbCT = add(group, "FB-modPowCT" + tag, set, "FixedBase",
                    k -> BenchEngines.withEngine(engine, () -> fb.modPowCT(exponent[k])));
            Case fbBound = add(group, "FB-modPowCT-bound" + tag, set, "FixedBase",
                    k -> BenchEngines.withEngine(engine, () -> fb.modPowCT(exponent[k], ebits)));
            link(pow, java, rawPow);
            for (Case c : new Case[] {ct, bound, fbCT, fbBound})
                link(c, java, rawSec);
            rows.add(new Row(pow.operation, set.bits, java, pow, rawPow));
            for (Case c : new Case[] {ct, bound, fbCT, fbBound})
                rows.add(new Row(c.operation, set.bits, java, c, rawSec));
            shortRows.add(new BenchReport.ShortRow(set.bits, ebits, engine, java, pow, ct, bound, fbCT, fbBound));
        }
        groups.add(group);
    }

    /** modInverse: the prime modulus converted once, the value on every call. */
    private void addInverseGroup(BenchInputs.Set set, BenchRawGmp raw) {
        Group group = new Group("modInverse", set.bits);
        BigInteger[] value = set.column(0);
        BigInteger[] modulus = set.column(1);
        NativeBigInteger[] nativeModulus = set.nativeColumn(1);
        Case java = add(group, "modInverse", set, "BigInteger", k -> value[k].modInverse(modulus[k]));
        Case jbigi = add(group, "modInverse", set, "NativeBigInteger",
                k -> NativeBigInteger.modInverse(value[k], nativeModulus[k]));
        Case rawInv = addRaw(group, raw, "modInverse", set, "invert", null, "raw-C");
        for (Case c : new Case[] {java, jbigi, rawInv})
            link(c, java, rawInv);
        rows.add(new Row("modInverse", set.bits, java, jbigi, rawInv));
        groups.add(group);
    }

    /**
     * wipe: GMP in C with its default memory functions against the wiping
     * ones jbigi installs, each operation with a result variable of its own
     * as in a jbigi call; the two alternate within the group's rounds.  What
     * the wiping functions clear per operation is counted too: a figure that
     * no load on the machine can blur.
     */
    private void addWipeGroup(BenchInputs.Set pow, BenchInputs.Set inv, BenchRawGmp raw) throws IOException {
        Group group = new Group("wipe", pow.bits);
        String[][] ops = {{"powm", "mpz_powm"}, {"powm_sec", "mpz_powm_sec"}, {"invert", "mpz_invert"}};
        for (String[] op : ops) {
            BenchInputs.Set set = op[0].equals("invert") ? inv : pow;
            Case standard = addRaw(group, raw, op[1], set, op[0], "default", "raw-C-default-alloc");
            Case wiping = addRaw(group, raw, op[1], set, op[0], "wiping", "raw-C-wiping-alloc");
            wiping.baselineReference = standard;
            long[] wiped = raw.wiped(op[0], set.name);
            wipeRows.add(new WipeRow(op[1], set.bits, standard, wiping,
                    (double) wiped[0] / set.rows.length, (double) wiped[1] / set.rows.length));
        }
        groups.add(group);
    }

    private Case add(Group group, String operation, BenchInputs.Set set, String implementation,
            IntFunction<BigInteger> op) {
        Case c = new Case(operation, set.bits, implementation, loop(op, set.rows.length));
        group.cases.add(c);
        group.checks.add(new Checked(c, set, op, null, null));
        cases.add(c);
        return c;
    }

    /** A case timed by rawgmp; alloc as BenchRawGmp.time takes it. */
    private Case addRaw(Group group, BenchRawGmp raw, String operation, BenchInputs.Set set, String gmpOp,
            String alloc, String implementation) {
        if (raw == null)
            return null;
        Timer timer = (first, n) -> raw.time(gmpOp, set.name, first % set.rows.length, n, alloc);
        Case c = new Case(operation, set.bits, implementation, timer);
        group.cases.add(c);
        group.checks.add(new Checked(c, set, null, gmpOp, alloc));
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
    static Timer loop(IntFunction<BigInteger> op, int poolSize) {
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

    private static void computeExpected(Iterable<BenchInputs.Set> sets) {
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
     * ones only if raw is given; prints each mismatch and returns their number.
     */
    private static int checkAll(Group group, BenchRawGmp raw, String when) throws IOException {
        int mismatches = 0;
        for (Checked ch : group.checks) {
            BenchInputs.Set set = ch.set;
            if (ch.op != null) {
                for (int k = 0; k < set.rows.length; k++)
                    mismatches += check(ch.c, set, k, ch.op.apply(k), when);
                continue;
            }
            if (raw == null)
                continue;
            List<BigInteger> results = raw.results(ch.rawOp, set.name, ch.alloc);
            if (results.size() != set.rows.length) {
                System.out.println("MISMATCH " + set.name + ": rawgmp has " + results.size() + " inputs, not " + set.rows.length);
                mismatches++;
                continue;
            }
            for (int k = 0; k < results.size(); k++)
                mismatches += check(ch.c, set, k, results.get(k), when);
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
        for (Group group : groups)
            mismatches += checkAll(group, raw, "before timing");
        if (mismatches > 0)
            System.out.println(mismatches + " results differ from BigInteger's: benchmark aborted.");
        return mismatches == 0;
    }

    /** Times every group; false if results went wrong on the way. */
    private boolean measure() throws IOException {
        BenchSampler sampler = new BenchSampler(options.samples, options.sampleMillis * 1_000_000L,
                options.warmupSampleMillis * 1_000_000L, options.warmupCapMillis * 1_000_000L);
        for (int g = 0; g < groups.size(); g++) {
            Group group = groups.get(g);
            long start = System.nanoTime();
            sampler.measure(group.cases);
            Case first = group.cases.get(0);
            // Again now that the cases have run thousands of times: whatever
            // NativeBigInteger keeps between calls is in use by now.
            int mismatches = checkAll(group, null, "after timing");
            if (group.fixedBaseSet != null)
                mismatches += timeTableBuilds(group);
            System.err.printf(Locale.ROOT, "[%2d/%d] %-10s %5d bits: %d cases, warm-up %d rounds%s, %.1f s%n",
                    g + 1, groups.size(), group.label, group.bits, group.cases.size(), first.warmupRounds,
                    first.settled ? "" : " (capped)", (System.nanoTime() - start) / 1e9);
            if (mismatches > 0) {
                System.out.println(mismatches + " results differ from BigInteger's after timing: benchmark aborted.");
                return false;
            }
        }
        return true;
    }

    /** Right after its group, in the same conditions: the table builds, as many trials as samples. */
    private int timeTableBuilds(Group group) {
        FixedBaseRow row = group.fixedBase;
        BenchFixedBase.Builds builds = BenchFixedBase.measure(group.fixedBaseSet, Math.max(options.samples, 7),
                row.fixedCT.median());
        row.build = builds.variableTime;
        row.buildCT = builds.constantTime;
        // Both as multiples of one plain modPow: what a table costs in the currency it saves.
        row.build.baselineReference = row.plain;
        row.buildCT.baselineReference = row.plain;
        cases.add(row.build);
        cases.add(row.buildCT);
        return builds.mismatches;
    }
}
