package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The fixed-length modPowCT(byte[], byte[], byte[]) against BigInteger
 * (unsigned big-endian in, exactly the modulus' length out), its bad
 * inputs, and nativeModPowCT's exponents at and around the modulus' width,
 * where the library switches between the fixed-width read and the general
 * path.
 */
class FixedLengthModPowCTTest {
    private static final Random RANDOM = new Random(0x5eedL);

    /** value as exactly length unsigned big-endian bytes. */
    private static byte[] unsigned(BigInteger value, int length) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[length];
        int copy = Math.min(bytes.length, length);
        System.arraycopy(bytes, bytes.length - copy, out, length - copy, copy);
        assertEquals(value, new BigInteger(1, out), "test value does not fit " + length + " bytes");
        return out;
    }

    /** A random odd modulus of bits bits (top bit set). */
    private static BigInteger oddModulus(int bits) {
        BigInteger m = new BigInteger(bits, RANDOM).setBit(bits - 1).setBit(0);
        return bits == 1 ? BigInteger.ONE : m;
    }

    /** Checks the fixed form on arrays of the given lengths against BigInteger. */
    private static void check(BigInteger b, BigInteger e, BigInteger m, int baseLen, int expLen, int modLen) {
        byte[] base = unsigned(b, baseLen);
        byte[] exponent = unsigned(e, expLen);
        byte[] modulus = unsigned(m, modLen);
        byte[] baseCopy = base.clone(), exponentCopy = exponent.clone(), modulusCopy = modulus.clone();
        byte[] got = NativeBigInteger.modPowCT(base, exponent, modulus);
        String what = b.bitLength() + "-bit base, " + e.bitLength() + "-bit exponent in " + expLen + " bytes, "
                + m.bitLength() + "-bit modulus in " + modLen + " bytes";
        assertEquals(modLen, got.length, what + ": result length");
        assertArrayEquals(unsigned(b.modPow(e, m), modLen), got, what);
        assertArrayEquals(baseCopy, base, "base modified");
        assertArrayEquals(exponentCopy, exponent, "exponent modified");
        assertArrayEquals(modulusCopy, modulus, "modulus modified");
    }

    private static int bytesFor(BigInteger v) {
        return Math.max(1, (v.bitLength() + 7) / 8);
    }

    @Test
    void randomSizesMatchBigInteger() {
        int[] sizes = {1, 2, 7, 8, 63, 64, 65, 127, 128, 129, 255, 256, 511, 512, 513, 1023, 1024, 1025, 2047, 2048,
            3072, 4096};
        for (int bits : sizes) {
            for (int round = 0; round < 3; round++) {
                BigInteger m = oddModulus(bits);
                BigInteger b = new BigInteger(bits + 16, RANDOM);
                BigInteger e = new BigInteger(1 + RANDOM.nextInt(bits + 64), RANDOM).max(BigInteger.ONE);
                int modLen = bytesFor(m) + RANDOM.nextInt(3); // leading zero bytes sometimes
                check(b, e, m, bytesFor(b) + RANDOM.nextInt(2), bytesFor(e) + RANDOM.nextInt(3), modLen);
            }
        }
    }

    @Test
    void resultIsZeroPaddedToTheModulusLength() {
        BigInteger m = BigInteger.valueOf(0x10001);
        // 2^16 mod 65537 = 65536: 3 bytes {1, 0, 0}; 2^0..: small results padded
        check(BigInteger.valueOf(2), BigInteger.valueOf(16), m, 1, 1, 3);
        check(BigInteger.valueOf(2), BigInteger.valueOf(1), m, 1, 1, 3);
        check(BigInteger.valueOf(2), BigInteger.valueOf(1), m, 1, 1, 8);
        // A result with zero top bytes under a full-width modulus.
        BigInteger big = oddModulus(2048);
        check(BigInteger.ONE, BigInteger.valueOf(12345), big, 1, 2, 256);
        check(big.subtract(BigInteger.ONE), BigInteger.valueOf(2), big, 256, 1, 256); // (m-1)^2 = 1
    }

    @Test
    void byteBoundariesOfEveryArgument() {
        BigInteger m = oddModulus(1024);
        int[] tops = {0x7f, 0x80, 0xff, 0x01, 0x00};
        for (int top : tops) {
            for (int len : new int[] {1, 2, 8, 9, 64, 127, 128, 129}) {
                byte[] value = new byte[len];
                for (int i = 0; i < len; i++)
                    value[i] = (byte) RANDOM.nextInt(256);
                value[0] = (byte) top;
                BigInteger v = new BigInteger(1, value);
                BigInteger e = v.signum() == 0 ? BigInteger.ONE : v;
                check(v, e, m, len, len, 128);
                check(v, BigInteger.valueOf(3), m, len, 1, 129);
            }
        }
        // A modulus whose top byte is 0x80 and 0xff, and all-0xff exponents.
        for (int top : new int[] {0x80, 0xff}) {
            byte[] mod = new byte[256];
            Arrays.fill(mod, (byte) 0xff);
            mod[0] = (byte) top;
            BigInteger mm = new BigInteger(1, mod);
            byte[] ones = new byte[256];
            Arrays.fill(ones, (byte) 0xff);
            check(BigInteger.valueOf(5), new BigInteger(1, ones), mm, 1, 256, 256);
            check(mm.subtract(BigInteger.ONE), new BigInteger(1, ones), mm, 256, 256, 256);
        }
    }

    @Test
    void exponentLongerOrShorterThanTheModulus() {
        BigInteger m = oddModulus(512);
        check(BigInteger.valueOf(7), new BigInteger(2048, RANDOM).setBit(2047), m, 1, 256, 64);
        check(BigInteger.valueOf(7), new BigInteger(520, RANDOM).setBit(519), m, 1, 65, 64);
        check(BigInteger.valueOf(7), BigInteger.valueOf(3), m, 1, 1, 64);
        check(BigInteger.valueOf(7), BigInteger.valueOf(3), m, 1, 300, 64); // leading zero bytes past the width
        check(BigInteger.valueOf(7), BigInteger.ONE, m, 1, 64, 64);
    }

    @Test
    void smallAndSpecialModuliAndBases() {
        check(BigInteger.valueOf(5), BigInteger.valueOf(3), BigInteger.ONE, 1, 1, 1);  // modulus 1: 0
        check(BigInteger.valueOf(5), BigInteger.valueOf(3), BigInteger.ONE, 1, 1, 4);
        check(BigInteger.valueOf(3), BigInteger.valueOf(3), BigInteger.valueOf(3), 1, 1, 1); // base = m
        check(BigInteger.ZERO, BigInteger.valueOf(9), oddModulus(2048), 1, 1, 256);    // zero base
        check(BigInteger.ZERO, BigInteger.valueOf(9), oddModulus(2048), 300, 1, 256);  // zero base, long
        BigInteger m = oddModulus(2048);
        check(m.shiftLeft(3), BigInteger.valueOf(9), m, 260, 1, 256);                   // base = 0 mod m
        check(BigInteger.valueOf(2), BigInteger.valueOf(5), BigInteger.valueOf(7), 1, 1, 1);
    }

    private static void throwsWithMessage(Class<? extends Throwable> type, String part, Executable call) {
        Throwable t = assertThrows(type, call);
        assertTrue(t.getMessage() != null && t.getMessage().contains(part),
                "message \"" + t.getMessage() + "\" should mention \"" + part + "\"");
    }

    @Test
    void badInputsThrowPreciseExceptions() {
        byte[] three = {3}, seven = {7}, empty = {};
        throwsWithMessage(NullPointerException.class, "base", () -> NativeBigInteger.modPowCT(null, three, seven));
        throwsWithMessage(NullPointerException.class, "exponent", () -> NativeBigInteger.modPowCT(three, null, seven));
        throwsWithMessage(NullPointerException.class, "modulus", () -> NativeBigInteger.modPowCT(three, three, null));
        throwsWithMessage(IllegalArgumentException.class, "base", () -> NativeBigInteger.modPowCT(empty, three, seven));
        throwsWithMessage(IllegalArgumentException.class, "exponent", () -> NativeBigInteger.modPowCT(three, empty, seven));
        throwsWithMessage(IllegalArgumentException.class, "modulus", () -> NativeBigInteger.modPowCT(three, three, empty));
        throwsWithMessage(ArithmeticException.class, "modulus not positive",
                () -> NativeBigInteger.modPowCT(three, three, new byte[] {0, 0}));
        throwsWithMessage(ArithmeticException.class, "odd", () -> NativeBigInteger.modPowCT(three, three, new byte[] {8}));
        throwsWithMessage(ArithmeticException.class, "odd",
                () -> NativeBigInteger.modPowCT(three, three, new byte[] {(byte) 0xff, (byte) 0xfe}));
        throwsWithMessage(ArithmeticException.class, "exponent must be positive",
                () -> NativeBigInteger.modPowCT(three, new byte[] {0, 0, 0}, seven));
    }

    @Test
    void nativeFixedFormRefusesBadInputsItself() {
        if (!NativeBigInteger.constantTimeEdgeToEdge())
            return; // no such native here; the public method's checks are tested above
        byte[] three = {3}, seven = {7}, empty = {};
        throwsWithMessage(NullPointerException.class, "base", () -> NativeBigInteger.nativeModPowCTFixed(null, three, seven));
        throwsWithMessage(NullPointerException.class, "exponent", () -> NativeBigInteger.nativeModPowCTFixed(three, null, seven));
        throwsWithMessage(NullPointerException.class, "modulus", () -> NativeBigInteger.nativeModPowCTFixed(three, three, null));
        throwsWithMessage(IllegalArgumentException.class, "base", () -> NativeBigInteger.nativeModPowCTFixed(empty, three, seven));
        throwsWithMessage(IllegalArgumentException.class, "exponent", () -> NativeBigInteger.nativeModPowCTFixed(three, empty, seven));
        throwsWithMessage(IllegalArgumentException.class, "modulus", () -> NativeBigInteger.nativeModPowCTFixed(three, three, empty));
        throwsWithMessage(ArithmeticException.class, "modulus not positive",
                () -> NativeBigInteger.nativeModPowCTFixed(three, three, new byte[] {0}));
        throwsWithMessage(ArithmeticException.class, "odd", () -> NativeBigInteger.nativeModPowCTFixed(three, three, new byte[] {4}));
        throwsWithMessage(ArithmeticException.class, "exponent must be positive",
                () -> NativeBigInteger.nativeModPowCTFixed(three, new byte[] {0, 0}, seven));
    }

    @Test
    void edgeToEdgeWhereverThisLibraryIsLoaded() {
        assertEquals(NativeBigInteger.isNative() && NativeBigInteger.getJbigiVersion() >= 5,
                NativeBigInteger.constantTimeEdgeToEdge());
    }

    // ---- nativeModPowCT (I2P's signature): exponents at the modulus' width ----

    private static void checkNativeCT(BigInteger b, byte[] exponent, BigInteger m) {
        BigInteger e = new BigInteger(exponent);
        assertArrayEquals(b.modPow(e, m).toByteArray(),
                NativeBigInteger.nativeModPowCT(b.toByteArray(), exponent, m.toByteArray()),
                e.bitLength() + "-bit exponent in " + exponent.length + " bytes, " + m.bitLength() + "-bit modulus");
    }

    @Test
    void nativeModPowCTAtAndAroundTheModulusWidth() {
        if (!NativeBigInteger.isNative())
            return;
        for (int bits : new int[] {64, 1000, 1024, 2040, 2048, 3072, 4096}) {
            BigInteger m = oddModulus(bits);
            BigInteger b = new BigInteger(bits, RANDOM).mod(m);
            int width = (bits + 63) / 64 * 64;
            // Top bit of the full limb width set (a sign byte in front), and clear.
            checkNativeCT(b, new BigInteger(width, RANDOM).setBit(width - 1).toByteArray(), m);
            checkNativeCT(b, new BigInteger(width, RANDOM).clearBit(width - 1).setBit(width - 2).toByteArray(), m);
            // Short, one bit, wider than the modulus' limbs.
            checkNativeCT(b, BigInteger.valueOf(3).toByteArray(), m);
            checkNativeCT(b, new BigInteger(width + 1, RANDOM).setBit(width).toByteArray(), m);
            checkNativeCT(b, new BigInteger(width + 100, RANDOM).setBit(width + 99).toByteArray(), m);
            // Non-canonical: leading zero bytes up to and past the width.
            byte[] three = new byte[width / 8 + 1];
            three[three.length - 1] = 3;
            checkNativeCT(b, three, m);
            byte[] threeWide = new byte[width / 8 + 2];
            threeWide[threeWide.length - 1] = 3;
            checkNativeCT(b, threeWide, m);
            // Zero base, base = m, negative base.
            checkNativeCT(BigInteger.ZERO, BigInteger.TEN.toByteArray(), m);
            checkNativeCT(m, BigInteger.TEN.toByteArray(), m);
            checkNativeCT(b.negate(), BigInteger.TEN.toByteArray(), m);
        }
    }

    @Test
    void nativeModPowCTRefusesZeroAndNegativeExponentsAtAnyWidth() {
        if (!NativeBigInteger.isNative())
            return;
        byte[] m = oddModulus(2048).toByteArray();
        for (byte[] e : new byte[][] {{0}, new byte[257], new byte[258], {-1}, {(byte) 0x80, 0},
            new BigInteger(2048, RANDOM).setBit(2047).negate().toByteArray()}) {
            throwsWithMessage(ArithmeticException.class, "exponent must be positive",
                    () -> NativeBigInteger.nativeModPowCT(new byte[] {2}, e, m));
        }
    }

    // ---- the fixed-base table's constant-time path: exponents at the table's reach ----

    @Test
    void fixedBaseConstantTimeAtAndAroundTheReach() {
        if (!NativeBigInteger.isNative() || !NativeBigInteger.hasFixedBase())
            return;
        for (int bits : new int[] {1000, 1024, 2048, 4096}) {
            BigInteger m = oddModulus(bits);
            BigInteger g = new BigInteger(bits, RANDOM).mod(m);
            int rows = CombShape.constantTimeRows(bits), blocks = CombShape.constantTimeBlocks(bits);
            Tables.Block table = Tables.direct(Tables.build(g.toByteArray(), m.toByteArray(), rows, blocks, bits));
            // The reach as fixedbase.c rounds it: whole blocks of whole rows.
            int blockBits = ((bits + rows - 1) / rows + blocks - 1) / blocks;
            int reach = blockBits * blocks * rows;
            BigInteger[] exponents = {new BigInteger(bits, RANDOM).setBit(bits - 1),
                new BigInteger(bits, RANDOM).clearBit(bits - 1).setBit(bits - 2), BigInteger.ONE,
                BigInteger.valueOf(255), BigInteger.ONE.shiftLeft(bits - 1)};
            for (BigInteger e : exponents) {
                assertArrayEquals(g.modPow(e, m).toByteArray(), table.modPow(e.toByteArray(), true),
                        bits + "-bit table, " + e.bitLength() + "-bit exponent");
                // Leading zero bytes, up to and past the reach's width.
                byte[] wide = new byte[(bits + 63) / 64 * 8 + 2];
                byte[] plain = e.toByteArray();
                System.arraycopy(plain, 0, wide, wide.length - plain.length, plain.length);
                assertArrayEquals(g.modPow(e, m).toByteArray(), table.modPow(wide, true));
            }
            BigInteger tooLong = BigInteger.ONE.shiftLeft(reach); // inside the reach's limbs, or past them
            BigInteger atReach = BigInteger.ONE.shiftLeft(reach - 1);
            assertArrayEquals(g.modPow(atReach, m).toByteArray(), table.modPow(atReach.toByteArray(), true));
            throwsWithMessage(ArithmeticException.class, "longer",
                    () -> table.modPow(tooLong.toByteArray(), true));
            throwsWithMessage(ArithmeticException.class, "negative",
                    () -> table.modPow(BigInteger.TEN.negate().toByteArray(), true));
        }
    }
}
