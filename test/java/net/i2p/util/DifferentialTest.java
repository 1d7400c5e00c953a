package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random cases, natively and through BigInteger, for all three operations:
 * values, canonical bytes and exception types must agree.  Most cases are at
 * 1..512 bits, where byte-boundary bugs live; operands are often built from
 * 0x00/0x7f/0x80/0xff bytes.  Replay a failure with -Djbigi.test.seed=N.
 */
class DifferentialTest {
    private static long seed;

    @BeforeAll
    static void pickSeed() {
        seed = Long.getLong("jbigi.test.seed", System.nanoTime());
        System.out.println("DifferentialTest seed " + seed + " (replay with -Djbigi.test.seed=" + seed + ")");
    }

    /** A random value of 1..bits bits, either sign, often of boundary bytes. */
    static BigInteger randomValue(Random random, int bits, boolean allowNegative) {
        int n = 1 + random.nextInt(bits);
        BigInteger v;
        if (random.nextInt(4) == 0) {
            // Bytes from {00, 7f, 80, ff, random}: the encodings' edge cases.
            byte[] bytes = new byte[(n + 7) / 8];
            for (int i = 0; i < bytes.length; i++) {
                int pick = random.nextInt(5);
                bytes[i] = (byte) (pick == 0 ? 0x00 : pick == 1 ? 0x7f : pick == 2 ? 0x80 : pick == 3 ? 0xff
                        : random.nextInt(256));
            }
            v = new BigInteger(1, bytes);
        } else {
            v = new BigInteger(n, random);
        }
        return allowNegative && random.nextBoolean() ? v.negate() : v;
    }

    /** A modulus: usually 2..bits bits, odd or even, sometimes 1 or a power-of-two neighbour. */
    static BigInteger randomModulus(Random random, int bits) {
        switch (random.nextInt(20)) {
        case 0:
            return BigInteger.ONE;
        case 1:
            return BigInteger.ONE.shiftLeft(random.nextInt(bits)).add(BigInteger.valueOf(random.nextInt(3) - 1))
                    .max(BigInteger.ONE);
        default:
            BigInteger m = randomValue(random, bits, false).add(BigInteger.valueOf(2));
            return random.nextInt(3) == 0 ? m : m.setBit(0);
        }
    }

    private static int runCases(Random random, int cases, int minBits, int maxBits, List<String> failures) {
        int checks = 0;
        for (int i = 0; i < cases; i++) {
            int bits = minBits + random.nextInt(maxBits - minBits + 1);
            BigInteger modulus = randomModulus(random, bits);
            // One base in eight is 2 (the engines' base-2 path: I2P's generator).
            BigInteger base = random.nextInt(8) == 0 ? BigInteger.valueOf(2) : randomValue(random, bits + 8, true);
            BigInteger exponent = random.nextInt(50) == 0 ? BigInteger.ZERO
                    : randomValue(random, random.nextInt(8) == 0 ? bits : Math.max(1, bits / 2), true);
            NativeBigInteger nativeBase = new NativeBigInteger(base);

            Outcome javaPow = Outcome.of(() -> base.modPow(exponent, modulus));
            Outcome javaInverse = Outcome.of(() -> base.modInverse(modulus));
            checks += compare("modPow", javaPow, Outcome.of(() -> nativeBase.modPow(exponent, modulus)),
                    base, exponent, modulus, failures);
            checks += compare("modPowCT", javaPow, Outcome.of(() -> NativeBigInteger.modPowCT(base, exponent, modulus)),
                    base, exponent, modulus, failures);
            checks += compare("modInverse", javaInverse, Outcome.of(() -> nativeBase.modInverse(modulus)),
                    base, exponent, modulus, failures);
        }
        return checks;
    }

    private static int compare(String op, Outcome want, Outcome got, BigInteger base, BigInteger exponent,
                               BigInteger modulus, List<String> failures) {
        if (!want.sameAs(got) && failures.size() < 10) {
            failures.add(op + "(" + base.toString(16) + ", " + exponent.toString(16) + ", " + modulus.toString(16)
                    + "): BigInteger " + want + ", NativeBigInteger " + got);
        }
        return 1;
    }

    @Test
    void smallOperandsAgreeWithBigInteger() {
        Random random = new Random(seed);
        List<String> failures = new ArrayList<String>();
        int checks = runCases(random, 34000, 1, 512, failures);
        System.out.println("1..512 bits: " + checks + " checks");
        assertTrue(failures.isEmpty(), "seed " + seed + ":\n" + String.join("\n", failures));
    }

    @Test
    void largeOperandsAgreeWithBigInteger() {
        Random random = new Random(seed + 1);
        List<String> failures = new ArrayList<String>();
        int checks = runCases(random, 2100, 1024, 4096, failures);
        System.out.println("1024..4096 bits: " + checks + " checks");
        assertTrue(failures.isEmpty(), "seed " + seed + ":\n" + String.join("\n", failures));
    }

    /** The natives themselves return canonical toByteArray() forms. */
    @Test
    void nativeResultsAreCanonicalBytes() {
        Random random = new Random(seed + 2);
        for (int i = 0; i < 5000; i++) {
            BigInteger modulus = randomValue(random, 300, false).add(BigInteger.valueOf(2)).setBit(0);
            BigInteger base = randomValue(random, 300, true);
            BigInteger exponent = randomValue(random, 100, false).add(BigInteger.ONE);
            byte[] want = base.modPow(exponent, modulus).toByteArray();
            assertArrayEquals(want, NativeBigInteger.nativeModPow(base.toByteArray(), exponent.toByteArray(),
                    modulus.toByteArray()), "seed " + seed + " case " + i);
            assertArrayEquals(want, NativeBigInteger.nativeModPowCT(base.toByteArray(), exponent.toByteArray(),
                    modulus.toByteArray()), "seed " + seed + " case " + i);
        }
        // Zero comes back as the one-byte array {0}.
        assertArrayEquals(new byte[] {0}, NativeBigInteger.nativeModPow(new byte[] {7}, new byte[] {1}, new byte[] {7}));
        assertArrayEquals(new byte[] {0}, NativeBigInteger.nativeModInverse(new byte[] {5}, new byte[] {1}));
    }

    /** Non-canonical input (extra leading sign bytes) reads as its value. */
    @Test
    void leadingSignBytesAreAccepted() {
        byte[] minusOne = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
        byte[] seven = {0, 0, 0, 7};
        byte[] three = {0, 0, 3};
        // (-1)^3 mod 7 = 6
        assertArrayEquals(new byte[] {6}, NativeBigInteger.nativeModPow(minusOne, three, seven));
        // 3^-1 mod 7 = 5
        assertArrayEquals(new byte[] {5}, NativeBigInteger.nativeModInverse(three, seven));
    }
}
