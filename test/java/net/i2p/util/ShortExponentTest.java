package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Constant-time powers with exponents shorter (and longer) than the modulus,
 * on every engine this CPU runs: modPowCT at the exponent's own limb count,
 * the bounded modPowCT(e, m, exponentBits), the fixed-length byte[] form with
 * short exponent arrays, and the fixed-base comb's constant-time paths, all
 * against BigInteger.modPow; the bounded form's exceptions; the table
 * format when another engine is forced between sizing and building a
 * table; and that no byte form of a secret exponent stays cached.
 */
class ShortExponentTest {
    private static final Random RANDOM = new Random(0x5407L);

    /** Exponent bit lengths around the limb boundaries and the bounds DSA and ElGamal use. */
    private static final int[] EXPONENT_BITS = {1, 2, 8, 63, 64, 65, 127, 128, 129, 159, 160, 161, 191, 192, 193,
        223, 224, 225, 226, 255, 256, 257, 511, 512, 1023, 1024, 1025, 2047, 2048, 2049, 3000, 4096};

    /** 255: the modulus 2^255 - 19 (the special-form engine's). */
    private static final int[] MODULUS_BITS = {64, 65, 127, 192, 255, 256, 512, 576, 1024, 1536, 2048, 3072, 4096};

    /** The engines this CPU runs, forced one after the other; the loaded choice is restored after. */
    private static List<String> engines() {
        List<String> engines = new ArrayList<String>();
        for (String name : new String[] {"gmp", "adx", "ifma", "p25519"}) {
            if (Engine.nativeForce(name))
                engines.add(name);
        }
        Engine.select();
        return engines;
    }

    /** value as a plain BigInteger, whose modPow is BigInteger's own. */
    private static BigInteger plain(BigInteger value) {
        return new BigInteger(value.toString(16), 16);
    }

    private static BigInteger oddModulus(int bits) {
        if (bits == 255)
            return BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
        return new BigInteger(bits, RANDOM).setBit(bits - 1).setBit(0);
    }

