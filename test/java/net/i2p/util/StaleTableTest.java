package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A table's buffer kept after its block was freed, while a new block takes
 * the same address (the system hands a freed mapping's address out again
 * readily): the natives know a block by its address and its generation, so
 * the stale buffer with its old generation is refused by every table
 * native, naming it stale, and the new owner's table keeps working and is
 * freed by its own generation only.  Whether a new block landed at the old
 * address is read from the headers (their first word is tied to the
 * address); if none does within a bounded number of allocations, the test
 * is aborted (counted as skipped), never passed.
 */
class StaleTableTest {
    private static final int TRIES = 64;
    private static final BigInteger M = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    private static final byte[] TEN = {10};

    /** A block from nativeAllocateTable, its generation read once, and its table. */
    private static final class Block {
        final ByteBuffer block;
        final long generation;
        final ByteBuffer table;
        final long firstWord;

        Block(long tableBytes) {
            block = FixedBase.nativeAllocateTable(tableBytes);
            generation = NativeTable.generationOf(block);
            firstWord = block.duplicate().order(ByteOrder.nativeOrder()).getLong(0);
            ByteBuffer b = block.duplicate();
            b.position(NativeTable.HEADER_BYTES);
            table = b.slice().order(ByteOrder.nativeOrder());
        }

        void build(int base) {
            FixedBase.nativeBuildTable(table, generation, new byte[] {(byte) base}, M.toByteArray(), 3, 2, 127);
        }

        void free() {
            FixedBase.nativeFreeTable(block, generation);
        }
    }

    @Test
    void aStaleTableAtAReusedAddressIsRefusedAndTheNewOwnerKeepsItsTable() {
        assumeTrue(NativeBigInteger.isNative() && NativeBigInteger.hasFixedBase(),
                "no fixed-base natives: " + NativeBigInteger.loadStatus());
        long tableBytes = TableMaker.tableBytes(M.toByteArray(), 3, 2);
        Block old = new Block(tableBytes);
        old.build(2);
        assertEquals(BigInteger.valueOf(1024), new BigInteger(FixedBase.nativeModPow(old.table, old.generation, TEN,
                false)));
        old.free();

        List<Block> tried = new ArrayList<>();
        Block now = null;
        try {
            while (tried.size() < TRIES && now == null) {
                Block b = new Block(tableBytes);
                tried.add(b);
                if (b.firstWord == old.firstWord)
                    now = b;
            }
            assumeTrue(now != null, "no new block landed at the freed block's address in " + TRIES + " allocations");
            assertNotEquals(old.generation, now.generation, "the new block at the old address has a new generation");
            now.build(3);

            // Every native given the stale buffer and its generation: refused as stale, untouched.
            refusedAsStale(() -> FixedBase.nativeModPow(old.table, old.generation, TEN, false), "nativeModPow");
            refusedAsStale(() -> FixedBase.nativeModPow(old.table, old.generation, TEN, true), "nativeModPow, ct");
            refusedAsStale(() -> FixedBase.nativeModPowCTBound(old.table, old.generation, TEN, 8),
                    "nativeModPowCTBound");
            refusedAsStale(() -> FixedBase.nativeBuildTable(old.table, old.generation, new byte[] {5},
                    M.toByteArray(), 3, 2, 127), "nativeBuildTable");
            refusedAsStale(() -> FixedBase.nativeFreeTable(old.block, old.generation), "nativeFreeTable");

            // The new owner's table: 3^10, neither freed nor rebuilt by the stale calls.
            BigInteger want = BigInteger.valueOf(59049).mod(M);
            assertEquals(want, new BigInteger(FixedBase.nativeModPow(now.table, now.generation, TEN, false)));
            assertEquals(want, new BigInteger(FixedBase.nativeModPow(now.table, now.generation, TEN, true)));
            assertEquals(want, new BigInteger(FixedBase.nativeModPowCTBound(now.table, now.generation, TEN, 8)));
        } finally {
            for (Block b : tried)
                b.free();
        }
    }

    private static void refusedAsStale(Executable call, String what) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, what + " on a stale table");
        assertTrue(e.getMessage() != null && e.getMessage().contains("stale"),
                what + ": the message names a stale table: " + e.getMessage());
    }
}
