package net.i2p.util;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

/**
 * Does the running time of nativeModPowCT depend on the exponent's bits, or
 * on its length beyond its limb count (the public size its work follows)?
 * A dudect-style test (Reparaz, Balasch, Verbauwhede, "Dude, is my code
 * constant time?", 2017): time many calls with exponents from two classes,
 * in random order, and ask with Welch's t-test whether the two timing
 * distributions differ.
 *
 * Two experiments, the same odd 2048-bit modulus and base for all.  Bits:
 * class A one fixed 2048-bit exponent of low Hamming weight, class B a fresh
 * random 2048-bit exponent per call, both with the top bit set, so only the
 * bits differ.  Length: class A random 2048-bit exponents, class B random
 * 2016-bit ones (the top 32 bits clear), so the length differs within the
 * same limb count (the constant-time paths process the exponent over its
 * limb count and must not show more).  Then the same on nativeModPow,
 * whose sliding-window exponentiation does fewer multiplications for a
 * sparse or short exponent: it should show a large |t| in both, which
 * shows that the measurement can see a leak at all.
 *
 * |t| above 10 is taken as a leak (dudect's threshold; with 100,000
 * samples a real difference drives t far beyond it).  The largest |t| over
 * several crops is reported: cropping the slow tail removes interrupts and
 * GC pauses, which would otherwise drown a small difference.  Each input's
 * exponent array is read in Java right before its timed call, so that the
 * call finds it in cache as a caller's new array is: the pool of 100,000
 * arrays does not fit in cache, and from memory a longer array (25 bytes
 * against 21 in the limb-count experiment) took a few ns more to reach.
 *
 * The fixed-base table's constant-time path (FixedBase.nativeModPow with
 * constantTime, which the public modPowCT uses once a base repeats) is
 * measured the same way, against its variable-time path, unless
 * --no-fixed-base.
 *
 * Top bit, at 2048 and 4096 bits: class A random full-width exponents with
 * the top bit set, class B the same with the top bit clear and the next bit
 * set.  In toByteArray() form A's arrays are a byte longer (257 against
 * 256 bytes, 513 against 512): the experiment that sees whether the
 * array's length reaches the library (the copy-in, the padding, the stack
 * or heap choice, which crosses at 4096 bits), which the two above cannot,
 * as both their classes set the top bit.  Measured: nativeModPowCT, the
 * fixed-length form (nativeModPowCTFixed, both classes as modulus-length
 * unsigned arrays), the fixed-base constant-time path, and a control that
 * pads the exponent to its array's own width (see lengthControl): a
 * length-dependent difference the measurement must see.  4096-bit
 * experiments take --wide-measurements (default a tenth of
 * --measurements, to keep the run to a few minutes).
 *
 * Short exponents, at 1024/160 and 2048/256 (modulus/exponent bits, DSA's
 * and a 256-bit secret's shapes): the top-bit experiment on secrets below
 * the bound (class A bit bound-1 set, class B it clear and the next set)
 * for the three forms (nativeModPowCT on toByteArray() arrays, a byte
 * apart; nativeModPowCTBound with the bound; nativeModPowCTFixed on
 * bound-length arrays) and the fixed-base constant-time path (plain and
 * bounded); and the limb-count experiment: exponents of one limb count
 * (3 and 4 limbs), class A with the limb's top bit set, class B with its
 * top 32 bits clear, for nativeModPowCT, nativeModPowCTBound and the
 * fixed-base path.  Control: nativeModPow on the limb-count inputs.
 * --only-short runs these alone.
 *
 * The field of 2^255 - 19 (Elligator2's, which the special-form engine
 * takes): the bits and the length experiments under that modulus, 255-bit
 * exponents against a sparse one and against 223-bit ones (one limb count),
 * with nativeModPow as the control; --only-p25519 runs these alone.
 *
 * A measurement, not a test: run it on a quiet machine.  Exit status 0 when
 * the constant-time paths show no leak and every control does, 1 when a
 * constant-time path leaks, 2 when a control shows none (the measurement
 * saw nothing).
 *
 *   CtCheck [--measurements N] [--wide-measurements N] [--seed S] [--no-fixed-base] [--only-top-bit]
 *           [--only-short] [--only-p25519]
 */
