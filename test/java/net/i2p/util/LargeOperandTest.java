package net.i2p.util;

import static net.i2p.util.BadInputMatrixTest.EVEN_2048;
import static net.i2p.util.BadInputMatrixTest.ODD_2048;
import static net.i2p.util.BadInputMatrixTest.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Operands of a megabyte, which take GMP down its large-size algorithms and
 * must still give BigInteger's answer, and operands one byte over the
 * native size limit, which must be refused before GMP sees them: GMP
 * cannot report a failed allocation, it aborts the process.
 *
 * BigInteger itself is far too slow at these sizes (its modPow with a
 * 1 MiB modulus takes minutes), so each reference is computed through an
 * identity that needs only linear-time BigInteger work; each says which.
 */
class LargeOperandTest {
    private static final int MIB = 1024 * 1024;
    private static final int LIMIT = BadInputs.LIMIT;
    private static final AtomicInteger TRIED = new AtomicInteger();

    @AfterAll
    static void report() {
        System.out.println("large operands and size limit: " + TRIED.get() + " inputs tried");
    }

    /**
     * base^e mod p for a 1 MiB exponent over the prime p = 2^255 - 19.  The
     * reference reduces e mod p-1 first (Fermat).
     */
    @Test
    void megabyteExponentOver256BitModulus() {
        Random random = new Random(1);
        BigInteger p = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
        BigInteger base = new BigInteger(254, random).setBit(200);
        BigInteger exponent = new BigInteger(8 * MIB - 1, random).setBit(8 * MIB - 2);
        assertEquals(MIB, exponent.toByteArray().length);
        BigInteger reduced = exponent.mod(p.subtract(BigInteger.ONE));
        BigInteger want = base.modPow(reduced, p);
        BigInteger wantNegative = base.modInverse(p).modPow(reduced, p);

        byte[] bb = b(base);
        byte[] pb = b(p);
        assertArrayEquals(b(want), NativeBigInteger.nativeModPow(bb, b(exponent), pb));
        assertArrayEquals(b(want), NativeBigInteger.nativeModPowCT(bb, b(exponent), pb));
        assertArrayEquals(b(wantNegative), NativeBigInteger.nativeModPow(bb, b(exponent.negate()), pb));
        assertEquals(want, new NativeBigInteger(base).modPow(exponent, p));
        TRIED.addAndGet(4);
    }

    /**
     * A 1 MiB modulus m = 2^n - c with a 64-bit c, and a base 2^j + d with
     * a 2048-bit d: the reference expands (2^j + d)^3 and folds 2^n = c mod
     * m, all in linear time.  GMP sees dense numbers all the same (its
     * Montgomery form of the base is dense).  Not the constant-time path:
     * mpz_powm_sec is quadratic and would run for most of an hour here.
     */
    @Test
    void megabyteModulusWithExponentThree() {
        Random random = new Random(2); // a seed for which base is invertible mod the odd m
        int n = 8 * MIB - 1;
        BigInteger c = new BigInteger(64, random).setBit(63).setBit(0);
        BigInteger d = new BigInteger(2048, random).setBit(0);
        int j = n / 2 + 4321;
        BigInteger base = BigInteger.ONE.shiftLeft(j).add(d);
        // (2^j + d)^3 = 2^3j + 3d 2^2j + 3d^2 2^j + d^3; base.pow(3) would square all 4 Mbit.
        BigInteger three = BigInteger.valueOf(3);
        BigInteger cube = BigInteger.ONE.shiftLeft(3 * j).add(three.multiply(d).shiftLeft(2 * j))
                .add(three.multiply(d.pow(2)).shiftLeft(j)).add(d.pow(3));
        for (BigInteger small : new BigInteger[] {c, c.shiftLeft(1)}) { // odd modulus, then even
            BigInteger m = BigInteger.ONE.shiftLeft(n).subtract(small);
            assertEquals(MIB, m.toByteArray().length);
            BigInteger want = foldMod(cube, n, small, m);
            byte[] mb = b(m);
            assertArrayEquals(b(want), NativeBigInteger.nativeModPow(b(base), b(3), mb));
            assertArrayEquals(b(m.subtract(want).mod(m)), NativeBigInteger.nativeModPow(b(base.negate()), b(3), mb));
            TRIED.addAndGet(2);
        }
        // And the inverse: inverse * base = 1 (mod m), checked with one linear-time product.
        BigInteger m = BigInteger.ONE.shiftLeft(n).subtract(c);
        BigInteger inverse = new BigInteger(NativeBigInteger.nativeModInverse(b(base), b(m)));
        TRIED.incrementAndGet();
        assertTrue(inverse.signum() >= 0 && inverse.compareTo(m) < 0);
        BigInteger product = inverse.shiftLeft(j).add(inverse.multiply(d));
        assertEquals(BigInteger.ONE, foldMod(product, n, c, m));
    }

    /** x mod (2^n - c) for x >= 0, using 2^n = c: shifts, adds and products with a small c only. */
    private static BigInteger foldMod(BigInteger x, int n, BigInteger c, BigInteger m) {
        while (x.bitLength() > n) {
            BigInteger high = x.shiftRight(n);
            x = x.subtract(high.shiftLeft(n)).add(high.multiply(c));
        }
        while (x.compareTo(m) >= 0)
            x = x.subtract(m);
        return x;
    }

