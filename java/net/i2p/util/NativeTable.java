package net.i2p.util;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The native memory of one fixed-base table, allocated and freed by jbigi
 * (not by the garbage collector), and freed exactly once: when it has been
 * closed and no call is using it.
 *
 * <p>The table reaches native code only between {@link #acquire} and
 * {@link #release}, which every caller pairs in a try/finally and never keeps
 * the buffer beyond.  {@code acquire} succeeds only while the table is open;
 * the memory is freed only once it is closed and the count of users is zero.
 * So no call can hold a table whose memory is gone, whichever thread closes
 * it and when.  Both the count and the state change under this object's
 * lock; the memory is freed outside it (freeing calls back into the
 * accounting of {@link TransparentTables}, which takes its own lock).
 *
 * <p>The natives know a block by its address and its generation, a number
 * they give each block when they allocate it, never the same twice: freed,
 * a block's address may soon hold another block, and a buffer of the old
 * one must not reach the new one.  The generation is read from the fresh
 * block's header once, at allocation ({@link #generationOf}), kept here
 * beside the buffer, and passed with the buffer to every table native.
 */
final class NativeTable {
    /** Bytes of a block before its table (src/platform/table_memory.h). */
    static final int HEADER_BYTES = 64;

    /** Where a fresh block's header holds its generation: a long in native order (table_memory.h). */
    private static final int GENERATION_OFFSET = 16;

    /** Bytes of all tables allocated and not yet freed, in this JVM. */
    private static final AtomicLong LIVE_BYTES = new AtomicLong();

    /** For tests: this many coming allocations fail as if memory had run out. */
    static final AtomicInteger failingAllocations = new AtomicInteger();

    /** The whole block: what is freed. */
    private final ByteBuffer block;
    /** The table inside it: what native code reads. */
    private final ByteBuffer table;
    /** The block's generation, as nativeAllocateTable gave it: what names it to the natives. */
    private final long generation;
    /** Bytes of the block, header included: what is accounted. */
    private final long bytes;
    /** Told the block's bytes once it is freed; may be null. */
    private final LongConsumer onFree;

    private int users;
    private boolean closed;
    private boolean freed;

    private NativeTable(ByteBuffer block, long generation, long bytes, LongConsumer onFree) {
        this.block = block;
        this.generation = generation;
        block.position(HEADER_BYTES);
        this.table = block.slice().order(ByteOrder.nativeOrder());
        this.bytes = bytes;
        this.onFree = onFree;
    }

    /**
     * The generation of a block nativeAllocateTable has just returned, from
     * its header: read once, right then, and kept by the caller (the header
     * is memory Java can write; the natives never read it back).
     */
    static long generationOf(ByteBuffer freshBlock) {
        return freshBlock.duplicate().order(ByteOrder.nativeOrder()).getLong(GENERATION_OFFSET);
    }

    /** Bytes a table of tableBytes bytes takes, header included. */
    static long blockBytes(long tableBytes) {
        return HEADER_BYTES + tableBytes;
    }

    /**
     * A new zeroed table of tableBytes bytes, open.  Tables of FixedBases no
     * longer reachable are closed first, so that their memory can serve.
     *
     * @param onFree told the block's bytes when it is freed, or null
     * @throws OutOfMemoryError if there is no memory for it
     */
    static NativeTable allocate(long tableBytes, LongConsumer onFree) {
        UnreachableTables.closeAll();
        if (injectedFailure())
            throw new OutOfMemoryError("no memory for a fixed-base table (failure injected by a test)");
        ByteBuffer block = FixedBase.nativeAllocateTable(tableBytes);
        long generation = generationOf(block);
        long bytes = block.capacity();
        LIVE_BYTES.addAndGet(bytes);
        return new NativeTable(block, generation, bytes, onFree);
    }

    private static boolean injectedFailure() {
        for (;;) {
            int left = failingAllocations.get();
            if (left <= 0)
                return false;
            if (failingAllocations.compareAndSet(left, left - 1))
                return true;
        }
    }

    /**
     * The table, for one call, which must {@link #release} it when done and
     * not keep it.
     *
     * @throws IllegalStateException if the table is closed
     */
    ByteBuffer acquire() {
        synchronized (this) {
            if (closed)
                throw new IllegalStateException("fixed-base table is closed");
            users++;
            return table;
        }
    }

    /** The block's generation, passed to the natives with the buffer {@link #acquire} gives. */
    long generation() {
        return generation;
    }

    /** Ends one {@link #acquire}: the last user of a closed table frees it. */
    void release() {
        boolean freeNow;
        synchronized (this) {
            if (users <= 0)
                throw new IllegalStateException("fixed-base table released more often than acquired");
            users--;
            freeNow = closed && users == 0 && !freed;
            if (freeNow)
                freed = true;
        }
        if (freeNow)
            free();
    }

    /** Closes the table: freed now if no call uses it, else by the last one. Again: nothing. */
    void close() {
        boolean freeNow;
        synchronized (this) {
            if (closed)
                return;
            closed = true;
            freeNow = users == 0 && !freed;
            if (freeNow)
                freed = true;
        }
        if (freeNow)
            free();
    }

    /** Called once, by the thread that set freed. */
    private void free() {
        FixedBase.nativeFreeTable(block, generation);
        LIVE_BYTES.addAndGet(-bytes);
        if (onFree != null)
            onFree.accept(bytes);
    }

    /** Bytes of the table, header included. */
    long bytes() {
        return bytes;
    }

    /** Bytes of the table alone, as native code sees it. */
    long tableBytes() {
        return bytes - HEADER_BYTES;
    }

    synchronized boolean isFreed() {
        return freed;
    }

    /** Bytes of all tables allocated and not yet freed, in this JVM. */
    static long liveBytes() {
        return LIVE_BYTES.get();
    }
}