public final class CtCheck {
    static final double THRESHOLD = 10;
    /** Crops, as percentiles of all timings of one function; 100 = none. */
    static final double[] CROPS = {100, 99.9, 99, 95, 90, 75, 50};
    static final int BITS = 2048;

    interface Power {
        byte[] apply(byte[] base, byte[] exponent, byte[] modulus);
    }

    public static void main(String[] args) {
        int measurements = 100000;
        int wideMeasurements = -1;
        long seed = System.nanoTime();
        boolean fixedBase = true;
        boolean onlyTopBit = false;
        boolean onlyShort = false;
        boolean only25519 = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--measurements") && i + 1 < args.length)
                measurements = Integer.parseInt(args[++i]);
            else if (args[i].equals("--wide-measurements") && i + 1 < args.length)
                wideMeasurements = Integer.parseInt(args[++i]);
            else if (args[i].equals("--only-top-bit"))
                onlyTopBit = true;
            else if (args[i].equals("--only-short"))
                onlyShort = true;
            else if (args[i].equals("--only-p25519"))
                onlyShort = onlyTopBit = only25519 = true;
            else if (args[i].equals("--seed") && i + 1 < args.length)
                seed = Long.parseLong(args[++i]);
            else if (args[i].equals("--no-fixed-base"))
                fixedBase = false;
            else {
                System.err.println("usage: CtCheck [--measurements N] [--wide-measurements N] [--seed S]"
                        + " [--no-fixed-base] [--only-top-bit] [--only-short] [--only-p25519]");
                System.exit(64);
            }
        }
        if (!NativeBigInteger.isNative()) {
            System.err.println("the native library is not loaded: " + NativeBigInteger.loadStatus());
            System.exit(1);
        }
        System.out.println("jbigi " + NativeBigInteger.getJbigiVersion() + ", GMP " + NativeBigInteger.getLibGMPVersion()
                + "; " + measurements + " measurements per function, seed " + seed);

        if (wideMeasurements < 0)
            wideMeasurements = Math.max(1000, measurements / 10);
        Random random = new Random(seed);
        double ct = 0;
        double vt = Double.MAX_VALUE;
        double fixedCt = 0;
        if (!onlyTopBit && !onlyShort) {
            // Two experiments over one modulus and base: the exponent's bits
            // (fixed sparse against random, equal lengths), and its length
            // (full width against SHORT_BITS, both random).
            BigInteger m = new BigInteger(BITS, random).setBit(BITS - 1).setBit(0);
            BigInteger g = new BigInteger(BITS, random).mod(m);
            Inputs bits = new Inputs(random, measurements, false, m, g);
            Inputs length = new Inputs(random, measurements, true, m, g);
            for (Inputs inputs : new Inputs[] {bits, length}) {
                double c = measure("nativeModPowCT " + inputs.name, NativeBigInteger::nativeModPowCT, inputs);
                double v = measure("nativeModPow   " + inputs.name, NativeBigInteger::nativeModPow, inputs);
                System.out.printf("|t| %s: nativeModPowCT = %.2f, nativeModPow = %.2f (threshold %.0f)%n", inputs.name, c,
                        v, THRESHOLD);
                ct = Math.max(ct, c);
                vt = Math.min(vt, v);
            }

            // The public modPowCT switches to a fixed-base table once a base
            // repeats, so the table's constant-time path is measured too, with
            // its variable-time path as its own contrast.
            if (fixedBase && NativeBigInteger.hasFixedBase()) {
                LiveTable ctTable = liveTable(bits.base, bits.modulus, CombShape.constantTimeRows(BITS),
                        CombShape.constantTimeBlocks(BITS), BITS);
                LiveTable vtTable = liveTable(bits.base, bits.modulus, CombShape.variableTimeRows(BITS),
                        CombShape.variableTimeBlocks(BITS), BITS);
                for (Inputs inputs : new Inputs[] {bits, length}) {
                    double c = measure("fixed-base CT " + inputs.name, (b, e, mod) -> ctTable.modPow(e, true),
                            inputs);
                    double v = measure("fixed-base VT " + inputs.name, (b, e, mod) -> vtTable.modPow(e, false),
                            inputs);
                    System.out.printf("|t| %s: fixed-base constant-time = %.2f, variable-time = %.2f%n", inputs.name, c, v);
                    fixedCt = Math.max(fixedCt, c);
                }
            } else {
                System.out.println("fixed-base paths not measured (" + (fixedBase ? "not in this library" : "--no-fixed-base") + ")");
            }
        }

