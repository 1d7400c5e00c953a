package net.i2p.util;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fixed-base tables as long[] for tests that damage them limb by limb: a
 * table built by FixedBase comes out as its limbs, and limbs go back into a
 * fresh native block for each native call (the natives read tables only in
 * live blocks from nativeAllocateTable).
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

    /**
     * A table's limbs in a native block (the natives read tables only inside
     * live blocks from nativeAllocateTable); closing frees the block.
     */
    static final class Block implements AutoCloseable {
        final ByteBuffer block;
        final ByteBuffer table;

        Block(long[] limbs) {
            block = FixedBase.nativeAllocateTable(8L * limbs.length);
            block.position(NativeTable.HEADER_BYTES);
            table = block.slice().order(ByteOrder.nativeOrder());
            for (int i = 0; i < limbs.length; i++)
                table.putLong(8 * i, limbs[i]);
        }

        @Override
        public void close() {
            FixedBase.nativeFreeTable(block);
        }
    }

    /**
     * A table holding limbs, in a native block that stays for the JVM's life
     * (for tests that keep a few tables); null for null, an empty direct
     * buffer for no limbs.
     */
    static ByteBuffer direct(long[] limbs) {
        if (limbs == null)
            return null;
        if (limbs.length == 0)
            return ByteBuffer.allocateDirect(0);
        return new Block(limbs).table;
    }

    /** FixedBase.nativeModPow on a copy of limbs, in a native block freed after the call. */
    static byte[] modPow(long[] limbs, byte[] exponent, boolean constantTime) {
        if (limbs == null || limbs.length == 0)
            return FixedBase.nativeModPow(direct(limbs), exponent, constantTime);
        try (Block t = new Block(limbs)) {
            return FixedBase.nativeModPow(t.table, exponent, constantTime);
        }
    }
}
