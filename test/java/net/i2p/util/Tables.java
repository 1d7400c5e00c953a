package net.i2p.util;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fixed-base tables as long[] for tests that damage them limb by limb: a
 * table built by FixedBase comes out as its limbs, and limbs go back into a
 * fresh direct buffer for each native call.
 */
final class Tables {
    private Tables() {
    }

    /** The limbs of a table FixedBase builds for these arguments. */
    static long[] build(byte[] base, byte[] modulus, int rows, int blocks, int maxExponentBits) {
        return limbs(FixedBase.buildTable(base, modulus, rows, blocks, maxExponentBits));
    }

    static long[] limbs(ByteBuffer table) {
        ByteBuffer t = table.duplicate().order(ByteOrder.nativeOrder());
        long[] limbs = new long[t.capacity() / 8];
        for (int i = 0; i < limbs.length; i++)
            limbs[i] = t.getLong(8 * i);
        return limbs;
    }

    /** A direct buffer holding limbs; null for null. */
    static ByteBuffer direct(long[] limbs) {
        if (limbs == null)
            return null;
        ByteBuffer t = ByteBuffer.allocateDirect(8 * limbs.length).order(ByteOrder.nativeOrder());
        for (int i = 0; i < limbs.length; i++)
            t.putLong(8 * i, limbs[i]);
        return t;
    }

    /** FixedBase.nativeModPow on a copy of limbs. */
    static byte[] modPow(long[] limbs, byte[] exponent, boolean constantTime) {
        return FixedBase.nativeModPow(direct(limbs), exponent, constantTime);
    }
}