    /** An exponent of exactly bits bits, its top bits set or clear below the top one as shape says. */
    private static BigInteger exponent(int bits, int shape) {
        BigInteger e = new BigInteger(bits, RANDOM).setBit(bits - 1);
        switch (shape % 4) {
        case 0: // all ones but the top bits random
            return bits > 8 ? e.or(BigInteger.ONE.shiftLeft(bits - 8).subtract(BigInteger.ONE)) : e;
        case 1: // 1 followed by zeros, then random low bits: a 0x80-led byte
            return bits > 16 ? e.andNot(BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE.shiftLeft(bits / 2)))
                    : e;
        case 2: // 0x7f-led: the top byte's next bits set
            return e;
        default:
            return e.setBit(0);
        }
    }

    @Test
    void modPowCTOnEveryEngineMatchesBigIntegerForShortAndLongExponents() {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        try {
            for (String engine : engines()) {
                assertTrue(Engine.nativeForce(engine), engine);
                for (int mbits : MODULUS_BITS) {
                    BigInteger m = oddModulus(mbits);
                    NativeBigInteger base = new NativeBigInteger(new BigInteger(mbits + 3, RANDOM));
                    for (int ebits : EXPONENT_BITS) {
                        if (ebits > 2 * mbits + 64)
                            continue;
                        for (int shape = 0; shape < 4; shape++) {
                            BigInteger e = exponent(ebits, shape);
                            BigInteger want = plain(base).modPow(e, m);
                            String what = engine + " " + mbits + "/" + ebits + " shape " + shape;
                            assertEquals(want, NativePowers.modPowCT(base, e, m), what);
                            int bound = ebits + (shape == 3 ? 0 : RANDOM.nextInt(130));
                            assertEquals(want, NativePowers.modPowCT(base, e, m, bound),
                                    what + " bound " + bound);
                        }
                    }
                    // The base 2 takes its own path on GMP's engine.
                    BigInteger two = BigInteger.valueOf(2);
                    for (int ebits : new int[] {1, 64, 65, 160, 226, 256, mbits}) {
                        BigInteger e = exponent(ebits, ebits);
                        assertEquals(two.modPow(e, m), NativePowers.modPowCT(two, e, m),
                                engine + " base 2, " + mbits + "/" + ebits);
                        assertEquals(two.modPow(e, m), NativePowers.modPowCT(two, e, m, ebits + 5),
                                engine + " base 2 bounded, " + mbits + "/" + ebits);
                    }
                }
            }
        } finally {
            Engine.select();
        }
    }

    @Test
    void fixedLengthFormWithShortExponentArrays() {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        try {
            for (String engine : engines()) {
                assertTrue(Engine.nativeForce(engine), engine);
                for (int mbits : new int[] {1024, 2048}) {
                    BigInteger m = oddModulus(mbits);
                    BigInteger b = new BigInteger(mbits - 1, RANDOM);
                    for (int len : new int[] {1, 7, 8, 9, 20, 21, 24, 25, 28, 29, 32, 33}) {
                        for (int lead : new int[] {0x00, 0x01, 0x7f, 0x80, 0xff}) {
                            byte[] exponent = new byte[len];
                            RANDOM.nextBytes(exponent);
                            exponent[0] = (byte) lead;
                            exponent[len - 1] |= 1; // never zero
                            BigInteger e = new BigInteger(1, exponent);
                            byte[] got = NativeBigInteger.modPowCT(unsigned(b, mbits / 8), exponent,
                                    unsigned(m, mbits / 8));
                            assertArrayEquals(unsigned(b.modPow(e, m), mbits / 8), got,
                                    engine + " " + mbits + " bits, exponent of " + len + " bytes led by " + lead);
                        }
                    }
                }
            }
        } finally {
            Engine.select();
        }
    }

    private static byte[] unsigned(BigInteger value, int length) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[length];
        int copy = Math.min(bytes.length, length);
        System.arraycopy(bytes, bytes.length - copy, out, length - copy, copy);
        return out;
    }

    @Test
    void fixedBaseConstantTimeWithShortExponentsOnEveryEngine() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.hasFixedBase(), "no fixed-base natives");
        try {
            for (String engine : engines()) {
                assertTrue(Engine.nativeForce(engine), engine);
                for (int mbits : new int[] {256, 512, 1024, 2048, 3072}) {
                    BigInteger m = oddModulus(mbits);
                    BigInteger g = new BigInteger(mbits - 2, RANDOM);
                    try (FixedBase fixed = NativeBigInteger.fixedBase(g, m)) {
                        for (int ebits : EXPONENT_BITS) {
                            if (ebits > mbits)
                                continue;
                            for (int shape = 0; shape < 4; shape++) {
                                BigInteger e = exponent(ebits, shape);
                                BigInteger want = g.modPow(e, m);
                                String what = engine + " " + mbits + "/" + ebits + " shape " + shape;
                                assertEquals(want, fixed.modPowCT(e), what);
                                assertEquals(want, fixed.modPow(e), what + " variable time");
                                int bound = Math.min(mbits, ebits + RANDOM.nextInt(70));
                                assertEquals(want, fixed.modPowCT(e, bound), what + " bound " + bound);
                                assertEquals(want, fixed.modPowCT(e, ebits + mbits), what + " bound over the reach");
                            }
                        }
                    }
                }
            }
        } finally {
            Engine.select();
        }
    }

    @Test
    void boundedFormChecksItsBoundBeforeAnythingElse() {
        BigInteger m = oddModulus(1024);
        NativeBigInteger b = new NativeBigInteger(BigInteger.valueOf(5));
        BigInteger e = BigInteger.ONE.shiftLeft(159).add(BigInteger.ONE); // 160 bits
        assertEquals(b.modPow(e, m), b.modPowCT(e, m, 160));
        assertEquals(b.modPow(e, m), NativeBigInteger.modPowCT(b, e, m, 160));
        assertEquals(BigInteger.ONE, b.modPowCT(BigInteger.ZERO, m, 1), "exponent 0 under any bound");
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> b.modPowCT(e, m, 159));
        assertTrue(x.getMessage().contains("exponentBits"), x.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.modPowCT(e, m, 0));
        assertThrows(IllegalArgumentException.class, () -> b.modPowCT(e, m, -5));
        assertThrows(IllegalArgumentException.class, () -> b.modPowCT(e.negate(), m, 160));
        assertThrows(IllegalArgumentException.class, () -> b.modPowCT(BigInteger.ONE.shiftLeft(160), m, 160));
        // The bound before the modulus: an even modulus and a bad bound give the bound's exception.
        assertThrows(IllegalArgumentException.class, () -> b.modPowCT(e, BigInteger.valueOf(8), 100));
        assertEquals(b.modPow(e, BigInteger.valueOf(8)), b.modPowCT(e, BigInteger.valueOf(8), 160));
        assertThrows(ArithmeticException.class, () -> b.modPowCT(e, BigInteger.ZERO, 160));
        assertThrows(NullPointerException.class, () -> b.modPowCT(null, m, 160));
        assertThrows(NullPointerException.class, () -> b.modPowCT(e, null, 160));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.modPowCT(null, e, m, 160));
    }

    @Test
    void boundedNativeRefusesBadArgumentsItself() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.constantTimeEdgeToEdge(), "no bounded native");
        byte[] m = BigInteger.valueOf(1000003).toByteArray();
        byte[] b = {3};
        byte[] e = BigInteger.valueOf(1000).toByteArray(); // 10 bits
        assertArrayEquals(BigInteger.valueOf(3).modPow(BigInteger.valueOf(1000), BigInteger.valueOf(1000003))
                .toByteArray(), NativeBigInteger.nativeModPowCTBound(b, e, m, 10));
        assertThrows(IllegalArgumentException.class, () -> NativeBigInteger.nativeModPowCTBound(b, e, m, 9));
        assertThrows(IllegalArgumentException.class, () -> NativeBigInteger.nativeModPowCTBound(b, e, m, 0));
        assertThrows(IllegalArgumentException.class, () -> NativeBigInteger.nativeModPowCTBound(b, e, m, -1));
        assertThrows(IllegalArgumentException.class,
                () -> NativeBigInteger.nativeModPowCTBound(b, e, m, Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> NativeBigInteger.nativeModPowCTBound(b, new byte[] {-1}, m, 64));
        byte[] wide = new byte[40];
        wide[0] = 1;
        assertThrows(IllegalArgumentException.class, () -> NativeBigInteger.nativeModPowCTBound(b, wide, m, 256));
        assertArrayEquals(new byte[] {1}, NativeBigInteger.nativeModPowCTBound(b, new byte[] {0}, m, 8), "x^0 = 1");
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.nativeModPowCTBound(b, e, new byte[] {8}, 10));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.nativeModPowCTBound(null, e, m, 10));
        assertThrows(NullPointerException.class, () -> NativeBigInteger.nativeModPowCTBound(b, null, m, 10));
        assertThrows(NumberFormatException.class, () -> NativeBigInteger.nativeModPowCTBound(b, new byte[0], m, 10));
        // nativeModPowCT at the exponent's own width: a 65-bit exponent whose array has a sign byte over 8 bytes.
        BigInteger big = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE); // 64 bits: 9 bytes, 1 limb
        assertArrayEquals(BigInteger.valueOf(3).modPow(big, BigInteger.valueOf(1000003)).toByteArray(),
                NativeBigInteger.nativeModPowCT(b, big.toByteArray(), m));
    }

    @Test
    void fixedBaseBoundedNativeRefusesBadArguments() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.hasFixedBase(), "no fixed-base natives");
        BigInteger m = oddModulus(1024);
        // The natives read tables only inside live blocks from nativeAllocateTable.
        Tables.Block t = Tables.direct(Tables.build(new byte[] {7}, m.toByteArray(), 4, 2, 1024));
        ByteBuffer table = t.table;
        long g = t.generation;
        byte[] e = BigInteger.valueOf(12345).toByteArray();
        assertEquals(BigInteger.valueOf(7).modPow(BigInteger.valueOf(12345), m),
                new BigInteger(FixedBase.nativeModPowCTBound(table, g, e, 14)));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeModPowCTBound(table, g, e, 13));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeModPowCTBound(table, g, e, 0));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeModPowCTBound(table, g, e, 1025 + 64));
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeModPowCTBound(table, g, new byte[] {-3}, 64));
        assertThrows(NullPointerException.class, () -> FixedBase.nativeModPowCTBound(table, g, null, 64));
        assertThrows(NumberFormatException.class, () -> FixedBase.nativeModPowCTBound(table, g, new byte[0], 64));
        assertThrows(NullPointerException.class, () -> FixedBase.nativeModPowCTBound(null, g, e, 64));
        // Arguments in order, each one's null first (whatever the bound); an exponent of 0 gives 1, as BigInteger's.
        assertThrows(NullPointerException.class, () -> FixedBase.nativeModPowCTBound(table, g, null, 0));
        assertThrows(NullPointerException.class, () -> FixedBase.nativeModPowCTBound(null, g, e, 0));
        for (int bound : new int[] {1, 64, 160, 1024})
            assertEquals(BigInteger.ONE, new BigInteger(FixedBase.nativeModPowCTBound(table, g, new byte[] {0}, bound)));
        ByteBuffer forged = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        assertThrows(IllegalArgumentException.class, () -> FixedBase.nativeModPowCTBound(forged, g, e, 64));
    }

    /**
     * A table sized while one engine is chosen and built after another is
     * forced: the build takes the size it is given, and the table is
     * evaluated correctly whichever engine is chosen when it is used.
     */
    @Test
    void forcingAnEngineBetweenSizingAndBuildingATable() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.hasFixedBase(), "no fixed-base natives");
        List<String> engines = engines();
        try {
            for (String sizedUnder : engines) {
                for (String builtUnder : engines) {
                    for (int mbits : new int[] {1024, 2048}) {
                        BigInteger m = oddModulus(mbits);
                        BigInteger g = new BigInteger(mbits - 1, RANDOM);
                        assertTrue(Engine.nativeForce(sizedUnder));
                        long bytes = FixedBase.nativeTableBytes(mbits, 5, 6);
                        assertTrue(bytes > 0);
                        assertTrue(Engine.nativeForce(builtUnder));
                        ByteBuffer block = FixedBase.nativeAllocateTable(bytes);
                        long generation = NativeTable.generationOf(block);
                        block.position(NativeTable.HEADER_BYTES);
                        ByteBuffer table = block.slice().order(ByteOrder.nativeOrder());
                        try {
                            FixedBase.nativeBuildTable(table, generation, g.toByteArray(), m.toByteArray(), 5, 6, mbits);
                            for (String usedUnder : engines) {
                                assertTrue(Engine.nativeForce(usedUnder));
                                for (int ebits : new int[] {1, 160, 256, mbits}) {
                                    BigInteger e = exponent(ebits, ebits);
                                    String what = "sized under " + sizedUnder + ", built under " + builtUnder
                                            + ", used under " + usedUnder + ", " + mbits + "/" + ebits;
                                    BigInteger want = g.modPow(e, m);
                                    assertEquals(want, new BigInteger(FixedBase.nativeModPow(table, generation, e.toByteArray(), true)),
                                            what);
                                    assertEquals(want, new BigInteger(FixedBase.nativeModPow(table, generation, e.toByteArray(), false)),
                                            what + " variable time");
                                }
                            }
                        } finally {
                            FixedBase.nativeFreeTable(block, generation);
                        }
                    }
                }
            }
        } finally {
            Engine.select();
        }
    }

    private static Object cachedBytes(NativeBigInteger value) {
        return value.cachedForm;
    }

    /** A NativeBigInteger used as a constant-time exponent keeps no byte form of itself. */
    @Test
    void secretExponentsKeepNoCachedBytes() {
        BigInteger m = oddModulus(1024);
        BigInteger g = new BigInteger(1000, RANDOM);
        NativeBigInteger[] keys = new NativeBigInteger[4];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new NativeBigInteger(new BigInteger(256, RANDOM).setBit(255));
            keys[i].toByteArray(); // caches its byte form, as any use as an operand does
        }
        assertEquals(plain(g).modPow(keys[0], m), NativeBigInteger.modPowCT(g, keys[0], m));
        assertEquals(plain(g).modPow(keys[1], m), NativeBigInteger.modPowCT(g, keys[1], m, 256));
        assertEquals(plain(g).modPow(keys[2], BigInteger.valueOf(1000)),
                NativeBigInteger.modPowCT(g, keys[2], BigInteger.valueOf(1000)));
        try (FixedBase fixed = NativeBigInteger.fixedBase(g, m)) {
            assertEquals(plain(g).modPow(keys[3], m), fixed.modPowCT(keys[3]));
        }
        for (NativeBigInteger key : keys) {
            assertNull(cachedBytes(key), "a secret exponent's byte form is still cached");
            assertEquals(plain(key), new BigInteger(key.toByteArray()));
            assertNull(cachedBytes(key), "toByteArray cached a secret's byte form");
            // Used again, as an operand of a variable-time call: still nothing kept.
            assertEquals(g.modPow(key, m), NativeBigInteger.modPow(g, key, m));
            assertNull(cachedBytes(key), "modPow cached a secret's byte form");
        }
    }
}