        // 2^255 - 19, Elligator2's field (the special-form engine where it runs).
        if (only25519 || (!onlyTopBit && !onlyShort)) {
            double[] f = field25519(random, measurements);
            ct = Math.max(ct, f[0]);
            vt = Math.min(vt, f[1]);
        }

        // Short exponents: the top bit below a bound, and the length within a limb count.
        if (!onlyTopBit) {
            double[] s = shortExponents(random, measurements, fixedBase && NativeBigInteger.hasFixedBase());
            ct = Math.max(ct, s[0]);
            fixedCt = Math.max(fixedCt, s[1]);
            vt = Math.min(vt, s[2]);
        }

        // The top bit of full-width exponents, at two sizes.
        for (int bits : onlyShort ? new int[0] : new int[] {BITS, 2 * BITS}) {
            TopBit top = new TopBit(random, bits == BITS ? measurements : wideMeasurements, bits);
            double c = measure("nativeModPowCT      " + top.name, NativeBigInteger::nativeModPowCT, top.signed);
            double f = NativeBigInteger.constantTimeEdgeToEdge()
                    ? measure("nativeModPowCTFixed " + top.name, NativeBigInteger::nativeModPowCTFixed, top.unsigned) : 0;
            double fb = 0;
            if (fixedBase && NativeBigInteger.hasFixedBase()) {
                LiveTable table = liveTable(top.signed.base, top.signed.modulus,
                        CombShape.constantTimeRows(bits), CombShape.constantTimeBlocks(bits), bits);
                fb = measure("fixed-base CT       " + top.name, (b, e, mod) -> table.modPow(e, true),
                        top.signed);
            }
            double v = lengthControl(top);
            System.out.printf("|t| %s: nativeModPowCT = %.2f, nativeModPowCTFixed = %s, fixed-base CT = %s;"
                    + " control = %.2f%n", top.name, c,
                    NativeBigInteger.constantTimeEdgeToEdge() ? String.format("%.2f", f) : "not in this library",
                    fixedBase && NativeBigInteger.hasFixedBase() ? String.format("%.2f", fb) : "not measured", v);
            ct = Math.max(ct, Math.max(c, f));
            fixedCt = Math.max(fixedCt, fb);
            vt = Math.min(vt, v);
        }

