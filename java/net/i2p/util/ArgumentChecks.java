package net.i2p.util;

import java.math.BigInteger;

/**
 * The argument checks of NativeBigInteger's public methods and FixedBase's,
 * made in Java before any native call, so that the pure-Java fallback and
 * the library throw the same exceptions with the same messages in the same
 * order; and the size test that sends operands over the library's limit to
 * BigInteger instead.
 *
 * <p>The limits come from the constants NativeBigInteger declares (javac -h
 * writes them into include/jbigi.h, where the C side reads them), so that
 * there is one size limit in both languages.
 */
final class ArgumentChecks {
    private ArgumentChecks() {
    }

    /** @throws NullPointerException naming the first of the three that is null */
    static void notNull(BigInteger base, BigInteger exponent, BigInteger modulus) {
        if (base == null)
            throw new NullPointerException("base is null");
        if (exponent == null)
            throw new NullPointerException("exponent is null");
        if (modulus == null)
            throw new NullPointerException("modulus is null");
    }

    /**
     * Checks 1 <= exponentBits <= 2^27 and 0 <= exponent < 2^exponentBits;
     * a larger bound would take the exponent at its own length, which then
     * shows in the time.
     *
     * @throws IllegalArgumentException if not
     */
    static void bound(BigInteger exponent, int exponentBits) {
        int max = NativeBigInteger.MAX_BOUND_BITS;
        if (exponentBits < 1 || exponentBits > max)
            throw new IllegalArgumentException("exponentBits must be from 1 to " + max + ": " + exponentBits);
        if (exponent.signum() < 0)
            throw new IllegalArgumentException("exponent must not be negative for a bounded modPowCT");
        if (exponent.bitLength() > exponentBits)
            throw new IllegalArgumentException("exponent is 2^exponentBits or more (exponentBits " + exponentBits + ")");
    }

    /**
     * The checks of the fixed-length modPowCT, in its order: each array
     * (null, then empty), then the modulus' value, then the exponent's.
     * Every byte is read whatever the values (no early exit on a secret).
     *
     * @throws NullPointerException if an array is null
     * @throws IllegalArgumentException if an array is empty
     * @throws ArithmeticException if modulus is 0 or even, or exponent is 0
     */
    static void fixedLength(byte[] base, byte[] exponent, byte[] modulus) {
        fixedArray(base, "base");
        fixedArray(exponent, "exponent");
        fixedArray(modulus, "modulus");
        if (!anyBitSet(modulus))
            throw new ArithmeticException("BigInteger: modulus not positive");
        if ((modulus[modulus.length - 1] & 1) == 0)
            throw new ArithmeticException("modulus must be odd for the constant-time modPow");
        if (!anyBitSet(exponent))
            throw new ArithmeticException("exponent must be positive for the constant-time modPow");
    }

    private static void fixedArray(byte[] value, String name) {
        if (value == null)
            throw new NullPointerException(name + " is null");
        if (value.length == 0)
            throw new IllegalArgumentException(name + " is empty");
    }

    /** Whether any byte is non-zero, reading them all. */
    private static boolean anyBitSet(byte[] value) {
        int any = 0;
        for (byte b : value)
            any |= b;
        return any != 0;
    }

    /** True if the library takes all three operands (it refuses any over its size limit). */
    static boolean nativeSized(BigInteger a, BigInteger b, BigInteger c) {
        int max = NativeBigInteger.NATIVE_MAX_BITS;
        return a.bitLength() <= max && b.bitLength() <= max && c.bitLength() <= max;
    }

    /** True if the library takes all three unsigned arrays. */
    static boolean nativeSized(byte[] a, byte[] b, byte[] c) {
        int max = NativeBigInteger.NATIVE_MAX_BYTES;
        return a.length <= max && b.length <= max && c.length <= max;
    }
}
