package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every combination of awkward arguments, to the natives and to the public
 * API, checked against what BigInteger (and, for the natives, the documented
 * argument checks) say must happen.  BadInputTest checks each bad argument
 * alone and the exact messages; this class crosses them, so that no pairing
 * of edge cases goes untried.  FixedBaseBadInputTest does the same for the
 * fixed-base natives, LargeOperandTest for megabyte operands and the limit.
 */
class BadInputMatrixTest {
    private static final AtomicInteger TRIED = new AtomicInteger();
    private static final Random RANDOM = new Random(20240501);

    /** An odd and an even 2048-bit modulus, so that bases can equal them, exceed them, be multiples of them. */
    static final BigInteger ODD_2048 = new BigInteger(2048, RANDOM).setBit(2047).setBit(0);
    static final BigInteger EVEN_2048 = ODD_2048.subtract(BigInteger.valueOf(3));

    static byte[] b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++)
            out[i] = (byte) bytes[i];
        return out;
    }

    static byte[] b(BigInteger value) {
        return value.toByteArray();
    }

    // Each list mixes canonical and non-canonical encodings (extra 0x00 or
    // 0xff sign bytes) and leading 0x80/0xff bytes, which read as negative.
    static final byte[][] BASES = {
        null, b(), b(0), b(1), b(0xff), b(0x80), b(0xff, 0xff, 0x80), b(0x00, 0x80), b(0, 0, 3),
        b(7), b(8), b(9), b(ODD_2048), b(ODD_2048.add(BigInteger.ONE)), b(ODD_2048.multiply(BigInteger.valueOf(3))),
        b(EVEN_2048.subtract(BigInteger.ONE).negate()), b(BigInteger.ONE.shiftLeft(300).negate()),
    };
    static final byte[][] EXPONENTS = {
        null, b(), b(0), b(0, 0), b(1), b(2), b(0xff), b(0xfe), b(0x80), b(0xff, 0xff, 0xff), b(0x00, 0x80),
        b(new BigInteger(300, RANDOM).setBit(299)), b(new BigInteger(300, RANDOM).setBit(299).negate()),
    };
    static final byte[][] MODULI = {
        null, b(), b(0), b(0xff), b(0x80), b(0xff, 0x00, 0x01), b(1), b(0, 0, 1), b(2), b(8), b(0x00, 0x80),
        b(7), b(9), b(BigInteger.ONE.shiftLeft(71).add(BigInteger.ONE)), b(ODD_2048), b(EVEN_2048),
    };

    @AfterAll
    static void report() {
        System.out.println("bad-input matrix: " + TRIED.get() + " bad inputs tried");
    }

    // ---- the natives ----

    enum Op {
        MOD_POW("base", "exponent", "modulus"),
        MOD_POW_CT("base", "exponent", "modulus"),
        MOD_INVERSE("value", "modulus");

        final String[] names;

        Op(String... names) {
            this.names = names;
        }

        byte[] call(byte[][] a) {
            switch (this) {
            case MOD_POW:
                return NativeBigInteger.nativeModPow(a[0], a[1], a[2]);
            case MOD_POW_CT:
                return NativeBigInteger.nativeModPowCT(a[0], a[1], a[2]);
            default:
                return NativeBigInteger.nativeModInverse(a[0], a[1]);
            }
        }

        /** What BigInteger semantics, plus the CT path's own refusals, give for valid arrays. */
        BigInteger expected(BigInteger[] v) {
            switch (this) {
            case MOD_POW:
                return v[0].modPow(v[1], v[2]);
            case MOD_POW_CT:
                if (v[2].signum() <= 0 || !v[2].testBit(0) || v[1].signum() <= 0)
                    throw new ArithmeticException("refused by the constant-time path");
                return v[0].modPow(v[1], v[2]);
            default:
                return v[0].modInverse(v[1]);
            }
        }
    }

    /**
     * Runs op on args and returns what went wrong, or null: the warranted
     * exception for bad arrays (see BadInputs), else BigInteger's value in
     * canonical bytes or the same exception class.
     */
    static String check(Op op, byte[][] args) {
        List<BadInputs.Warrant> warrants = new ArrayList<BadInputs.Warrant>();
        BigInteger[] values = new BigInteger[args.length];
        for (int i = 0; i < args.length; i++)
            values[i] = BadInputs.operand(args[i], op.names[i], warrants);
        byte[] want = null;
        Class<? extends Throwable> wantThrown = null;
        if (warrants.isEmpty()) {
            try {
                want = op.expected(values).toByteArray();
            } catch (ArithmeticException e) {
                wantThrown = ArithmeticException.class;
            }
        }
        return BadInputs.verify(describe(op, args), warrants, wantThrown, want, () -> op.call(args));
    }

    private static String describe(Op op, byte[][] args) {
        StringBuilder s = new StringBuilder(op.name()).append('(');
        for (int i = 0; i < args.length; i++)
            s.append(i > 0 ? ", " : "").append(BadInputs.show(args[i]));
        return s.append(')').toString();
    }

    static void assertNoFailures(List<String> failures, int total) {
        assertTrue(failures.isEmpty(), failures.size() + " of " + total + " calls wrong, first ones:\n"
                + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
    }

    @Test
    void nativePowersOverEveryCombination() {
        List<String> failures = new ArrayList<String>();
        int calls = 0;
        for (Op op : new Op[] {Op.MOD_POW, Op.MOD_POW_CT}) {
            for (byte[] base : BASES) {
                for (byte[] exponent : EXPONENTS) {
                    for (byte[] modulus : MODULI) {
                        String failure = check(op, new byte[][] {base, exponent, modulus});
                        TRIED.incrementAndGet();
                        calls++;
                        if (failure != null)
                            failures.add(failure);
                    }
                }
            }
        }
        assertNoFailures(failures, calls);
    }

    @Test
    void nativeInverseOverEveryCombination() {
        List<String> failures = new ArrayList<String>();
        int calls = 0;
        for (byte[] value : BASES) {
            for (byte[] modulus : MODULI) {
                String failure = check(Op.MOD_INVERSE, new byte[][] {value, modulus});
                TRIED.incrementAndGet();
                calls++;
                if (failure != null)
                    failures.add(failure);
            }
        }
        assertNoFailures(failures, calls);
    }

    /** The natives only read their arguments: a caller's arrays (e.g. a cached key) stay as they were. */
    @Test
    void nativesLeaveTheirArgumentsUntouched() {
        for (byte[][] args : new byte[][][] {
                {b(0xff, 0xff, 0x80), b(0xfe), b(ODD_2048)}, {b(ODD_2048), b(0, 0, 3), b(EVEN_2048)}}) {
            byte[][] copies = {args[0].clone(), args[1].clone(), args[2].clone()};
            // Whether they return or throw (no inverse) does not matter here.
            Outcome.of(() -> new BigInteger(NativeBigInteger.nativeModPow(args[0], args[1], args[2])));
            Outcome.of(() -> new BigInteger(NativeBigInteger.nativeModPowCT(args[0], args[1], args[2])));
            Outcome.of(() -> new BigInteger(NativeBigInteger.nativeModInverse(args[0], args[2])));
            TRIED.addAndGet(3);
            for (int i = 0; i < args.length; i++)
                assertArrayEquals(copies[i], args[i], "argument " + i + " was modified");
        }
    }

    // ---- the public API ----

    /** The numbers a list of arrays encodes, plus null. */
    private static BigInteger[] numbers(byte[][] arrays) {
        List<BigInteger> values = new ArrayList<BigInteger>();
        values.add(null);
        for (byte[] a : arrays) {
            if (a != null && a.length > 0 && !values.contains(new BigInteger(a)))
                values.add(new BigInteger(a));
        }
        return values.toArray(new BigInteger[0]);
    }

    private static void expectPublic(List<String> failures, String what, Outcome want, Outcome got) {
        TRIED.incrementAndGet();
        if (!want.sameAs(got))
            failures.add(what + ": expected " + want + ", got " + got);
    }

    /**
     * Static and instance forms over every triple.  A null anywhere is a
     * NullPointerException, as BigInteger's class contract says for any
     * null argument; otherwise exactly BigInteger's value or exception.
     * Instance bases are also built from the raw, non-canonical arrays.
     */
    @Test
    void publicApiOverEveryCombination() {
        List<String> failures = new ArrayList<String>();
        Outcome npe = Outcome.of(() -> {
            throw new NullPointerException();
        });
        List<NativeBigInteger> rawBases = new ArrayList<NativeBigInteger>();
        for (byte[] a : BASES) {
            if (a != null && a.length > 0)
                rawBases.add(new NativeBigInteger(a));
        }
        BigInteger[] bases = numbers(BASES);
        BigInteger[] exponents = numbers(EXPONENTS);
        for (BigInteger m : numbers(MODULI)) {
            for (BigInteger x : bases) {
                Outcome inverse = x == null || m == null ? npe : Outcome.of(() -> x.modInverse(m));
                expectPublic(failures, "modInverse(" + x + ", " + m + ")", inverse,
                        Outcome.of(() -> NativeBigInteger.modInverse(x, m)));
                for (BigInteger e : exponents) {
                    Outcome power = x == null || e == null || m == null ? npe : Outcome.of(() -> x.modPow(e, m));
                    String args = "(" + x + ", " + e + ", " + m + ")";
                    expectPublic(failures, "modPow" + args, power, Outcome.of(() -> NativeBigInteger.modPow(x, e, m)));
                    expectPublic(failures, "modPowCT" + args, power, Outcome.of(() -> NativeBigInteger.modPowCT(x, e, m)));
                }
            }
            for (NativeBigInteger x : rawBases) {
                BigInteger plain = new BigInteger(x.toByteArray());
                expectPublic(failures, x + ".modInverse(" + m + ")", m == null ? npe : Outcome.of(() -> plain.modInverse(m)),
                        Outcome.of(() -> x.modInverse(m)));
                for (BigInteger e : exponents) {
                    Outcome power = e == null || m == null ? npe : Outcome.of(() -> plain.modPow(e, m));
                    expectPublic(failures, x + ".modPow(" + e + ", " + m + ")", power, Outcome.of(() -> x.modPow(e, m)));
                    expectPublic(failures, x + ".modPowCT(" + e + ", " + m + ")", power, Outcome.of(() -> x.modPowCT(e, m)));
                }
            }
        }
        for (BigInteger m : numbers(MODULI)) {
            for (BigInteger x : bases)
                fixedBaseAgrees(failures, x, m, exponents);
        }
        assertThrows(NumberFormatException.class, () -> new NativeBigInteger(new byte[0]));
        TRIED.incrementAndGet();
        assertTrue(failures.isEmpty(), failures.size() + " wrong, first ones:\n"
                + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
    }

    /**
     * NativeBigInteger.fixedBase(x, m) and the FixedBase's modPow and
     * modPowCT: exactly x.modPow(e, m) for every e, whether a table serves
     * or not; null anywhere is a NullPointerException, m <= 0 refused.
     */
    private static void fixedBaseAgrees(List<String> failures, BigInteger x, BigInteger m, BigInteger[] exponents) {
        FixedBase[] fixed = new FixedBase[1];
        Outcome made = Outcome.of(() -> {
            fixed[0] = NativeBigInteger.fixedBase(x, m);
            return BigInteger.ZERO;
        });
        Outcome wantMade = x == null || m == null ? Outcome.of(() -> {
            throw new NullPointerException();
        }) : m.signum() <= 0 ? Outcome.of(() -> {
            throw new ArithmeticException();
        }) : Outcome.of(() -> BigInteger.ZERO);
        expectPublic(failures, "fixedBase(" + x + ", " + m + ")", wantMade, made);
        if (fixed[0] == null)
            return;
        for (BigInteger e : exponents) {
            Outcome power = e == null ? Outcome.of(() -> {
                throw new NullPointerException();
            }) : Outcome.of(() -> x.modPow(e, m));
            String args = "(" + e + ") of fixedBase(" + x + ", " + m + ")";
            expectPublic(failures, "modPow" + args, power, Outcome.of(() -> fixed[0].modPow(e)));
            expectPublic(failures, "modPowCT" + args, power, Outcome.of(() -> fixed[0].modPowCT(e)));
        }
    }
}
