package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * NativeBigInteger.jacobi against a reference written here (the symbol's
 * rules applied one at a time, recursively), on random and edge inputs:
 * through the public method, the native itself and the pure-Java fallback,
 * and the public method in a JVM without the library; for prime moduli
 * also against Euler's criterion; and the exceptions for bad arguments,
 * at the public method and at the native.
 */
class JacobiTest {
    private static final BigInteger P25519 = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));

    /** (a/n) by its rules, n odd and positive: reduce; (2/n); reciprocity; (0/n), (a/1). */
    static int reference(BigInteger a, BigInteger n) {
        a = a.mod(n);
        if (n.equals(BigInteger.ONE))
            return 1;
        if (a.signum() == 0)
            return 0;
        if (!a.testBit(0)) {
            int n8 = n.mod(BigInteger.valueOf(8)).intValue();
            int two = n8 == 1 || n8 == 7 ? 1 : -1;
            return two * reference(a.shiftRight(1), n);
        }
        boolean bothThree = a.testBit(1) && n.testBit(1);
        return (bothThree ? -1 : 1) * reference(n, a);
    }

    /** Moduli and values: edges for each modulus, then random ones of 1 to maxBits bits. */
    static List<BigInteger[]> cases(long seed, int count, int maxBits) {
        Random random = new Random(seed);
        List<BigInteger[]> cases = new ArrayList<BigInteger[]>();
        List<BigInteger> moduli = new ArrayList<BigInteger>(Arrays.asList(BigInteger.ONE, BigInteger.valueOf(3),
                BigInteger.valueOf(7), BigInteger.valueOf(9), BigInteger.valueOf(15), P25519,
                BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE)));
        for (int i = 0; i < 40; i++)
            moduli.add(new BigInteger(1 + random.nextInt(maxBits), random).setBit(0));
        for (BigInteger n : moduli) {
            for (BigInteger a : new BigInteger[] {BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(2),
                BigInteger.valueOf(-1), BigInteger.valueOf(-2), n.subtract(BigInteger.ONE), n, n.add(BigInteger.ONE),
                n.shiftLeft(1), n.multiply(n), n.negate(), n.negate().subtract(BigInteger.ONE),
                n.multiply(n).add(BigInteger.valueOf(5)), BigInteger.ONE.shiftLeft(3000).add(BigInteger.ONE)})
                cases.add(new BigInteger[] {a, n});
        }
        for (int i = 0; i < count; i++) {
            BigInteger n = new BigInteger(1 + random.nextInt(maxBits), random).setBit(0);
            BigInteger a = new BigInteger(1 + random.nextInt(maxBits + 80), random);
            if (random.nextInt(4) == 0)
                a = a.negate();
            if (random.nextInt(5) == 0) { // a common factor
                BigInteger g = new BigInteger(1 + random.nextInt(64), random).setBit(0);
                n = n.multiply(g);
                a = a.multiply(g);
            }
            cases.add(new BigInteger[] {a, n});
        }
        return cases;
    }

    @Test
    void publicMethodAndJavaFallbackMatchTheReference() {
        for (BigInteger[] c : cases(0x1ac0b1L, 3000, 2200)) {
            int want = reference(c[0], c[1]);
            assertEquals(want, NativeBigInteger.jacobi(c[0], c[1]), c[0] + " / " + c[1]);
            assertEquals(want, Jacobi.inJava(c[0], c[1]), c[0] + " / " + c[1]);
            assertEquals(want, NativeBigInteger.jacobi(new NativeBigInteger(c[0]), new NativeBigInteger(c[1])));
        }
    }

    @Test
    void nativeMatchesTheReferenceAtEverySize() {
        assumeTrue(Jacobi.Native.PRESENT, "the loaded library has no nativeJacobi");
        for (int maxBits : new int[] {64, 130, 256, 600, 2200, 4200}) {
            for (BigInteger[] c : cases(maxBits, 1500, maxBits)) {
                int got = NativeBigInteger.nativeJacobi(c[0].toByteArray(), c[1].toByteArray());
                assertEquals(reference(c[0], c[1]), got, c[0] + " / " + c[1]);
            }
        }
        Random random = new Random(25519);
        for (int i = 0; i < 3000; i++) { // the Euler shortcut's modulus, bases of every length around it
            BigInteger a = new BigInteger(1 + random.nextInt(300), random);
            assertEquals(reference(a, P25519), NativeBigInteger.jacobi(a, P25519));
        }
    }

    @Test
    void legendreOfPrimesIsEulersCriterion() {
        Random random = new Random(7);
        for (int i = 0; i < 60; i++) {
            BigInteger p = BigInteger.probablePrime(3 + random.nextInt(400), random);
            if (!p.testBit(0))
                continue; // 2
            BigInteger half = p.subtract(BigInteger.ONE).shiftRight(1);
            for (int j = 0; j < 20; j++) {
                BigInteger a = new BigInteger(p.bitLength() + 8, random);
                BigInteger euler = a.modPow(half, p);
                int want = euler.equals(BigInteger.ONE) ? 1 : euler.signum() == 0 ? 0 : -1;
                assertEquals(want, NativeBigInteger.jacobi(a, p));
                assertEquals(want, Jacobi.inJava(a, p));
            }
        }
    }

    @Test
    void badArgumentsThrowJavaExceptions() {
        BigInteger seven = BigInteger.valueOf(7);
        assertThrows(NullPointerException.class, () -> NativeBigInteger.jacobi(null, seven));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.jacobi(seven, null));
        for (long n : new long[] {0, -1, -7, 2, 8, -8}) {
            ArithmeticException e = assertThrows(ArithmeticException.class,
                    () -> NativeBigInteger.jacobi(seven, BigInteger.valueOf(n)));
            assertTrue(e.getMessage().startsWith("Jacobi symbol: n must be"), e.getMessage());
        }
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.jacobi(seven, BigInteger.ONE.shiftLeft(3000)));
    }

    @Test
    void badArgumentsAtTheNativeThrowJavaExceptions() {
        assumeTrue(Jacobi.Native.PRESENT, "the loaded library has no nativeJacobi");
        byte[] seven = {7};
        assertThrows(NullPointerException.class, () -> NativeBigInteger.nativeJacobi(null, seven));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.nativeJacobi(seven, null));
        assertThrows(NumberFormatException.class, () -> NativeBigInteger.nativeJacobi(new byte[0], seven));
        assertThrows(NumberFormatException.class, () -> NativeBigInteger.nativeJacobi(seven, new byte[0]));
        for (byte[] n : new byte[][] {{0}, {-1}, {-7}, {2}, {0, 0}, {1, 0}}) {
            ArithmeticException e = assertThrows(ArithmeticException.class,
                    () -> NativeBigInteger.nativeJacobi(seven, n));
            assertTrue(e.getMessage().startsWith("Jacobi symbol: n must be"), e.getMessage());
        }
        byte[] huge = new byte[NativeBigInteger.NATIVE_MAX_BYTES + 1];
        huge[huge.length - 1] = 1;
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.nativeJacobi(huge, seven));
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.nativeJacobi(seven, huge));
    }

    @Test
    void withoutTheLibraryTheSameAnswers() throws Exception {
        Subprocess p = Subprocess.run(Subprocess.mainClasses() + File.pathSeparator + Subprocess.testClasses(),
                Arrays.asList("-Djbigi.enable=false", "-Djava.library.path=lib"), JacobiTest.class.getName());
        assertEquals(0, p.exitCode, p.output);
        assertTrue(p.output.contains("native=false present=false\n"), p.output);
        assertTrue(p.output.contains("symbols " + symbols() + "\n"), p.output);
    }

    /** The reference's symbols over a fixed set of cases, as one string. */
    private static String symbols() {
        StringBuilder out = new StringBuilder();
        for (BigInteger[] c : cases(0x0ffL, 400, 700))
            out.append(reference(c[0], c[1]) + 1);
        return out.toString();
    }

    /** In a JVM without the library: the public method over the fixed cases. */
    public static void main(String[] args) {
        StringBuilder out = new StringBuilder();
        for (BigInteger[] c : cases(0x0ffL, 400, 700))
            out.append(NativeBigInteger.jacobi(c[0], c[1]) + 1);
        System.out.print("native=" + NativeBigInteger.isNative() + " present=" + Jacobi.Native.PRESENT + "\n");
        System.out.print("symbols " + out + "\n");
    }
}
