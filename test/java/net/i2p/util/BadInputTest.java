package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad arguments, one argument position at a time, to the natives and to the
 * public API: each must become the documented Java exception, never a crash.
 */
class BadInputTest {
    private static final byte[] SEVEN = {7};
    private static final byte[] THREE = {3};
    private static final byte[] EMPTY = {};

    private static void throwsWithMessage(Class<? extends Throwable> type, String part, Executable call) {
        Throwable t = assertThrows(type, call);
        assertTrue(t.getMessage() != null && t.getMessage().contains(part),
                "message \"" + t.getMessage() + "\" should mention \"" + part + "\"");
    }

    @Test
    void nullArraysNameTheArgument() {
        throwsWithMessage(NullPointerException.class, "base", () -> NativeBigInteger.nativeModPow(null, THREE, SEVEN));
        throwsWithMessage(NullPointerException.class, "exponent", () -> NativeBigInteger.nativeModPow(THREE, null, SEVEN));
        throwsWithMessage(NullPointerException.class, "modulus", () -> NativeBigInteger.nativeModPow(THREE, THREE, null));
        throwsWithMessage(NullPointerException.class, "base", () -> NativeBigInteger.nativeModPowCT(null, THREE, SEVEN));
        throwsWithMessage(NullPointerException.class, "exponent", () -> NativeBigInteger.nativeModPowCT(THREE, null, SEVEN));
        throwsWithMessage(NullPointerException.class, "modulus", () -> NativeBigInteger.nativeModPowCT(THREE, THREE, null));
        throwsWithMessage(NullPointerException.class, "value", () -> NativeBigInteger.nativeModInverse(null, SEVEN));
        throwsWithMessage(NullPointerException.class, "modulus", () -> NativeBigInteger.nativeModInverse(THREE, null));
    }

