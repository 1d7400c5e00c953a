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
        return limbs(TableMaker.buildTable(base, modulus, rows, blocks, maxExponentBits));
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
     * live blocks from nativeAllocateTable), with the block's generation,
     * which every table native takes with the buffer; closing frees the block.
     */
    static final class Block implements AutoCloseable {
        final ByteBuffer block;
        final ByteBuffer table;
        final long generation;

        Block(long[] limbs) {
            block = FixedBase.nativeAllocateTable(8L * limbs.length);
            generation = NativeTable.generationOf(block);
            block.position(NativeTable.HEADER_BYTES);
            table = block.slice().order(ByteOrder.nativeOrder());
            for (int i = 0; i < limbs.length; i++)
                table.putLong(8 * i, limbs[i]);
        }

        byte[] modPow(byte[] exponent, boolean constantTime) {
            return FixedBase.nativeModPow(table, generation, exponent, constantTime);
        }

        byte[] modPowCTBound(byte[] exponent, int exponentBits) {
            return FixedBase.nativeModPowCTBound(table, generation, exponent, exponentBits);
        }

        @Override
        public void close() {
            FixedBase.nativeFreeTable(block, generation);
        }
    }

    /**
     * A table holding limbs, in a native block that stays for the JVM's life
     * (for tests that keep a few tables); null for null.
     */
    static Block direct(long[] limbs) {
        return limbs == null ? null : new Block(limbs);
    }

    /** FixedBase.nativeModPow on a copy of limbs, in a native block freed after the call. */
    static byte[] modPow(long[] limbs, byte[] exponent, boolean constantTime) {
        if (limbs == null)
            return FixedBase.nativeModPow(null, 0, exponent, constantTime);
        if (limbs.length == 0)
            return FixedBase.nativeModPow(ByteBuffer.allocateDirect(0), 0, exponent, constantTime);
        try (Block t = new Block(limbs)) {
            return t.modPow(exponent, constantTime);
        }
    }
}
