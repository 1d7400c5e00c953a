package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Euler's criterion inside nativeModPow, called as I2P's Elligator2 calls
 * it (toByteArray() arrays, p = 2^255 - 19, exponent (p-1)/2): the same
 * bytes as BigInteger.modPow's toByteArray() for random bases, 0, 1, p-1,
 * p, multiples of p, bases above p and negative ones; the exponents next
 * to it and the constant-time forms (which do the power) agree as well.
 */
class EulerShortcutTest {
    private static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
    private static final BigInteger HALF = P.subtract(BigInteger.ONE).shiftRight(1);

    private static List<BigInteger> bases() {
        Random random = new Random(0xe1e4L);
        List<BigInteger> bases = new ArrayList<BigInteger>();
        for (long v : new long[] {0, 1, 2, 3, 4, -1, -2, -3})
            bases.add(BigInteger.valueOf(v));
        for (BigInteger b : new BigInteger[] {P.subtract(BigInteger.ONE), P, P.add(BigInteger.ONE), P.shiftLeft(1),
            P.multiply(BigInteger.valueOf(7)), P.multiply(P), P.negate(), P.subtract(BigInteger.ONE).negate(),
            BigInteger.ONE.shiftLeft(600).add(BigInteger.ONE)})
            bases.add(b);
        for (int i = 0; i < 3000; i++) {
            BigInteger b = new BigInteger(1 + random.nextInt(256 + 200), random);
            bases.add(i % 5 == 0 ? b.negate() : b);
        }
        return bases;
    }

    @Test
    void legendrePowerThroughNativeModPowIsThePower() {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        int squares = 0;
        for (BigInteger b : bases()) {
            BigInteger want = b.modPow(HALF, P);
            byte[] got = NativeBigInteger.nativeModPow(b.toByteArray(), HALF.toByteArray(), P.toByteArray());
            assertArrayEquals(want.toByteArray(), got, b.toString(16));
            assertEquals(want, NativeBigInteger.modPow(new NativeBigInteger(b), HALF, P));
            if (want.equals(BigInteger.ONE))
                squares++;
        }
        assertEquals(true, squares > 1000, "squares among the random bases: " + squares);
    }

    @Test
    void exponentsNextToItAndConstantTimeFormsAgree() {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        BigInteger[] exponents = {HALF.add(BigInteger.ONE), HALF.subtract(BigInteger.ONE), HALF.add(P).subtract(BigInteger.ONE)};
        List<BigInteger> bases = bases();
        for (BigInteger b : bases.subList(0, 300)) {
            for (BigInteger e : exponents) {
                byte[] got = NativeBigInteger.nativeModPow(b.toByteArray(), e.toByteArray(), P.toByteArray());
                assertArrayEquals(b.modPow(e, P).toByteArray(), got, b.toString(16) + " ^ " + e.toString(16));
            }
            BigInteger want = b.modPow(HALF, P);
            assertEquals(want, NativeBigInteger.modPowCT(b, HALF, P));
            assertEquals(want, NativeBigInteger.modPowCT(b, HALF, P, 255));
            BigInteger other = P.add(BigInteger.valueOf(2)); // not in the table
            BigInteger otherHalf = other.shiftRight(1);
            byte[] o = NativeBigInteger.nativeModPow(b.toByteArray(), otherHalf.toByteArray(), other.toByteArray());
            assertArrayEquals(b.modPow(otherHalf, other).toByteArray(), o);
        }
    }
}