    @Test
    void emptyArraysAreNotNumbers() {
        String zeroLength = "Zero length BigInteger";
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModPow(EMPTY, THREE, SEVEN));
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModPow(THREE, EMPTY, SEVEN));
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModPow(THREE, THREE, EMPTY));
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModPowCT(EMPTY, THREE, SEVEN));
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModPowCT(THREE, EMPTY, SEVEN));
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModPowCT(THREE, THREE, EMPTY));
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModInverse(EMPTY, SEVEN));
        throwsWithMessage(NumberFormatException.class, zeroLength, () -> NativeBigInteger.nativeModInverse(THREE, EMPTY));
    }

    @Test
    void nonPositiveModuliAreRefused() {
        for (byte[] m : new byte[][] {{0}, {-1}, {(byte) 0x80}, {(byte) 0xff, 0, 0, 1}}) {
            throwsWithMessage(ArithmeticException.class, "modulus not positive", () -> NativeBigInteger.nativeModPow(THREE, THREE, m));
            throwsWithMessage(ArithmeticException.class, "modulus not positive", () -> NativeBigInteger.nativeModPowCT(THREE, THREE, m));
            throwsWithMessage(ArithmeticException.class, "modulus not positive", () -> NativeBigInteger.nativeModInverse(THREE, m));
        }
    }

    @Test
    void constantTimePathKeepsI2pContract() {
        throwsWithMessage(ArithmeticException.class, "odd", () -> NativeBigInteger.nativeModPowCT(THREE, THREE, new byte[] {8}));
        throwsWithMessage(ArithmeticException.class, "odd", () -> NativeBigInteger.nativeModPowCT(THREE, THREE, new byte[] {2}));
        throwsWithMessage(ArithmeticException.class, "positive", () -> NativeBigInteger.nativeModPowCT(THREE, new byte[] {0}, SEVEN));
        throwsWithMessage(ArithmeticException.class, "positive", () -> NativeBigInteger.nativeModPowCT(THREE, new byte[] {-1}, SEVEN));
    }

    @Test
    void missingInversesAreArithmeticExceptions() {
        byte[] nine = {9};
        throwsWithMessage(ArithmeticException.class, "not invertible", () -> NativeBigInteger.nativeModInverse(THREE, nine));
        throwsWithMessage(ArithmeticException.class, "not invertible", () -> NativeBigInteger.nativeModInverse(new byte[] {0}, SEVEN));
        throwsWithMessage(ArithmeticException.class, "not invertible", () -> NativeBigInteger.nativeModPow(THREE, new byte[] {-1}, nine));
        throwsWithMessage(ArithmeticException.class, "not invertible", () -> NativeBigInteger.nativeModPow(new byte[] {0}, new byte[] {-5}, SEVEN));
        // ... while an invertible base takes a negative exponent: 3^-2 = 5^2 = 4 mod 7.
        assertEquals(BigInteger.valueOf(4), new BigInteger(NativeBigInteger.nativeModPow(THREE, new byte[] {-2}, SEVEN)));
    }

    @Test
    void oversizedOperandsAreRefusedBeforeGmpSeesThem() {
        byte[] huge = new byte[16 * 1024 * 1024 + 1];
        huge[huge.length - 1] = 1;
        throwsWithMessage(ArithmeticException.class, "limit", () -> NativeBigInteger.nativeModPow(huge, THREE, SEVEN));
        throwsWithMessage(ArithmeticException.class, "limit", () -> NativeBigInteger.nativeModPow(THREE, huge, SEVEN));
        throwsWithMessage(ArithmeticException.class, "limit", () -> NativeBigInteger.nativeModPow(THREE, THREE, huge));
        throwsWithMessage(ArithmeticException.class, "limit", () -> NativeBigInteger.nativeModInverse(huge, SEVEN));
    }

    @Test
    void publicApiThrowsWhatBigIntegerThrows() {
        NativeBigInteger three = new NativeBigInteger("3");
        BigInteger seven = BigInteger.valueOf(7);
        assertThrows(NullPointerException.class, () -> three.modPow(null, seven));
        assertThrows(NullPointerException.class, () -> three.modPow(seven, null));
        assertThrows(NullPointerException.class, () -> three.modPowCT(null, seven));
        assertThrows(NullPointerException.class, () -> three.modPowCT(seven, null));
        assertThrows(NullPointerException.class, () -> three.modInverse(null));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.modPow(null, seven, seven));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.modPowCT(null, seven, seven));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.modInverse(null, seven));

        BigInteger[] moduli = {BigInteger.ZERO, BigInteger.ONE.negate(), BigInteger.ONE, BigInteger.valueOf(2),
                BigInteger.valueOf(8), BigInteger.valueOf(9), seven};
        BigInteger[] values = {BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(), BigInteger.valueOf(-3),
                BigInteger.valueOf(3), seven, BigInteger.valueOf(8), BigInteger.valueOf(1000)};
        BigInteger[] exponents = {BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(2), BigInteger.valueOf(-1),
                BigInteger.valueOf(-2), BigInteger.valueOf(1L << 40)};
        int tried = 0;
        for (BigInteger m : moduli) {
            for (BigInteger b : values) {
                NativeBigInteger nb = new NativeBigInteger(b);
                assertSame(Outcome.of(() -> b.modInverse(m)), Outcome.of(() -> nb.modInverse(m)), "modInverse", b, m, m);
                for (BigInteger e : exponents) {
                    Outcome want = Outcome.of(() -> b.modPow(e, m));
                    assertSame(want, Outcome.of(() -> nb.modPow(e, m)), "modPow", b, e, m);
                    assertSame(want, Outcome.of(() -> nb.modPowCT(e, m)), "modPowCT", b, e, m);
                    tried += 2;
                }
                tried++;
            }
        }
        System.out.println("public API edge cases tried: " + tried);
    }

    private static void assertSame(Outcome want, Outcome got, String op, BigInteger b, BigInteger e, BigInteger m) {
        assertTrue(want.sameAs(got), op + "(" + b + ", " + e + ", " + m + "): BigInteger " + want + ", native " + got);
    }
}
