package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.math.BigInteger;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The edges of the bounded modPowCT and of the constant-time natives:
 * a bound above 2^27 (the library's operand limit in bits) is refused
 * with or without the library, an exponent of 0 under a bound gives
 * BigInteger's 1, and the natives check their arguments in order, each
 * array first (null, empty, size), as the others do.
 */
class BoundEdgeTest {
    private static final int MAX_BOUND = 1 << 27;
    private static final BigInteger M = new BigInteger("340282366920938463463374607431768211297"); // 2^128 - 159
    private static final BigInteger E = BigInteger.valueOf(65537);
    private static final byte[] B = {3};
    private static final byte[] EB = E.toByteArray();
    private static final byte[] MB = M.toByteArray();
    /** One byte over the library's operand size limit. */
    private static final byte[] OVERSIZE = new byte[BadInputs.LIMIT + 1];

    /** Every public bounded form with exponentBits bits; what each gives, or the exception's class. */
    static String boundedForms(int exponentBits) {
        NativeBigInteger base = new NativeBigInteger(BigInteger.valueOf(3));
        StringBuilder out = new StringBuilder();
        out.append(outcome(() -> NativeBigInteger.modPowCT(base, E, M, exponentBits))).append(' ');
        out.append(outcome(() -> base.modPowCT(E, M, exponentBits))).append(' ');
        try (FixedBase fixed = NativeBigInteger.fixedBase(base, M)) {
            out.append(outcome(() -> fixed.modPowCT(E, exponentBits)));
        }
        return out.toString();
    }

    private interface Call {
        BigInteger run();
    }

    private static String outcome(Call call) {
        try {
            return call.run().toString();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    @Test
    void aBoundAbove2To27IsRefusedWithTheLibrary() {
        String expected = BigInteger.valueOf(3).modPow(E, M).toString();
        assertEquals(expected + " " + expected + " " + expected, boundedForms(64));
        for (int bits : new int[] {MAX_BOUND + 1, MAX_BOUND + 64, Integer.MAX_VALUE}) {
            assertEquals("IllegalArgumentException IllegalArgumentException IllegalArgumentException",
                    boundedForms(bits), "exponentBits " + bits);
        }
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> NativeBigInteger.modPowCT(BigInteger.valueOf(3), E, M, MAX_BOUND + 1));
        assertTrue(x.getMessage().contains("134217728"), x.getMessage());
    }

    @Test
    void aBoundAbove2To27IsRefusedWithoutTheLibrary() throws Exception {
        Subprocess p = Subprocess.run(Subprocess.mainClasses() + File.pathSeparator + Subprocess.testClasses(),
                Arrays.asList("-Djbigi.enable=false", "-Djava.library.path=lib"), BoundEdgeTest.class.getName());
        assertEquals(0, p.exitCode, p.output);
        String expected = BigInteger.valueOf(3).modPow(E, M).toString();
        String all = expected + " " + expected + " " + expected;
        String refused = "IllegalArgumentException IllegalArgumentException IllegalArgumentException";
        assertTrue(p.output.contains("native=false\n"), p.output);
        assertTrue(p.output.contains("bound 64: " + all + "\n"), p.output);
        assertTrue(p.output.contains("bound " + MAX_BOUND + ": " + all + "\n"), p.output);
        assertTrue(p.output.contains("bound " + (MAX_BOUND + 1) + ": " + refused + "\n"), p.output);
        assertTrue(p.output.contains("bound " + Integer.MAX_VALUE + ": " + refused + "\n"), p.output);
    }

    /** Run by the test without the library: the bounded forms at the edges of the bound. */
    public static void main(String[] args) {
        System.out.println("native=" + NativeBigInteger.isNative());
        for (int bits : new int[] {64, MAX_BOUND, MAX_BOUND + 1, Integer.MAX_VALUE})
            System.out.println("bound " + bits + ": " + boundedForms(bits));
    }

    @Test
    void aZeroExponentUnderABoundGivesOneAsBigIntegerDoes() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.constantTimeEdgeToEdge(), "no bounded native");
        assertArrayEquals(new byte[] {1}, NativeBigInteger.nativeModPowCTBound(B, new byte[] {0}, MB, 8));
        assertArrayEquals(new byte[] {1}, NativeBigInteger.nativeModPowCTBound(B, new byte[] {0, 0, 0}, MB, 1));
        assertArrayEquals(new byte[] {1}, NativeBigInteger.nativeModPowCTBound(new byte[] {0}, new byte[] {0}, MB, 64));
        assertArrayEquals(new byte[] {1}, NativeBigInteger.nativeModPowCTBound(B, new byte[] {0}, MB, MAX_BOUND));
        assertArrayEquals(new byte[] {0}, NativeBigInteger.nativeModPowCTBound(B, new byte[] {0}, new byte[] {1}, 8),
                "x^0 mod 1");
        for (int bits : new int[] {1, 63, 64, 65, 1024}) {
            assertEquals(BigInteger.ONE, NativeBigInteger.modPowCT(BigInteger.valueOf(3), BigInteger.ZERO, M, bits));
            assertEquals(BigInteger.ZERO,
                    NativeBigInteger.modPowCT(BigInteger.valueOf(3), BigInteger.ZERO, BigInteger.ONE, bits));
        }
        // I2P's contract stays: nativeModPowCT refuses an exponent <= 0.
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.nativeModPowCT(B, new byte[] {0}, MB));
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.nativeModPowCT(B, new byte[] {-1}, MB));
        // The fixed-length form's contract: an exponent of 0 is refused.
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.nativeModPowCTFixed(B, new byte[] {0, 0}, MB));
    }

    @Test
    void theBoundedNativeChecksEachArrayFirstThenTheBoundThenTheModulus() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.constantTimeEdgeToEdge(), "no bounded native");
        byte[] even = {8};
        byte[] empty = {};
        for (int bad : new int[] {0, -1, MAX_BOUND + 1}) {
            expect(NullPointerException.class, "base", () -> bound(null, EB, MB, bad));
            expect(NullPointerException.class, "base", () -> bound(null, null, null, bad));
            expect(NullPointerException.class, "exponent", () -> bound(B, null, even, bad));
            expect(NullPointerException.class, "modulus", () -> bound(B, EB, null, bad));
            expect(NumberFormatException.class, "Zero length", () -> bound(empty, EB, MB, bad));
            expect(NumberFormatException.class, "Zero length", () -> bound(B, empty, MB, bad));
            expect(NumberFormatException.class, "Zero length", () -> bound(B, EB, empty, bad));
            expect(ArithmeticException.class, "limit", () -> bound(B, OVERSIZE, even, bad));
            // The bound before the modulus' value, as the Java path.
            expect(IllegalArgumentException.class, "exponentBits", () -> bound(B, EB, even, bad));
        }
        // The exponent against its bound, then the modulus' value.
        expect(IllegalArgumentException.class, "below", () -> bound(B, EB, even, 8));
        expect(IllegalArgumentException.class, "below",
                () -> bound(B, new byte[] {-1}, new byte[] {0}, 8));
        expect(ArithmeticException.class, "odd", () -> bound(B, EB, even, 64));
        expect(ArithmeticException.class, "not positive",
                () -> bound(B, new byte[] {0}, new byte[] {0}, 8));
    }

    @Test
    void theOtherConstantTimeNativesCheckEachArrayFirst() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.constantTimeEdgeToEdge(), "no bounded native");
        byte[] zero = {0};
        byte[] even = {8};
        byte[] empty = {};
        expect(NullPointerException.class, "base", () -> NativeBigInteger.nativeModPowCT(null, zero, even));
        expect(NullPointerException.class, "exponent", () -> NativeBigInteger.nativeModPowCT(B, null, even));
        expect(NullPointerException.class, "modulus", () -> NativeBigInteger.nativeModPowCT(B, zero, null));
        expect(NumberFormatException.class, "Zero length", () -> NativeBigInteger.nativeModPowCT(B, empty, even));
        expect(ArithmeticException.class, "limit", () -> NativeBigInteger.nativeModPowCT(B, OVERSIZE, even));
        expect(ArithmeticException.class, "odd", () -> NativeBigInteger.nativeModPowCT(B, zero, even));
        expect(ArithmeticException.class, "positive", () -> NativeBigInteger.nativeModPowCT(B, zero, MB));

        expect(NullPointerException.class, "base", () -> NativeBigInteger.nativeModPowCTFixed(null, zero, even));
        expect(NullPointerException.class, "exponent", () -> NativeBigInteger.nativeModPowCTFixed(B, null, empty));
        expect(NullPointerException.class, "modulus", () -> NativeBigInteger.nativeModPowCTFixed(B, zero, null));
        expect(IllegalArgumentException.class, "empty", () -> NativeBigInteger.nativeModPowCTFixed(B, empty, even));
        expect(ArithmeticException.class, "odd", () -> NativeBigInteger.nativeModPowCTFixed(B, zero, even));
        expect(ArithmeticException.class, "positive", () -> NativeBigInteger.nativeModPowCTFixed(B, zero, MB));
    }

    private static byte[] bound(byte[] base, byte[] exponent, byte[] modulus, int exponentBits) {
        return NativeBigInteger.nativeModPowCTBound(base, exponent, modulus, exponentBits);
    }

    private static void expect(Class<? extends Throwable> type, String mention, Executable call) {
        Throwable t = assertThrows(type, call);
        assertTrue(t.getMessage() != null && t.getMessage().contains(mention),
                type.getSimpleName() + " without \"" + mention + "\": " + t.getMessage());
    }
}
