package net.i2p.util;

import java.math.BigInteger;
import java.util.Random;

/**
 * Run in a fresh JVM by EngineSelfTestTest: prints the engine, the status,
 * and how many of 60 modPow and modPowCT results at 1024 to 4096 bits (sizes
 * the IFMA engine takes) differ from BigInteger's.
 */
public final class EngineProbe {
    public static void main(String[] args) {
        System.out.println("native=" + NativeBigInteger.isNative());
        System.out.println("engine=" + NativeBigInteger.engine());
        System.out.println("status=" + NativeBigInteger.loadStatus());
        Random random = new Random(7);
        int wrong = 0;
        for (int i = 0; i < 60; i++) {
            int bits = 1024 << (i % 3);
            BigInteger modulus = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
            NativeBigInteger base = new NativeBigInteger(new BigInteger(bits - 1, random));
            BigInteger exponent = new BigInteger(bits, random).setBit(0);
            BigInteger want = new BigInteger(base.toByteArray()).modPow(exponent, modulus);
            if (!base.modPow(exponent, modulus).equals(want))
                wrong++;
            if (!base.modPowCT(exponent, modulus).equals(want))
                wrong++;
        }
        System.out.println("wrong=" + wrong);
    }
}