        int status;
        if (ct >= THRESHOLD || fixedCt >= THRESHOLD) {
            System.out.println("verdict: LEAK - a constant-time path's time depends on the exponent (|t| >= 10)");
            status = 1;
        } else if (vt < THRESHOLD) {
            System.out.println("verdict: INCONCLUSIVE - no leak seen in the constant-time paths, but a control"
                    + " showed none either: the measurement is too coarse here");
            status = 2;
        } else {
            System.out.println("verdict: OK - no timing leak seen in the constant-time paths (|t| < 10), while every"
                    + " control shows one, as expected");
            status = 0;
        }
        System.exit(status);
    }

    /**
     * The bits and length experiments under p = 2^255 - 19, the modulus the
     * special-form engine takes: class A one fixed sparse 255-bit exponent
     * against random 255-bit ones, and random 255-bit exponents against
     * random 223-bit ones (four limbs both); nativeModPow as the control.
     * Returns {the largest constant-time |t|, the smallest control |t|}.
     */
    static double[] field25519(Random random, int n) {
        BigInteger p = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
        BigInteger g = new BigInteger(255, random).mod(p);
        double ct = 0, vt = Double.MAX_VALUE;
        for (boolean byLength : new boolean[] {false, true}) {
            Inputs inputs = new Inputs(random, n, byLength, p, g, 255, 223, " 2^255-19");
            double c = measure("nativeModPowCT " + inputs.name, NativeBigInteger::nativeModPowCT, inputs);
            double v = measure("nativeModPow   " + inputs.name, NativeBigInteger::nativeModPow, inputs);
            System.out.printf("|t| %s: nativeModPowCT = %.2f, nativeModPow = %.2f (threshold %.0f)%n", inputs.name, c,
                    v, THRESHOLD);
            ct = Math.max(ct, c);
            vt = Math.min(vt, v);
        }
        return new double[] {ct, vt};
    }

    /** A table in a block from nativeAllocateTable, with the block's generation (the natives take both). */
    static final class LiveTable {
        final ByteBuffer table;
        final long generation;

        LiveTable(ByteBuffer table, long generation) {
            this.table = table;
            this.generation = generation;
        }

        byte[] modPow(byte[] exponent, boolean constantTime) {
            return FixedBase.nativeModPow(table, generation, exponent, constantTime);
        }

        byte[] modPowCTBound(byte[] exponent, int exponentBits) {
            return FixedBase.nativeModPowCTBound(table, generation, exponent, exponentBits);
        }
    }

    /**
     * A table built in place in a block from nativeAllocateTable, as
     * FixedBase's own tables are: native code refuses a table anywhere else.
     * The block lives until the process ends (a few per run).
     */
    static LiveTable liveTable(byte[] base, byte[] modulus, int rows, int blocks, int maxExponentBits) {
        ByteBuffer block = FixedBase.nativeAllocateTable(TableMaker.tableBytes(modulus, rows, blocks));
        long generation = NativeTable.generationOf(block);
        block.position(NativeTable.HEADER_BYTES);
        ByteBuffer table = block.slice().order(ByteOrder.nativeOrder());
        FixedBase.nativeBuildTable(table, generation, base, modulus, rows, blocks, maxExponentBits);
        return new LiveTable(table, generation);
    }

    /**
     * The short-exponent experiments (see the class comment); returns the
     * largest |t| of the constant-time natives, of the fixed-base
     * constant-time path, and the smallest of the controls.
     */
    static double[] shortExponents(Random random, int n, boolean fixedBase) {
        double ct = 0, fixedCt = 0, control = Double.MAX_VALUE;
        for (int[] shape : new int[][] {{1024, 160}, {2048, 256}}) {
            final int bits = shape[0], bound = shape[1];
            TopBit top = new TopBit(random, n, bits, bound);
            double c = measure("nativeModPowCT      " + top.name, NativeBigInteger::nativeModPowCT, top.signed);
            double b = measure("nativeModPowCTBound " + top.name,
                    (x, e, m) -> NativeBigInteger.nativeModPowCTBound(x, e, m, bound), top.signed);
            double f = measure("nativeModPowCTFixed " + top.name, NativeBigInteger::nativeModPowCTFixed, top.unsigned);
            double fb = 0, fbb = 0;
            LiveTable table = null;
            if (fixedBase) {
                table = liveTable(top.signed.base, top.signed.modulus, CombShape.constantTimeRows(bits),
                        CombShape.constantTimeBlocks(bits), bits);
                final LiveTable t = table;
                fb = measure("fixed-base CT       " + top.name, (x, e, m) -> t.modPow(e, true),
                        top.signed);
                fbb = measure("fixed-base CT bound " + top.name,
                        (x, e, m) -> t.modPowCTBound(e, bound), top.signed);
            }
            System.out.printf("|t| %s: nativeModPowCT = %.2f, nativeModPowCTBound = %.2f, nativeModPowCTFixed = %.2f,"
                    + " fixed-base CT = %.2f, bounded = %.2f%n", top.name, c, b, f, fb, fbb);
            ct = Math.max(ct, Math.max(c, Math.max(b, f)));
            fixedCt = Math.max(fixedCt, Math.max(fb, fbb));

            final int limbBits = (bound + 63) / 64 * 64;
            Inputs limbs = Inputs.sameLimbs(random, n, top.signed, limbBits);
            double lc = measure("nativeModPowCT      " + limbs.name, NativeBigInteger::nativeModPowCT, limbs);
            double lb = measure("nativeModPowCTBound " + limbs.name,
                    (x, e, m) -> NativeBigInteger.nativeModPowCTBound(x, e, m, limbBits), limbs);
            double lfb = 0;
            if (table != null) {
                final LiveTable t = table;
                lfb = measure("fixed-base CT       " + limbs.name, (x, e, m) -> t.modPow(e, true),
                        limbs);
            }
            double lv = measure("nativeModPow        " + limbs.name, NativeBigInteger::nativeModPow, limbs,
                    Math.max(1000, n / 20));
            System.out.printf("|t| %s: nativeModPowCT = %.2f, nativeModPowCTBound = %.2f, fixed-base CT = %.2f;"
                    + " control nativeModPow = %.2f%n", limbs.name, lc, lb, lfb, lv);
            ct = Math.max(ct, Math.max(lc, lb));
            fixedCt = Math.max(fixedCt, lfb);
            control = Math.min(control, lv);
        }
        return new double[] {ct, fixedCt, control};
    }

    /**
     * The top-bit experiment's control: a deliberately length-dependent
     * path, measured on the same arrays.  nativeModPowCTBound with the
     * bound set to the toByteArray() array's own length in whole limbs
     * (ownWidthBits), so class A (a sign byte more) is taken one limb wider:
     * 64 more squarings (about 3%).  The shape of the leak this experiment
     * looks for (work that follows the array's length), larger.  (The
     * fixed-length form was this control until it came to run over the
     * array's exact bits: 8 more squarings, 0.4%, too few for the
     * measurements below.)
     * A twentieth of the measurements (at least 1,000), plenty for a
     * difference of that size.
     * Without the bounded native (an older library), nativeModPow's one
     * squaring per exponent bit is the control instead.
     */
    static double lengthControl(TopBit top) {
        int n = Math.max(1000, top.signed.exponents.length / 20);
        if (!NativeBigInteger.constantTimeEdgeToEdge())
            return measure("control nativeModPow " + top.name, NativeBigInteger::nativeModPow, top.signed, n);
        return measure("control CTBound, own width " + top.name,
                (b, e, m) -> NativeBigInteger.nativeModPowCTBound(b, e, m, ownWidthBits(e)), top.signed, n);
    }

    /** An array's length in bits, rounded up to whole 64-bit limbs. */
    static int ownWidthBits(byte[] array) {
        return (array.length * 8 + 63) / 64 * 64;
    }

    /** Exponent bits of the short class in the length experiment: the top 32 bits of 2048 clear. */
    static final int SHORT_BITS = BITS - 32;

    /**
     * The top-bit experiment's inputs at one size: the same exponents in
     * toByteArray() form (signed) and as modulus-length unsigned arrays.
     */
    static final class TopBit {
        final String name;
        final Inputs signed;
        final Inputs unsigned;

        TopBit(Random random, int n, int bits) {
            this(random, n, bits, bits);
        }

        /** Exponents below 2^ebits under a modulus of bits bits (ebits a multiple of 8). */
        TopBit(Random random, int n, int bits, int ebits) {
            name = ebits == bits ? "[top bit " + bits + "]" : "[top bit " + bits + "/" + ebits + "]";
            BigInteger m = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
            BigInteger g = new BigInteger(bits, random).mod(m);
            boolean[] classA = new boolean[n];
            byte[][] signedExponents = new byte[n][];
            byte[][] unsignedExponents = new byte[n][];
            for (int i = 0; i < n; i++) {
                classA[i] = random.nextBoolean();
                BigInteger e = new BigInteger(ebits, random).setBit(ebits - 2);
                e = classA[i] ? e.setBit(ebits - 1) : e.clearBit(ebits - 1);
                signedExponents[i] = e.toByteArray();
                unsignedExponents[i] = unsigned(e, ebits / 8);
            }
            signed = new Inputs(name, g.toByteArray(), m.toByteArray(), classA, signedExponents, true);
            unsigned = new Inputs(name, unsigned(g, bits / 8), unsigned(m, bits / 8), classA, unsignedExponents, false);
            System.out.println("top-bit experiment: class A random " + ebits + "-bit exponents with the top bit set ("
                    + (ebits / 8 + 1) + "-byte arrays), class B with it clear and the next bit set (" + ebits / 8
                    + " bytes); the fixed-length form gets both as " + ebits / 8 + " bytes; one " + bits
                    + "-bit modulus");
        }

        static byte[] unsigned(BigInteger v, int length) {
            byte[] bytes = v.toByteArray();
            byte[] out = new byte[length];
            int copy = Math.min(bytes.length, length);
            System.arraycopy(bytes, bytes.length - copy, out, length - copy, copy);
            return out;
        }
    }

    /** Everything a measurement needs, made before any timing starts. */
    static final class Inputs {
        final String name;
        final byte[] base;
        final byte[] modulus;
        /** Which class each measurement belongs to (true: A), in random order. */
        final boolean[] classA;
        final byte[][] exponents;
        /** Arrays in toByteArray() form (true) or unsigned, results as long as the modulus (false). */
        final boolean signed;

        Inputs(String name, byte[] base, byte[] modulus, boolean[] classA, byte[][] exponents, boolean signed) {
            this.name = name;
            this.base = base;
            this.modulus = modulus;
            this.classA = classA;
            this.exponents = exponents;
            this.signed = signed;
        }

        /**
         * The limb-count experiment under the modulus and base of like:
         * class A random limbBits-bit exponents (a whole number of limbs,
         * the top bit set), class B with the top 32 bits clear and the next
         * set: one limb count, lengths 32 bits apart.
         */
        static Inputs sameLimbs(Random random, int n, Inputs like, int limbBits) {
            int bits = new BigInteger(like.modulus).bitLength();
            boolean[] classA = new boolean[n];
            byte[][] exponents = new byte[n][];
            for (int i = 0; i < n; i++) {
                classA[i] = random.nextBoolean();
                BigInteger e = classA[i] ? new BigInteger(limbBits, random).setBit(limbBits - 1)
                        : new BigInteger(limbBits - 32, random).setBit(limbBits - 33);
                exponents[i] = e.toByteArray();
            }
            String name = "[limbs " + bits + "/" + limbBits + "]";
            System.out.println("limb-count experiment: class A random " + limbBits + "-bit exponents, class B random "
                    + (limbBits - 32) + "-bit ones (" + limbBits / 64 + " limbs both), one " + bits + "-bit modulus");
            return new Inputs(name, like.base, like.modulus, classA, exponents, true);
        }

        /**
         * byLength false: class A one fixed sparse BITS-bit exponent, class B
         * random BITS-bit ones.  byLength true: class A random BITS-bit
         * exponents, class B random SHORT_BITS-bit ones (top bits set).
         */
        Inputs(Random random, int n, boolean byLength, BigInteger m, BigInteger g) {
            this(random, n, byLength, m, g, BITS, SHORT_BITS, "");
        }

        /** The same with exponents of bits and shortBits bits, the name tagged. */
        Inputs(Random random, int n, boolean byLength, BigInteger m, BigInteger g, int bits, int shortBits,
                String tag) {
            signed = true;
            name = (byLength ? "[length" : "[bits") + tag + "]" + (byLength || !tag.isEmpty() ? "" : "  ");
            modulus = m.toByteArray();
            base = g.toByteArray();
            BigInteger fixed = BigInteger.ZERO.setBit(bits - 1);
            while (fixed.bitCount() < 8)
                fixed = fixed.setBit(random.nextInt(bits - 1));
            classA = new boolean[n];
            exponents = new byte[n][];
            for (int i = 0; i < n; i++) {
                classA[i] = random.nextBoolean();
                BigInteger e;
                if (byLength)
                    e = classA[i] ? new BigInteger(bits, random).setBit(bits - 1)
                            : new BigInteger(shortBits, random).setBit(shortBits - 1);
                else
                    // Class A gets a copy of its own too, so both classes touch a fresh array each time.
                    e = classA[i] ? fixed : new BigInteger(bits, random).setBit(bits - 1);
                exponents[i] = e.toByteArray();
            }
            if (byLength)
                System.out.println("length experiment: class A random " + bits + "-bit exponents, class B random "
                        + shortBits + "-bit ones, one modulus");
            else
                System.out.println("bits experiment: class A one " + bits + "-bit exponent of Hamming weight "
                        + fixed.bitCount() + ", class B random " + bits + "-bit exponents (top bit set)");
        }
    }

    /** Times every call, checks a few results against BigInteger, returns the largest |t| over the crops. */
    static double measure(String name, Power f, Inputs in) {
        return measure(name, f, in, in.exponents.length);
    }

    /** The same over the first n inputs only. */
    static double measure(String name, Power f, Inputs in, int n) {
        BigInteger b = in.signed ? new BigInteger(in.base) : new BigInteger(1, in.base);
        BigInteger m = in.signed ? new BigInteger(in.modulus) : new BigInteger(1, in.modulus);
        for (int i = 0; i < 4; i++) {
            BigInteger e = in.signed ? new BigInteger(in.exponents[i]) : new BigInteger(1, in.exponents[i]);
            byte[] r = f.apply(in.base, in.exponents[i], in.modulus);
            if (!(in.signed ? new BigInteger(r) : new BigInteger(1, r)).equals(b.modPow(e, m))
                    || (!in.signed && r.length != in.modulus.length))
                throw new AssertionError(name + " gives a wrong result");
        }
        // Warm-up: compiled call path, caches and clock settled; not counted.
        for (int i = 0; i < Math.min(2000, n); i++)
            f.apply(in.base, in.exponents[i], in.modulus);

        long[] times = new long[n];
        long touched = 0;
        long started = System.nanoTime();
        for (int i = 0; i < n; i++) {
            // The exponent is read once before its timed call, as a caller's
            // freshly made array is in cache: cold, a 25-byte array costs a
            // little more to reach than a 21-byte one (it spans more memory),
            // which is the input's own size, not work the library does:
            // doc/measurements.md: "The fixed-base path's limb-count experiment on the Zen 5 (2026-12-06)"
            touched += readAll(in.exponents[i]);
            long t0 = System.nanoTime();
            f.apply(in.base, in.exponents[i], in.modulus); // a JNI call: never optimised away
            times[i] = System.nanoTime() - t0;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (touched == Long.MIN_VALUE) // never: keeps the reads
            System.out.print("");

        long[] sorted = times.clone();
        Arrays.sort(sorted);
        double worst = 0;
        StringBuilder line = new StringBuilder();
        for (double crop : CROPS) {
            long limit = sorted[Math.min(n - 1, (int) Math.ceil(crop / 100 * n) - 1)];
            Welch w = new Welch();
            for (int i = 0; i < n; i++) {
                if (times[i] <= limit)
                    w.add(in.classA[i], times[i]);
            }
            String label = crop == 100 ? " all:" : " " + crop + "%:";
            if (crop == 100)
                System.out.printf("%s: %.1f s, mean A %.1f us, mean B %.1f us (n A %d, B %d), median %.1f us%n",
                        name, seconds, w.a.mean / 1e3, w.b.mean / 1e3, w.a.n, w.b.n, sorted[n / 2] / 1e3);
            if (w.a.n < 100 || w.b.n < 100) {
                // A crop that leaves one class almost empty says nothing (and would divide by zero).
                line.append(label).append('-');
                continue;
            }
            double t = Math.abs(w.t());
            worst = Math.max(worst, t);
            line.append(label).append(String.format("%.1f", t));
        }
        System.out.println(name + ": |t| by crop:" + line + "  -> max |t| = " + String.format("%.2f", worst));
        return worst;
    }

    /** The sum of the array's bytes: every byte of it read. */
    static long readAll(byte[] bytes) {
        long sum = 0;
        for (byte b : bytes)
            sum += b;
        return sum;
    }

    /** Running mean and variance (Welford), one per class. */
    static final class Moments {
        long n;
        double mean;
        double m2;

        void add(double x) {
            n++;
            double delta = x - mean;
            mean += delta / n;
            m2 += delta * (x - mean);
        }

        double variance() {
            return n > 1 ? m2 / (n - 1) : 0;
        }
    }

    /** Welch's t for two samples of possibly different variances. */
    static final class Welch {
        final Moments a = new Moments();
        final Moments b = new Moments();

        void add(boolean classA, double x) {
            (classA ? a : b).add(x);
        }

        double t() {
            double se = Math.sqrt(a.variance() / a.n + b.variance() / b.n);
            return se == 0 ? 0 : (a.mean - b.mean) / se;
        }
    }
}
