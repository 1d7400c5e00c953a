package net.i2p.util;

import static net.i2p.util.BadInputMatrixTest.BASES;
import static net.i2p.util.BadInputMatrixTest.EXPONENTS;
import static net.i2p.util.BadInputMatrixTest.MODULI;
import static net.i2p.util.BadInputMatrixTest.ODD_2048;
import static net.i2p.util.BadInputMatrixTest.assertNoFailures;
import static net.i2p.util.BadInputMatrixTest.b;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The bad-input matrix for the fixed-base natives.  Their table is a direct
 * buffer that native code reads in place (handled here as its long[] limbs), so besides bad numbers and shapes
 * they must survive tables that are not theirs: null, short, long, every
 * checked header word broken, the modulus broken, the entries garbled.  A
 * broken header must be refused; garbled entries may give any number, but
 * nothing may crash.
 *
 * Table layout (src/core/fixedbase.c): [0] magic [1] modulus limbs [2] rows
 * [3] blocks [4] block bits [5] -m^-1 mod 2^64, the modulus, the entries.
 * The block width (word 4) is only bounded (by the modulus' width), not
 * cross-checked, so it is broken here only to small values: a wrong width
 * gives wrong numbers.
 */
class FixedBaseBadInputTest {
    private static final AtomicInteger TRIED = new AtomicInteger();

    /** rows, blocks, maxExponentBits: three good shapes, then each parameter out of range. */
    private static final int[][] SHAPES = {
        {3, 2, 8}, {1, 1, 1}, {10, 1, 16},
        {0, 2, 8}, {11, 2, 8}, {-1, 2, 8}, {3, 0, 8}, {3, 65, 8}, {3, -5, 8}, {3, 2, 0}, {3, 2, -1},
        {3, 2, Integer.MIN_VALUE}, {Integer.MAX_VALUE, 2, 8}, {3, Integer.MIN_VALUE, 8},
    };

    @AfterAll
    static void report() {
        System.out.println("fixed-base bad-input matrix: " + TRIED.get() + " bad inputs tried");
    }

    private static boolean shapeInRange(int[] s) {
        return s[0] >= 1 && s[0] <= 10 && s[1] >= 1 && s[1] <= 64 && s[2] >= 1;
    }

    /** The exponent bits a table covers: rows x blocks x block bits. */
    private static int reach(long[] table) {
        return (int) (table[2] * table[3] * table[4]);
    }

    /**
     * Every base, modulus and shape: refused as BadInputs and the shape and
     * modulus checks say, or a table whose powers are BigInteger's.
     */
    @Test
    void tableBuilderOverEveryCombination() {
        List<String> failures = new ArrayList<String>();
        int calls = 0;
        for (byte[] base : BASES) {
            for (byte[] modulus : MODULI) {
                for (int[] shape : SHAPES) {
                    List<BadInputs.Warrant> warrants = new ArrayList<BadInputs.Warrant>();
                    BigInteger g = BadInputs.operand(base, "base", warrants);
                    BigInteger m = BadInputs.operand(modulus, "modulus", warrants);
                    if (!shapeInRange(shape))
                        warrants.add(new BadInputs.Warrant(IllegalArgumentException.class, "shape"));
                    if (m != null && (m.compareTo(BigInteger.ONE) <= 0 || !m.testBit(0)))
                        warrants.add(new BadInputs.Warrant(ArithmeticException.class, "odd modulus"));
                    if (m != null && shape[2] > m.bitLength())
                        warrants.add(new BadInputs.Warrant(IllegalArgumentException.class, "reach"));
                    String what = "nativeFixedBaseTable(" + BadInputs.show(base) + ", " + BadInputs.show(modulus)
                            + ", " + Arrays.toString(shape) + ")";
                    long[][] table = new long[1][];
                    String failure = BadInputs.verify(what, warrants, null, null, () -> {
                        table[0] = Tables.build(base, modulus, shape[0], shape[1], shape[2]);
                        return new byte[] {0};
                    });
                    calls++;
                    if (failure == null && table[0] != null)
                        failure = powersAreRight(what, table[0], g, m);
                    if (failure != null)
                        failures.add(failure);
                }
            }
        }
        TRIED.addAndGet(calls);
        assertNoFailures(failures, calls);
    }

    /** A few exponents up to the table's reach, both paths. */
    private static String powersAreRight(String what, long[] table, BigInteger g, BigInteger m) {
        int reach = reach(table);
        BigInteger top = BigInteger.ONE.shiftLeft(reach).subtract(BigInteger.ONE);
        for (BigInteger e : new BigInteger[] {BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(5).min(top), top}) {
            for (boolean ct : new boolean[] {false, true}) {
                String failure = BadInputs.verify(what + " then powm(" + e + ", ct=" + ct + ")",
                        new ArrayList<BadInputs.Warrant>(), null, b(g.modPow(e, m)),
                        () -> Tables.modPow(table, b(e), ct));
                TRIED.incrementAndGet();
                if (failure != null)
                    return failure;
            }
        }
        return null;
    }

    /** A table and what it must do: refuse (broken), compute (sound), or anything but crash (garbled). */
    private static final class Table {
        final String name;
        final long[] limbs;
        final boolean broken;
        final boolean garbled;
        final BigInteger base;
        final BigInteger modulus;
        /** The exponent bits it covers; for a broken table, those of the table it was made from. */
        final int reach;

        Table(String name, long[] limbs, boolean broken, boolean garbled, BigInteger base, BigInteger modulus,
              int reach) {
            this.name = name;
            this.limbs = limbs;
            this.broken = broken;
            this.garbled = garbled;
            this.base = base;
            this.modulus = modulus;
            this.reach = broken ? reach : reach(limbs);
        }
    }

    private static List<Table> tables() {
        Random random = new Random(11);
        List<Table> tables = new ArrayList<Table>();
        tables.add(new Table("null", null, true, false, null, null, 0));
        for (int length : new int[] {0, 1, 5, 6, 7, 500})
            tables.add(new Table("zeros[" + length + "]", new long[length], true, false, null, null, 0));
        BigInteger[][] sound = {
            {BigInteger.valueOf(3), BigInteger.valueOf(251)},
            {BigInteger.valueOf(-5), BigInteger.ONE.shiftLeft(71).add(BigInteger.ONE)},
            {new BigInteger(2040, random), ODD_2048},
        };
        int[][] shapes = {{3, 2, 8}, {2, 3, 72}, {4, 2, 2048}};
        for (int i = 0; i < sound.length; i++) {
            BigInteger g = sound[i][0];
            BigInteger m = sound[i][1];
            long[] t = Tables.build(b(g), b(m), shapes[i][0], shapes[i][1], shapes[i][2]);
            String name = "table(" + g + " mod " + m.bitLength() + "-bit m)";
            int reach = reach(t);
            tables.add(new Table(name, t, false, false, g, m, reach));
            tables.add(new Table(name + " short", Arrays.copyOf(t, t.length - 1), true, false, g, m, reach));
            tables.add(new Table(name + " long", Arrays.copyOf(t, t.length + 1), true, false, g, m, reach));
            tables.add(new Table(name + " header only", Arrays.copyOf(t, 6), true, false, g, m, reach));
            for (int word : new int[] {0, 1, 2, 3, 5}) {
                for (long value : new long[] {t[word] ^ 1, 0, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
                    if (value == t[word])
                        continue; // e.g. -m^-1 is -1 when the low limb of m is 1: not broken at all
                    long[] broken = t.clone();
                    broken[word] = value;
                    tables.add(new Table(name + " word " + word + "=" + value, broken, true, false, g, m, reach));
                }
            }
            long[] even = t.clone();
            even[6] ^= 1;
            tables.add(new Table(name + " even modulus", even, true, false, g, m, reach));
            long[] noTop = t.clone();
            noTop[6 + (int) t[1] - 1] = 0;
            tables.add(new Table(name + " modulus top limb 0", noTop, true, false, g, m, reach));
            // Widths up to what the modulus' width allows only change the
            // reach (wrong numbers, no harm); wider ones must be refused.
            long rowBits = (64 * t[1] + t[2] - 1) / t[2];
            long widest = (rowBits + t[3] - 1) / t[3];
            for (long width : new long[] {1, t[4] + 1, widest, widest + 1}) {
                long[] wide = t.clone();
                wide[4] = width;
                boolean refused = width > widest;
                tables.add(new Table(name + " block bits " + width, wide, refused, !refused, g, m, reach));
            }
            long[] garbled = t.clone();
            for (int k = 6 + (int) t[1]; k < garbled.length; k++)
                garbled[k] = random.nextLong();
            tables.add(new Table(name + " garbled entries", garbled, false, true, g, m, reach));
        }
        return tables;
    }

    /** Every table against every exponent, variable and constant time. */
    @Test
    void tablePowersOverEveryCombination() {
        byte[] overLimit = new byte[BadInputs.LIMIT + 1];
        overLimit[overLimit.length - 1] = 1;
        List<String> failures = new ArrayList<String>();
        int calls = 0;
        for (Table table : tables()) {
            List<byte[]> exponents = new ArrayList<byte[]>(Arrays.asList(EXPONENTS));
            exponents.add(overLimit);
            if (table.reach > 0) {
                exponents.add(b(BigInteger.ONE.shiftLeft(table.reach).subtract(BigInteger.ONE))); // the longest it covers
                exponents.add(b(BigInteger.ONE.shiftLeft(table.reach)));                          // one bit too long
            }
            for (byte[] exponent : exponents) {
                for (boolean ct : new boolean[] {false, true}) {
                    String failure = tablePower(table, exponent, ct);
                    calls++;
                    if (failure != null)
                        failures.add(failure);
                }
            }
        }
        TRIED.addAndGet(calls);
        assertNoFailures(failures, calls);
    }

    private static String tablePower(Table table, byte[] exponent, boolean ct) {
        List<BadInputs.Warrant> warrants = new ArrayList<BadInputs.Warrant>();
        if (table.limbs == null)
            warrants.add(new BadInputs.Warrant(NullPointerException.class, "table"));
        else if (table.broken)
            warrants.add(new BadInputs.Warrant(IllegalArgumentException.class, "table"));
        BigInteger e = BadInputs.operand(exponent, "exponent", warrants);
        Class<? extends Throwable> wantThrown = null;
        byte[] want = null;
        if (warrants.isEmpty()) {
            if (e.signum() < 0 || e.bitLength() > table.reach)
                wantThrown = ArithmeticException.class;
            else if (!table.garbled)
                want = b(table.base.modPow(e, table.modulus));
        }
        String what = "nativeFixedBaseModPow(" + table.name + ", " + BadInputs.show(exponent) + ", ct=" + ct + ")";
        return BadInputs.verify(what, warrants, wantThrown, want,
                () -> Tables.modPow(table.limbs, exponent, ct));
    }
}
