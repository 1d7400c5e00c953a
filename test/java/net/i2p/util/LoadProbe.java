package net.i2p.util;

import java.math.BigInteger;
import java.util.Random;

/**
 * Run in a fresh JVM by the loading tests: prints how NativeBigInteger loaded
 * and a digest of the results of a fixed set of operations, so that JVMs that
 * load differently (or not at all) can be compared.
 */
public final class LoadProbe {
    public static void main(String[] args) {
        System.out.println("native=" + NativeBigInteger.isNative());
        System.out.println("status=" + NativeBigInteger.loadStatus());
        System.out.println("resource=" + NativeBigInteger.getLoadedResourceName());
        System.out.println("results=" + digest());
    }

    /** A hash over modPow, modPowCT and modInverse results and the exceptions thrown. */
    static String digest() {
        Random random = new Random(42);
        BigInteger sum = BigInteger.ZERO;
        StringBuilder errors = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            NativeBigInteger base = new NativeBigInteger(new BigInteger(1 + random.nextInt(300), random)
                    .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)));
            BigInteger exponent = new BigInteger(1 + random.nextInt(200), random)
                    .subtract(BigInteger.valueOf(i % 3 == 0 ? 1L << 40 : 0));
            BigInteger modulus = new BigInteger(1 + random.nextInt(300), random).add(BigInteger.ONE);
            try {
                sum = sum.multiply(BigInteger.valueOf(31)).add(base.modPow(exponent, modulus));
            } catch (ArithmeticException e) {
                errors.append('p');
            }
            try {
                sum = sum.multiply(BigInteger.valueOf(37)).add(base.modPowCT(exponent, modulus));
            } catch (ArithmeticException e) {
                errors.append('c');
            }
            try {
                sum = sum.multiply(BigInteger.valueOf(41)).add(base.modInverse(modulus));
            } catch (ArithmeticException e) {
                errors.append('i');
            }
            // The bounded modPowCT: bounds below, at and above the exponent's
            // length, and 0; the same value or the same exception either way.
            int bound = exponent.bitLength() - 1 + random.nextInt(4) - (i % 7 == 0 ? exponent.bitLength() : 0);
            try {
                sum = sum.multiply(BigInteger.valueOf(43)).add(base.modPowCT(exponent, modulus, bound));
            } catch (ArithmeticException e) {
                errors.append('a');
            } catch (IllegalArgumentException e) {
                errors.append('b');
            }
        }
        return sum.mod(BigInteger.ONE.shiftLeft(128)).toString(16) + "/" + errors;
    }
}
