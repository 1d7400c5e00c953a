package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fixed-base tables, explicit and transparent, against BigInteger.modPow:
 * moduli of 2..4096 bits, exponents from 0 to twice the modulus length and
 * negative, bases unreduced and negative, and tables that are not tables.
 */
class FixedBaseTest {
    private static long seed;

    @BeforeAll
    static void pickSeed() {
        seed = Long.getLong("jbigi.test.seed", System.nanoTime());
        System.out.println("FixedBaseTest seed " + seed + " (replay with -Djbigi.test.seed=" + seed + ")");
        assertTrue(NativeBigInteger.hasFixedBase(), "the library built here has fixed-base support");
    }

    private static BigInteger randomExponent(Random random, int modulusBits) {
        switch (random.nextInt(10)) {
        case 0:
            return BigInteger.ZERO;
        case 1:
            return BigInteger.ONE.shiftLeft(modulusBits).subtract(BigInteger.ONE); // all ones, full reach
        case 2:
            return new BigInteger(1 + random.nextInt(2 * modulusBits), random).negate();
        default:
            return new BigInteger(1 + random.nextInt(2 * modulusBits), random);
        }
    }

    private static void checkOneBase(Random random, int bits, boolean oddModulus, List<String> failures) {
        BigInteger top = new BigInteger(bits, random).setBit(bits - 1);
        BigInteger modulus = oddModulus ? top.setBit(0) : top.clearBit(0).max(BigInteger.valueOf(2));
        BigInteger base = new BigInteger(bits + 16, random);
        BigInteger signedBase = random.nextBoolean() ? base : base.negate();
        FixedBase fixed = NativeBigInteger.fixedBase(signedBase, modulus);
        assertEquals(oddModulus && bits > 1, fixed.usesTable(), "odd modulus > 1 gets a table");
        for (int i = 0; i < 12; i++) {
            BigInteger e = randomExponent(random, bits);
            Outcome want = Outcome.of(() -> signedBase.modPow(e, modulus));
            Outcome got = Outcome.of(() -> fixed.modPow(e));
            Outcome gotCT = Outcome.of(() -> fixed.modPowCT(e));
            if ((!want.sameAs(got) || !want.sameAs(gotCT)) && failures.size() < 10)
                failures.add(bits + "-bit modulus " + modulus.toString(16) + " base " + signedBase.toString(16)
                        + " exponent " + e.toString(16) + ": BigInteger " + want + ", fixed " + got + ", CT " + gotCT);
        }
    }

    @Test
    void explicitTablesAgreeWithBigInteger() {
        Random random = new Random(seed);
        List<String> failures = new ArrayList<String>();
        int[] sizes = {2, 3, 8, 63, 64, 65, 100, 128, 255, 256, 257, 511, 512, 513, 1023, 1024, 1536, 2048, 3072, 4096};
        for (int bits : sizes) {
            for (int rep = 0; rep < (bits > 1024 ? 2 : 8); rep++) {
                checkOneBase(random, bits, true, failures);
                if (rep == 0)
                    checkOneBase(random, bits, false, failures);
            }
        }
        assertTrue(failures.isEmpty(), "seed " + seed + ":\n" + String.join("\n", failures));
    }

