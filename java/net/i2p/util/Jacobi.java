package net.i2p.util;

import java.math.BigInteger;

/**
 * The Jacobi symbol behind {@link NativeBigInteger#jacobi}: the arguments
 * checked, then the native where the loaded library has it (asked once,
 * {@link Native#PRESENT}), else the pure-Java algorithm here, which gives
 * the same answers.
 */
final class Jacobi {
    private Jacobi() {
    }

    /** (a/n) for n odd and positive. */
    static int of(BigInteger a, BigInteger n) {
        if (a == null)
            throw new NullPointerException("a is null");
        if (n == null)
            throw new NullPointerException("n is null");
        if (n.signum() <= 0)
            throw new ArithmeticException("Jacobi symbol: n must be positive");
        if (!n.testBit(0))
            throw new ArithmeticException("Jacobi symbol: n must be odd");
        if (Native.PRESENT && ArgumentChecks.nativeSized(a, n, n)) {
            OperandBytes x = null;
            OperandBytes m = null;
            try {
                x = OperandBytes.of(a);
                m = OperandBytes.of(n);
                return NativeBigInteger.nativeJacobi(x.bytes, m.bytes);
            } finally {
                OperandBytes.release(x, m, null);
            }
        }
        return inJava(a, n);
    }

    /**
     * (a/n) in Java, n odd and positive (checked by the caller): a reduced
     * mod n, then the powers of 2 taken out ((2/n) = -1 iff n = 3 or 5 mod
     * 8) and the two swapped by reciprocity (a sign change iff both are 3
     * mod 4), until a is 0; then n is the gcd, and the symbol 0 unless it is 1.
     */
    static int inJava(BigInteger a, BigInteger n) {
        a = a.mod(n);
        int sign = 1;
        while (a.signum() != 0) {
            int twos = a.getLowestSetBit();
            a = a.shiftRight(twos);
            int n8 = n.intValue() & 7;
            if ((twos & 1) != 0 && (n8 == 3 || n8 == 5))
                sign = -sign;
            if ((a.intValue() & 3) == 3 && (n8 & 3) == 3)
                sign = -sign;
            BigInteger t = n.mod(a);
            n = a;
            a = t;
        }
        return n.equals(BigInteger.ONE) ? sign : 0;
    }

    /**
     * Whether the loaded library has nativeJacobi and it answers right
     * (this project's library since the native came; I2P's and older ones
     * have none).  Asked once, on first use; false when no library is loaded.
     */
    static final class Native {
        static final boolean PRESENT = probe();

        private Native() {
        }

        private static boolean probe() {
            if (!NativeBigInteger.LIBRARY.loaded)
                return false;
            try {
                // 2 = 3^2 mod 7, 3 is no square mod 7, 7 divides 14
                return NativeBigInteger.nativeJacobi(new byte[] {2}, new byte[] {7}) == 1
                        && NativeBigInteger.nativeJacobi(new byte[] {3}, new byte[] {7}) == -1
                        && NativeBigInteger.nativeJacobi(new byte[] {14}, new byte[] {7}) == 0;
            } catch (UnsatisfiedLinkError e) {
                return false;
            } catch (RuntimeException e) {
                return false;
            }
        }
    }
}
