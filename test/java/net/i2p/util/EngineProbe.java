package net.i2p.util;

import java.math.BigInteger;
import java.util.Random;

/**
 * Run in a fresh JVM by EngineSelfTestTest and EngineChoiceTest: prints the
 * engine, the status, and how many of 90 modPow and modPowCT results at 64 to
 * 4096 bits (sizes every engine takes) differ from BigInteger's; the modPow
 * cases alternate positive and negative exponents.  Then the modulus
 * 2^255 - 19 (the special-form engine's): Elligator2's exponents and random
 * ones on edge and random bases (above p, multiples of p, negative), through
 * modPow, modPowCT and nativeModPow called as I2P calls it.
 */
public final class EngineProbe {
    public static void main(String[] args) {
        System.out.println("native=" + NativeBigInteger.isNative());
        System.out.println("engine=" + NativeBigInteger.engine());
        System.out.println("status=" + NativeBigInteger.loadStatus());
        Random random = new Random(7);
        int wrong = 0;
        final int[] sizes = {64, 128, 256, 320, 512, 576, 1024, 2048, 4096};
        for (int i = 0; i < 90; i++) {
            int bits = sizes[i % sizes.length];
            BigInteger modulus = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
            NativeBigInteger base = new NativeBigInteger(new BigInteger(bits - 1, random));
            BigInteger exponent = new BigInteger(bits, random).setBit(0);
            BigInteger want = new BigInteger(base.toByteArray()).modPow(exponent, modulus);
            if (!base.modPow(exponent, modulus).equals(want))
                wrong++;
            if (base.gcd(modulus).equals(BigInteger.ONE)) {
                BigInteger negative = exponent.negate();
                if (!base.modPow(negative, modulus).equals(new BigInteger(base.toByteArray()).modPow(negative, modulus)))
                    wrong++;
            }
            if (!base.modPowCT(exponent, modulus).equals(want))
                wrong++;
        }
        wrong += field25519(random);
        System.out.println("wrong=" + wrong);
    }

    /** Results under 2^255 - 19 that differ from BigInteger's. */
    private static int field25519(Random random) {
        final BigInteger p = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
        final BigInteger[] exponents = {p.subtract(BigInteger.ONE).shiftRight(1), p.subtract(BigInteger.ONE).shiftRight(2),
            p.add(BigInteger.valueOf(3)).shiftRight(3), p.subtract(BigInteger.valueOf(5)).shiftRight(3),
            p.subtract(BigInteger.valueOf(2)), BigInteger.ONE, BigInteger.valueOf(2), new BigInteger(254, random),
            new BigInteger(40, random).add(BigInteger.ONE)};
        final BigInteger[] bases = {BigInteger.ZERO, BigInteger.ONE, p.subtract(BigInteger.ONE), p, p.add(BigInteger.ONE),
            p.shiftLeft(1), p.negate(), BigInteger.ONE.negate(), new BigInteger(300, random),
            new BigInteger(200, random).negate(), new BigInteger(255, random).mod(p)};
        int wrong = 0;
        for (BigInteger b : bases) {
            for (BigInteger e : exponents) {
                BigInteger want = b.modPow(e, p);
                NativeBigInteger nb = new NativeBigInteger(b);
                if (!nb.modPow(e, p).equals(want) || !nb.modPowCT(e, p).equals(want))
                    wrong++;
                // As I2P's NativeBigInteger calls it: toByteArray() of each operand.
                if (!new BigInteger(NativeBigInteger.nativeModPow(b.toByteArray(), e.toByteArray(), p.toByteArray()))
                        .equals(want))
                    wrong++;
            }
        }
        return wrong;
    }
}
