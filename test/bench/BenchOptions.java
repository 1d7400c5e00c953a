package net.i2p.util;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

/** What a benchmark run measures and how hard: Bench's command line. */
final class BenchOptions {
    /** 32 to 128 bits show where BigInteger might win; the rest are the common key sizes. */
    private static final int[] DEFAULT_SIZES = {32, 64, 128, 256, 512, 1024, 2048, 3072, 4096, 8192};
    /** The fixed-base rows: the sizes of DH, ElGamal and DSA groups. */
    private static final int[] FIXED_BASE_SIZES = {1024, 2048, 3072, 4096};
    /** The wiping cost: 2048 bits, where it must stay under 3%, and a small size, where it weighs most. */
    private static final int[] WIPE_SIZES = {256, 2048};

    int[] sizes = DEFAULT_SIZES;
    boolean modPow = true;
    boolean modInverse = true;
    boolean i2p = true;
    boolean fixedBase = true;
    boolean wipe = true;
    /** The short-exponent rows (SHORT_SHAPES), whatever --sizes says. */
    boolean shortExponents = true;
    /** The section small (BenchSmall): I2P's 255-bit powers and 256- to 521-bit moduli, called as I2P calls them. */
    boolean small = true;
    /** Modulus and exponent bits of the short-exponent rows: DSA's, 224- and 256-bit secrets, I2P's short ElGamal keys. */
    static final int[][] SHORT_SHAPES = {{1024, 160}, {2048, 224}, {2048, 256}, {2048, 226}};
    String rawgmp;
    Path out = Paths.get("build/bench");
    int samples = 9;
    long sampleMillis = 200;
    long warmupSampleMillis = 100;
    // The JIT settles within a second or two of a group's start; a warm-up
    // still unsettled after 6 s is held back by other load on the machine,
    // which more warming up does not cure.
    long warmupCapMillis = 6_000;
    int pool = 16;

    private BenchOptions() {
    }

    /** True if anything besides the section small runs: the sections over --sizes, i2p and short. */
    boolean mainSections() {
        return modPow || modInverse || i2p || fixedBase || wipe || shortExponents;
    }

    /** True if the FixedBase cases run at this size. */
    boolean fixedBaseAt(int bits) {
        return fixedBase && Arrays.stream(FIXED_BASE_SIZES).anyMatch(b -> b == bits);
    }

    /** True if the wiping cost is measured at this size (it needs the raw C program). */
    boolean wipeAt(int bits) {
        return wipe && rawgmp != null && wipeSize(bits);
    }

    static boolean wipeSize(int bits) {
        return Arrays.stream(WIPE_SIZES).anyMatch(b -> b == bits);
    }

    /** The options of args, or null (after a message on stderr) if they are bad. */
    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
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
                        o.fixedBase = ops.contains("fixedBase");
                        o.wipe = ops.contains("wipe");
                        o.shortExponents = ops.contains("short");
                        o.small = ops.contains("small");
                        if (!o.mainSections() && !o.small)
                            return usage("--ops takes modPow, modInverse, i2p, fixedBase, wipe, short, small");
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

    private static BenchOptions usage(String problem) {
        System.err.println("bench: " + problem);
        System.err.println("usage: Bench [--quick] [--sizes 256,2048] [--ops modPow,modInverse,i2p,fixedBase,wipe,short,small]"
                + " [--rawgmp PROGRAM] [--out DIR] [--samples N] [--sample-ms N]");
        System.err.println("  fixedBase runs at the sizes of " + Arrays.toString(FIXED_BASE_SIZES)
                + " in --sizes, wipe (needs --rawgmp) at those of " + Arrays.toString(WIPE_SIZES) + ";");
        System.err.println("  small has sizes of its own (255 to 521 bits) and samples half as long.");
        return null;
    }
}
