package net.i2p.util;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Which code computes a power or an inverse once no fixed-base table serves
 * it: NativeBigInteger's natives, or BigInteger's own methods when the
 * library is not loaded, an operand is over its size limit, or the loaded
 * library lacks what the call needs (I2P's version 4: no negative
 * exponents, no fixed-length or bounded constant-time natives).
 *
 * <p>Every native call takes its operands' byte forms through
 * {@link OperandBytes}, which says who owns each array, and releases them in
 * a finally; a constant-time exponent is marked secret first, so that its
 * byte form is never cached.  Whatever path is taken, the value and the
 * exceptions are BigInteger's.
 */
final class NativePowers {
    private NativePowers() {
    }

    /** One of the natives taking (base, exponent, modulus), as a value. */
    private interface NativePower {
        byte[] apply(byte[] base, byte[] exponent, byte[] modulus);
    }

    private static final NativePower POW = NativeBigInteger::nativeModPow;
    private static final NativePower POW_CT = NativeBigInteger::nativeModPowCT;

    /** base^exponent mod modulus, any exponent, natively when the library takes it. */
    static BigInteger modPow(BigInteger base, BigInteger exponent, BigInteger modulus) {
        JbigiLoader.Result library = NativeBigInteger.LIBRARY;
        if (!library.loaded || !ArgumentChecks.nativeSized(base, exponent, modulus))
            return javaModPow(base, exponent, modulus);
        if (exponent.signum() < 0 && library.jbigiVersion < 5) {
            // Version 4 refuses negative exponents: invert, then raise.
            BigInteger inverse = modInverse(base, modulus);
            return modPow(inverse, exponent.negate(), modulus);
        }
        return call(POW, base, exponent, modulus);
    }

    /**
     * base^exponent mod modulus, in constant time at the exponent's limb
     * count where the library can (odd modulus, exponent > 0); otherwise
     * {@link #modPow}, in variable time.
     */
    static BigInteger modPowCT(BigInteger base, BigInteger exponent, BigInteger modulus) {
        OperandBytes.markSecret(exponent);
        if (NativeBigInteger.LIBRARY.loaded && modulus.signum() > 0 && modulus.testBit(0) && exponent.signum() > 0
                && ArgumentChecks.nativeSized(base, exponent, modulus)) {
            return call(POW_CT, base, exponent, modulus);
        }
        return modPow(base, exponent, modulus);
    }

    /**
     * base^exponent mod modulus in constant time over exponentBits bits, the
     * bound already checked, where the library has the bounded native;
     * otherwise {@link #modPowCT(BigInteger, BigInteger, BigInteger)}.
     */
    static BigInteger modPowCT(BigInteger base, BigInteger exponent, BigInteger modulus, int exponentBits) {
        OperandBytes.markSecret(exponent);
        if (NativeBigInteger.LIBRARY.loaded && EdgeToEdge.PRESENT && modulus.signum() > 0 && modulus.testBit(0)
                && exponent.signum() > 0 && ArgumentChecks.nativeSized(base, exponent, modulus)) {
            return call((b, e, m) -> NativeBigInteger.nativeModPowCTBound(b, e, m, exponentBits), base, exponent,
                    modulus);
        }
        return modPowCT(base, exponent, modulus);
    }

    /**
     * The fixed-length modPowCT on checked arrays: the fixed-length native
     * where the library has it, else BigInteger's value padded to
     * modulus.length bytes (correct, not constant time).
     */
    static byte[] modPowCT(byte[] base, byte[] exponent, byte[] modulus) {
        if (EdgeToEdge.PRESENT && ArgumentChecks.nativeSized(base, exponent, modulus))
            return NativeBigInteger.nativeModPowCTFixed(base, exponent, modulus);
        BigInteger m = new BigInteger(1, modulus);
        BigInteger e = new BigInteger(1, exponent);
        BigInteger r = modPowCT(new BigInteger(1, base), e, m);
        return padded(r, modulus.length);
    }

    /** value^-1 mod modulus, natively when the library takes it. */
    static BigInteger modInverse(BigInteger value, BigInteger modulus) {
        if (!NativeBigInteger.LIBRARY.loaded || !ArgumentChecks.nativeSized(value, modulus, modulus))
            return javaModInverse(value, modulus);
        OperandBytes v = null;
        OperandBytes m = null;
        try {
            v = OperandBytes.of(value);
            m = OperandBytes.of(modulus);
            return NativeBigInteger.fromNative(NativeBigInteger.nativeModInverse(v.bytes, m.bytes));
        } finally {
            OperandBytes.release(v, m, null);
        }
    }

    /** power on the byte forms, whose copies made for this call are wiped after it. */
    private static BigInteger call(NativePower power, BigInteger base, BigInteger exponent, BigInteger modulus) {
        OperandBytes b = null;
        OperandBytes e = null;
        OperandBytes m = null;
        try {
            b = OperandBytes.of(base);
            e = OperandBytes.of(exponent);
            m = OperandBytes.of(modulus);
            return NativeBigInteger.fromNative(power.apply(b.bytes, e.bytes, m.bytes));
        } finally {
            OperandBytes.release(b, e, m);
        }
    }

    /** value (0 <= value < 256^length) as exactly length unsigned big-endian bytes. */
    private static byte[] padded(BigInteger value, int length) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[length];
        int copy = Math.min(bytes.length, length);
        System.arraycopy(bytes, bytes.length - copy, out, length - copy, copy);
        Arrays.fill(bytes, (byte) 0);
        return out;
    }

    /** BigInteger's own modPow, also for a NativeBigInteger base (no recursion). */
    private static BigInteger javaModPow(BigInteger base, BigInteger exponent, BigInteger modulus) {
        if (base instanceof NativeBigInteger)
            return ((NativeBigInteger) base).superModPow(exponent, modulus);
        return base.modPow(exponent, modulus);
    }

    private static BigInteger javaModInverse(BigInteger value, BigInteger modulus) {
        if (value instanceof NativeBigInteger)
            return ((NativeBigInteger) value).superModInverse(modulus);
        return value.modInverse(modulus);
    }

    /**
     * Whether modPowCT is constant time to the library's edge: the loaded
     * library has the fixed-length and bounded natives and they answer
     * right (this project's library; I2P's version 4 has neither).  Asked
     * once, on first use; false when no library is loaded.
     */
    static final class EdgeToEdge {
        static final boolean PRESENT = probe();

        private EdgeToEdge() {
        }

        private static boolean probe() {
            if (!NativeBigInteger.LIBRARY.loaded)
                return false;
            try {
                byte[] r = NativeBigInteger.nativeModPowCTFixed(new byte[] {2}, new byte[] {5}, new byte[] {0, 7});
                byte[] bounded = NativeBigInteger.nativeModPowCTBound(new byte[] {2}, new byte[] {5}, new byte[] {7}, 3);
                return r.length == 2 && r[0] == 0 && r[1] == 4 // 2^5 mod 7
                        && bounded.length == 1 && bounded[0] == 4;
            } catch (UnsatisfiedLinkError e) {
                return false;
            } catch (RuntimeException e) {
                return false;
            }
        }
    }
}
