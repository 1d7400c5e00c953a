package net.i2p.util;

import java.math.BigInteger;
import java.util.Random;

/**
 * Run in a fresh JVM by EngineSelfTestTest and EngineChoiceTest: prints the
 * engine, the status, and how many of 90 modPow and modPowCT results at 64 to
 * 4096 bits (sizes every engine takes) differ from BigInteger's; the modPow
 * cases alternate positive and negative exponents.
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
        System.out.println("wrong=" + wrong);
    }
}
