package net.i2p.util;

import java.math.BigInteger;

/**
 * Run in a fresh JVM under a security manager by LoaderSafetyTest: touches
 * NativeBigInteger twice (an Error in class initialisation would show the
 * second time as NoClassDefFoundError), uses one base again and again (the
 * transparent fixed-base tables' path) and an explicit FixedBase, and prints
 * what it saw; any Throwable becomes an "error=" line.
 */
public final class SecurityManagerProbe {
    public static void main(String[] args) {
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                System.out.println("native=" + NativeBigInteger.isNative());
                System.out.println("status=" + NativeBigInteger.loadStatus());
            } catch (Throwable e) {
                System.out.println("error=attempt " + attempt + ": " + e);
            }
        }
        try {
            BigInteger p = BigInteger.ONE.shiftLeft(521).subtract(BigInteger.ONE); // a Mersenne prime
            BigInteger two = BigInteger.valueOf(2);
            NativeBigInteger g = new NativeBigInteger(two);
            FixedBase explicit = NativeBigInteger.fixedBase(g, p);
            boolean right = true;
            for (int i = 0; i < 8; i++) {
                BigInteger e = BigInteger.valueOf(1_000_003L * (i + 1)).shiftLeft(300 + i);
                BigInteger expected = two.modPow(e, p);
                right &= g.modPow(e, p).equals(expected) && g.modPowCT(e, p).equals(expected)
                        && explicit.modPow(e).equals(expected);
            }
            System.out.println("reused-base-right=" + right);
        } catch (Throwable e) {
            System.out.println("error=" + e);
        }
        System.out.println("results=" + LoadProbe.digest());
    }
}