    @Test
    void modulusOneAndNonPositiveModuli() {
        FixedBase one = NativeBigInteger.fixedBase(BigInteger.valueOf(5), BigInteger.ONE);
        assertFalse(one.usesTable());
        assertEquals(BigInteger.ZERO, one.modPow(BigInteger.TEN));
        assertEquals(BigInteger.ZERO, one.modPowCT(BigInteger.valueOf(-3)));
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.fixedBase(BigInteger.TEN, BigInteger.ZERO));
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.fixedBase(BigInteger.TEN, BigInteger.TEN.negate()));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.fixedBase(null, BigInteger.TEN));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.fixedBase(BigInteger.TEN, null));
        FixedBase fixed = NativeBigInteger.fixedBase(BigInteger.valueOf(3), BigInteger.valueOf(7));
        assertThrows(NullPointerException.class, () -> fixed.modPow(null));
        assertThrows(NullPointerException.class, () -> fixed.modPowCT(null));
        // A base with no inverse and a negative exponent: what BigInteger throws.
        FixedBase zero = NativeBigInteger.fixedBase(BigInteger.valueOf(14), BigInteger.valueOf(7));
        assertThrows(ArithmeticException.class, () -> zero.modPow(BigInteger.valueOf(-1)));
        assertEquals(BigInteger.ZERO, zero.modPow(BigInteger.valueOf(5)));
        assertEquals(BigInteger.ONE, zero.modPow(BigInteger.ZERO));
    }

    /** I2P's pattern: one NativeBigInteger generator object, many modPow calls. */
    @Test
    void reusedBasesBuildTablesTransparently() {
        Random random = new Random(seed + 1);
        BigInteger p = SpeedTest.GROUP14_PRIME;
        NativeBigInteger g = new NativeBigInteger(SpeedTest.GROUP14_GENERATOR);
        for (int i = 0; i < 40; i++) {
            BigInteger x = new BigInteger(2048, random);
            assertEquals(SpeedTest.GROUP14_GENERATOR.modPow(x, p), g.modPow(x, p), "modPow call " + i);
            assertEquals(SpeedTest.GROUP14_GENERATOR.modPow(x, p), g.modPowCT(x, p), "modPowCT call " + i);
        }
        // Alternating moduli, exponents past the reach, negative exponents: all still exact.
        BigInteger q = BigInteger.probablePrime(512, random);
        for (int i = 0; i < 30; i++) {
            BigInteger m = i % 2 == 0 ? p : q;
            BigInteger x = i % 5 == 0 ? new BigInteger(4096, random) : new BigInteger(m.bitLength(), random);
            if (i % 7 == 0)
                x = x.negate();
            assertEquals(SpeedTest.GROUP14_GENERATOR.modPow(x, m), g.modPow(x, m), "mixed call " + i);
        }
    }

    @Test
    void oneTableServesManyThreads() throws Exception {
        Random setup = new Random(seed + 2);
        BigInteger modulus = new BigInteger(1024, setup).setBit(1023).setBit(0);
        BigInteger base = new BigInteger(1024, setup);
        FixedBase fixed = NativeBigInteger.fixedBase(base, modulus);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<Future<Integer>>();
            for (int t = 0; t < 8; t++) {
                final long threadSeed = seed + 100 + t;
                results.add(pool.submit(() -> {
                    Random random = new Random(threadSeed);
                    int checked = 0;
                    for (int i = 0; i < 150; i++) {
                        BigInteger e = new BigInteger(1 + random.nextInt(1024), random);
                        BigInteger want = base.modPow(e, modulus);
                        assertEquals(want, fixed.modPow(e));
                        assertEquals(want, fixed.modPowCT(e));
                        checked += 2;
                    }
                    return checked;
                }));
            }
            int total = 0;
            for (Future<Integer> f : results)
                total += f.get();
            assertEquals(8 * 300, total);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void nativesRefuseWhatIsNotATable() {
        byte[] e = {5};
        assertThrows(NullPointerException.class, () -> Tables.modPow(null, e, false));
        assertThrows(IllegalArgumentException.class, () -> Tables.modPow(new long[0], e, false));
        assertThrows(IllegalArgumentException.class, () -> Tables.modPow(new long[500], e, true));
        long[] table = Tables.build(new byte[] {3}, new byte[] {0, (byte) 251}, 3, 2, 8);
        for (int i = 0; i < 7; i++) {
            long[] broken = table.clone();
            broken[i] ^= 0x5a5a;
            if (i == 4)
                continue; // the block width: changes the reach, checked in the C tests
            assertThrows(IllegalArgumentException.class, () -> Tables.modPow(broken, e, false),
                    "header word " + i);
        }
        long[] truncated = java.util.Arrays.copyOf(table, table.length - 1);
        assertThrows(IllegalArgumentException.class, () -> Tables.modPow(truncated, e, false));
        // Within reach it works; past it (9 bits for an 8-bit table) it refuses.
        assertEquals(BigInteger.valueOf(3).modPow(BigInteger.valueOf(200), BigInteger.valueOf(251)),
                new BigInteger(Tables.modPow(table, new byte[] {0, (byte) 200}, true)));
        assertThrows(ArithmeticException.class,
                () -> Tables.modPow(table, new byte[] {1, 0, 0}, false));
        assertThrows(ArithmeticException.class, () -> Tables.modPow(table, new byte[] {-1}, false));
        assertThrows(ArithmeticException.class,
                () -> Tables.build(new byte[] {3}, new byte[] {8}, 3, 2, 8));
        assertThrows(ArithmeticException.class,
                () -> Tables.build(new byte[] {3}, new byte[] {1}, 3, 2, 8));
        assertThrows(IllegalArgumentException.class,
                () -> Tables.build(new byte[] {3}, new byte[] {7}, 0, 2, 8));
        assertThrows(IllegalArgumentException.class,
                () -> Tables.build(new byte[] {3}, new byte[] {7}, 11, 2, 8));
        assertThrows(IllegalArgumentException.class,
                () -> Tables.build(new byte[] {3}, new byte[] {7}, 3, 2, 0));
    }

    @Test
    void tableSizesStayModest() {
        BigInteger p = SpeedTest.GROUP14_PRIME;
        FixedBase fixed = NativeBigInteger.fixedBase(SpeedTest.GROUP14_GENERATOR, p);
        long variableTime = fixed.tableBytes();
        // 8 x 4 in GMP limbs: 256 KiB; 7 x 4 in the IFMA engine's 52-bit digits (40 words a number): 160 KiB.
        assertTrue(variableTime > 64 * 1024 && variableTime <= 264 * 1024, "2048-bit table: " + variableTime + " bytes");
        fixed.modPowCT(BigInteger.TEN);
        // 6 x 6 in GMP limbs: 96 KiB; 5 x 8 in IFMA digits: 80 KiB.
        assertTrue(fixed.tableBytes() - variableTime <= 100 * 1024, "constant-time table: "
                + (fixed.tableBytes() - variableTime) + " bytes");
        assertEquals(2048, fixed.maxExponentBits());
    }
}
