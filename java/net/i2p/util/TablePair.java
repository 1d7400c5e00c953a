package net.i2p.util;

/**
 * The two tables of one FixedBase (variable time, constant time), each built
 * on its first use, kept apart from the FixedBase so that
 * {@link UnreachableTables} can close them once the FixedBase itself is
 * unreachable (a watch must not hold what it watches).  Once closed, no
 * table is added: a table built meanwhile is closed by its builder.
 */
final class TablePair {
    private volatile NativeTable variableTime;
    private volatile NativeTable constantTime;
    private boolean closed; // guarded by this

    NativeTable get(boolean constantTime) {
        return constantTime ? this.constantTime : variableTime;
    }

    /** Adds table; false (and nothing added) if the pair is closed. */
    synchronized boolean put(boolean constantTime, NativeTable table) {
        if (closed)
            return false;
        if (constantTime)
            this.constantTime = table;
        else
            variableTime = table;
        return true;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** Closes both tables (each freed once no call uses it).  Again: nothing. */
    void close() {
        NativeTable vt;
        NativeTable ct;
        synchronized (this) {
            if (closed)
                return;
            closed = true;
            vt = variableTime;
            ct = constantTime;
        }
        // Outside this lock: freeing may take TransparentTables' lock.
        if (vt != null)
            vt.close();
        if (ct != null)
            ct.close();
    }

    /** Whether the pair is closed and the memory of its tables freed. */
    synchronized boolean freed() {
        NativeTable vt = variableTime;
        NativeTable ct = constantTime;
        return closed && (vt == null || vt.isFreed()) && (ct == null || ct.isFreed());
    }

    /** Bytes of the open tables, headers included. */
    synchronized long bytes() {
        if (closed)
            return 0;
        NativeTable vt = variableTime;
        NativeTable ct = constantTime;
        return (vt == null ? 0 : vt.bytes()) + (ct == null ? 0 : ct.bytes());
    }
}