    /** A 1 MiB negative base over 2048-bit moduli: BigInteger reduces it first, so it is a fair reference. */
    @Test
    void megabyteNegativeBase() {
        Random random = new Random(3);
        BigInteger base = new BigInteger(8 * MIB - 1, random).setBit(8 * MIB - 2).negate();
        assertEquals(MIB, base.toByteArray().length);
        BigInteger exponent = new BigInteger(2048, random).setBit(2047);
        byte[] bb = b(base);
        for (BigInteger m : new BigInteger[] {ODD_2048, EVEN_2048}) {
            assertArrayEquals(b(base.modPow(exponent, m)), NativeBigInteger.nativeModPow(bb, b(exponent), b(m)));
            Outcome inverse = Outcome.of(() -> base.modInverse(m));
            assertTrue(inverse.sameAs(Outcome.of(() -> new BigInteger(NativeBigInteger.nativeModInverse(bb, b(m))))));
            TRIED.addAndGet(2);
        }
        assertArrayEquals(b(base.modPow(exponent, ODD_2048)), NativeBigInteger.nativeModPowCT(bb, b(exponent), b(ODD_2048)));
        assertEquals(base.modPow(exponent.negate(), ODD_2048), NativeBigInteger.modPow(base, exponent.negate(), ODD_2048));
        TRIED.addAndGet(2);
    }

    // ---- the size limit ----

    private static byte[] filled(int length, int fill, int last) {
        byte[] a = new byte[length];
        Arrays.fill(a, (byte) fill);
        a[length - 1] = (byte) last;
        return a;
    }

    /**
     * One byte over the limit, in every position of every native, is an
     * ArithmeticException naming the argument, even when the value is small
     * (a run of sign bytes is still refused: the check is on the array,
     * before any conversion).  Exactly at the limit is computed.
     */
    @Test
    void operandsOverTheLimitAreRefusedAndAtTheLimitComputed() {
        // Values 1 and -1: should one get through, GMP answers at once, and the test fails fast.
        byte[][] overs = {filled(LIMIT + 1, 0x00, 1), filled(LIMIT + 1, 0xff, 0xff)};
        List<String> failures = new ArrayList<String>();
        int calls = 0;
        for (byte[] over : overs) {
            for (BadInputMatrixTest.Op op : BadInputMatrixTest.Op.values()) {
                for (int position = 0; position < op.names.length; position++) {
                    byte[][] args = op == BadInputMatrixTest.Op.MOD_INVERSE ? new byte[][] {b(3), b(ODD_2048)}
                            : new byte[][] {b(3), b(5), b(ODD_2048)};
                    args[position] = over;
                    String failure = BadInputMatrixTest.check(op, args);
                    calls++;
                    if (failure != null)
                        failures.add(failure);
                }
            }
        }
        TRIED.addAndGet(calls);
        BadInputMatrixTest.assertNoFailures(failures, calls);

        // The limit is on the array's length, so sign bytes keep the value
        // small and the reference cheap: 5 and -251.
        for (byte[] atLimit : new byte[][] {filled(LIMIT, 0x00, 5), filled(LIMIT, 0xff, 5)}) {
            BigInteger value = new BigInteger(atLimit);
            BigInteger cube = value.modPow(BigInteger.valueOf(3), ODD_2048);
            assertArrayEquals(b(cube), NativeBigInteger.nativeModPow(atLimit, b(3), b(ODD_2048)));
            assertArrayEquals(b(cube), NativeBigInteger.nativeModPowCT(atLimit, b(3), b(ODD_2048)));
            assertArrayEquals(b(value.modInverse(ODD_2048)), NativeBigInteger.nativeModInverse(atLimit, b(ODD_2048)));
            TRIED.addAndGet(3);
        }
    }

    /**
     * Through the public API an operand whose canonical encoding is over the
     * limit must not crash either: it gives BigInteger's value or an
     * ArithmeticException naming the limit (the class comment promises
     * BigInteger's behaviour; the natives' javadoc documents the limit).
     * (Sign bytes do not count here: the public API passes toByteArray().)
     */
    @Test
    void publicApiOverTheLimitGivesTheValueOrSaysWhy() {
        BigInteger over = BigInteger.ONE.shiftLeft(8 * LIMIT).add(BigInteger.valueOf(5));
        assertEquals(LIMIT + 1, over.toByteArray().length);
        BigInteger seven = BigInteger.valueOf(7);
        BigInteger odd = BigInteger.valueOf(1000003);
        // BigInteger reduces the huge value first: linear time, a fair reference.
        Outcome[][] wantAndGot = {
            {Outcome.of(() -> over.modPow(BigInteger.TEN, seven)), Outcome.of(() -> NativeBigInteger.modPow(over, BigInteger.TEN, seven))},
            {Outcome.of(() -> over.modPow(BigInteger.TEN, odd)), Outcome.of(() -> NativeBigInteger.modPowCT(over, BigInteger.TEN, odd))},
            {Outcome.of(() -> over.modInverse(seven)), Outcome.of(() -> NativeBigInteger.modInverse(over, seven))},
        };
        for (Outcome[] pair : wantAndGot) {
            TRIED.incrementAndGet();
            Outcome got = pair[1];
            boolean right = got.thrown == null ? pair[0].sameAs(got)
                    : got.thrown == ArithmeticException.class && got.message.contains("limit");
            assertTrue(right, "expected " + pair[0] + " or an ArithmeticException naming the limit, got " + got);
        }
    }
}
