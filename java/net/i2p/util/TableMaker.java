package net.i2p.util;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Makes one fixed-base table: sizes it for its comb shape, takes its native
 * memory ({@link NativeTable}), and fills it through FixedBase's natives.
 *
 * <p>A table the caller asked for ({@link NativeBigInteger#fixedBase}) is
 * the caller's: no memory for it is an OutOfMemoryError.  A table that
 * modPow makes by itself for a repeated base is an optimisation: its bytes
 * are reserved against the bound of {@link TransparentTables} before the
 * memory exists, so that tables built at once cannot pass the bound
 * together, and when the bound or the memory refuses it, the call goes on
 * without a table.  A table whose build fails is closed at once.
 */
final class TableMaker {
    private TableMaker() {
    }

    /**
     * A new table of base mod modulus (read-only byte forms) for exponents
     * of up to reachBits bits; null where a transparent table (account not
     * null) may not or cannot be had.
     *
     * @throws OutOfMemoryError for an explicit table, if there is no memory for it
     */
    static NativeTable make(byte[] base, byte[] modulus, int reachBits, boolean constantTime,
                            TransparentTables.Use account) {
        int rows = constantTime ? CombShape.constantTimeRows(reachBits) : CombShape.variableTimeRows(reachBits);
        int blocks = constantTime ? CombShape.constantTimeBlocks(reachBits) : CombShape.variableTimeBlocks(reachBits);
        long tableBytes = tableBytes(modulus, rows, blocks);
        NativeTable t = null;
        if (account == null) {
            t = NativeTable.allocate(tableBytes, null);
        } else {
            long bytes = NativeTable.blockBytes(tableBytes);
            if (!TransparentTables.reserve(account, bytes))
                return null;
            try {
                t = NativeTable.allocate(tableBytes, TransparentTables::freed);
            } catch (OutOfMemoryError noMemory) {
                // t stays null: the call goes on without a table.
            } finally {
                if (t == null)
                    TransparentTables.allocationFailed(account, bytes);
            }
            if (t == null)
                return null;
        }
        boolean built = false;
        ByteBuffer buffer = t.acquire();
        try {
            FixedBase.nativeBuildTable(buffer, t.generation(), base, modulus, rows, blocks, reachBits);
            built = true;
        } finally {
            t.release();
            if (!built)
                t.close();
        }
        return t;
    }

    /**
     * Bytes of a table for modulus (byte form) and comb shape rows x blocks.
     *
     * @throws NumberFormatException if modulus is empty
     * @throws IllegalArgumentException if the shape is out of range
     */
    static long tableBytes(byte[] modulus, int rows, int blocks) {
        if (modulus.length == 0)
            throw new NumberFormatException("Zero length BigInteger");
        // At least 2 bits: a modulus of 0 or 1 is then refused by the build, with its own message.
        int bits = Math.max(2, new BigInteger(modulus).bitLength());
        long bytes = FixedBase.nativeTableBytes(bits, rows, blocks);
        if (bytes <= 0)
            throw new IllegalArgumentException("fixed-base table shape out of range: " + rows + " x " + blocks);
        return bytes;
    }

    /**
     * A new table of base mod modulus, copied into a direct buffer of the
     * JVM's (limbs in native order): for tests that read and damage a table's
     * limbs.  It is built in a native block (the natives read tables only in
     * live blocks from nativeAllocateTable), which is freed before returning.
     *
     * @throws ArithmeticException if modulus is even or <= 1
     * @throws IllegalArgumentException if the shape or reach is out of range
     */
    static ByteBuffer buildTable(byte[] base, byte[] modulus, int rows, int blocks, int maxExponentBits) {
        if (base == null)
            throw new NullPointerException("base is null");
        if (modulus == null)
            throw new NullPointerException("modulus is null");
        long bytes = tableBytes(modulus, rows, blocks);
        ByteBuffer block = FixedBase.nativeAllocateTable(bytes);
        long generation = NativeTable.generationOf(block);
        try {
            block.position(NativeTable.HEADER_BYTES);
            ByteBuffer table = block.slice().order(ByteOrder.nativeOrder());
            FixedBase.nativeBuildTable(table, generation, base, modulus, rows, blocks, maxExponentBits);
            ByteBuffer copy = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
            copy.put(table);
            copy.clear();
            return copy;
        } finally {
            FixedBase.nativeFreeTable(block, generation);
        }
    }

    /** Whether the loaded library has working fixed-base natives (I2P's has none): 2^5 mod 7 from a table. */
    static boolean nativesWork() {
        try {
            ByteBuffer block = FixedBase.nativeAllocateTable(FixedBase.nativeTableBytes(3, 1, 1));
            long generation = NativeTable.generationOf(block);
            try {
                block.position(NativeTable.HEADER_BYTES);
                ByteBuffer table = block.slice().order(ByteOrder.nativeOrder());
                FixedBase.nativeBuildTable(table, generation, new byte[] {2}, new byte[] {7}, 1, 1, 3);
                byte[] r = FixedBase.nativeModPow(table, generation, new byte[] {5}, false);
                return r.length == 1 && r[0] == 4;
            } finally {
                FixedBase.nativeFreeTable(block, generation);
            }
        } catch (UnsatisfiedLinkError e) {
            return false;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
