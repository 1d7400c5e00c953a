package net.i2p.util;

import java.math.BigInteger;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fixed-base tables that {@link NativeBigInteger#modPow} makes by itself
 * for a NativeBigInteger used again and again as a base with one modulus,
 * as I2P uses its Diffie-Hellman generator.
 *
 * <p>Any program can hold many NativeBigIntegers (every native result is
 * one), so the native memory these tables take across the JVM is bounded: at
 * most {@code -Djbigi.fixedBase.cacheBytes} bytes (default 32 MiB; suffixes
 * k, m and g are understood; 0 turns transparent tables off), the least
 * recently used table going first.  The bound is on memory that exists, not
 * on bookkeeping: a table's bytes are reserved before it is built (so tables
 * built at once cannot pass the bound together) and given back only when its
 * memory is freed, which an evicted table is at once, or as the last call
 * still using it returns.  A table larger than the bound is never made.  When
 * memory for a new table cannot be had, the call goes on without one and the
 * tables that exist stay.
 *
 * <p>A base gets a table on its {@code -Djbigi.fixedBase.after}-th use with
 * one modulus (default 3; 0 turns them off), counting only the uses a table
 * could serve; a base whose table was evicted starts counting again.  Tables
 * made through {@link NativeBigInteger#fixedBase} are the caller's and are
 * not counted here.
 */
final class TransparentTables {
    static final int AFTER_USES = JbigiProperties.getInt("jbigi.fixedBase.after", 3);
    static final long MAX_BYTES = JbigiProperties.getBytes("jbigi.fixedBase.cacheBytes", 32L << 20);

    /**
     * How one NativeBigInteger has been used as a base lately: with which
     * modulus, how often, and its FixedBase while it has one.  A base keeps
     * one Use, replaced when the modulus changes.
     */
    static final class Use {
        final BigInteger modulus;
        final AtomicInteger uses = new AtomicInteger(1);
        volatile FixedBase fixed;
        /** Its table would not fit the bound: this base gets none with this modulus. */
        volatile boolean tooLarge;

        Use(BigInteger modulus) {
            this.modulus = modulus;
        }

        boolean isFor(BigInteger m) {
            return modulus == m || modulus.equals(m);
        }
    }

    /** Uses that have a FixedBase, least recently used first. */
    private static final LinkedHashMap<Use, Use> HELD = new LinkedHashMap<Use, Use>(64, 0.75f, true);
    /** Bytes reserved for tables being built plus bytes of tables not yet freed; never above MAX_BYTES. */
    private static long accountedBytes;
    private static long mostAccountedBytes;
    private static long tablesAdmitted;
    private static long allocationFailures;

    private TransparentTables() {
    }

    /**
     * The FixedBase that computes base^exponent mod modulus, if base has now
     * been used often enough with this modulus; else null.
     */
    static FixedBase lookup(NativeBigInteger base, BigInteger exponent, BigInteger modulus, boolean constantTime) {
        if (AFTER_USES <= 0 || MAX_BYTES <= 0 || !CombShape.tableServes(modulus, exponent, constantTime))
            return null;
        // Read once: other threads may replace the base's Use at any moment,
        // and everything below must concern this one modulus.
        Use use = base.baseUse;
        if (use == null || !use.isFor(modulus)) {
            use = new Use(modulus);
            base.baseUse = use;
        } else {
            if (use.tooLarge)
                return null;
            FixedBase fixed = use.fixed;
            if (fixed != null) {
                touch(use);
                return fixed;
            }
            use.uses.incrementAndGet();
        }
        if (use.uses.get() < AFTER_USES)
            return null;
        return admit(base, use);
    }

    private static synchronized FixedBase admit(NativeBigInteger base, Use use) {
        FixedBase fixed = use.fixed;
        if (fixed == null && !use.tooLarge) {
            fixed = new FixedBase(base, use.modulus, use);
            use.fixed = fixed;
            HELD.put(use, use);
            tablesAdmitted++;
        }
        return fixed;
    }

    private static synchronized void touch(Use use) {
        HELD.get(use); // access order: now the most recently used
    }

    /**
     * Reserves bytes for a new table of use's FixedBase, evicting the least
     * recently used other tables as far as needed.  False, and nothing
     * reserved, if use was evicted meanwhile, if the table is larger than the
     * bound (then use gets no table again), or if the tables still in use by
     * calls leave no room.  Each true is matched by exactly one
     * {@link #freed} or {@link #allocationFailed} of the same bytes.
     */
    static synchronized boolean reserve(Use use, long bytes) {
        if (!HELD.containsKey(use))
            return false;
        if (bytes > MAX_BYTES) {
            use.tooLarge = true;
            drop(use);
            return false;
        }
        Iterator<Use> eldest = HELD.keySet().iterator();
        while (accountedBytes + bytes > MAX_BYTES && eldest.hasNext()) {
            Use other = eldest.next();
            if (other == use)
                continue;
            eldest.remove();
            evict(other); // frees at once unless a call holds it: then accountedBytes falls later
        }
        if (accountedBytes + bytes > MAX_BYTES)
            return false;
        accountedBytes += bytes;
        mostAccountedBytes = Math.max(mostAccountedBytes, accountedBytes);
        return true;
    }

    /** A table reserved for has been freed (NativeTable's onFree). */
    static synchronized void freed(long bytes) {
        accountedBytes -= bytes;
    }

    /**
     * No memory for a table reserved for: the reservation is given back, the
     * tables that exist stay, and use, if it has no table at all, starts
     * counting its uses again.
     */
    static synchronized void allocationFailed(Use use, long bytes) {
        accountedBytes -= bytes;
        allocationFailures++;
        FixedBase fixed = use.fixed;
        if (fixed != null && fixed.tableBytes() == 0 && HELD.containsKey(use))
            drop(use);
    }

    /** Takes use out of HELD and frees its tables. */
    private static void drop(Use use) {
        HELD.remove(use);
        evict(use);
    }

    /** Frees use's tables (each at once, or as the last call using it returns); use counts its uses again. */
    private static void evict(Use use) {
        FixedBase fixed = use.fixed;
        use.fixed = null;
        use.uses.set(0);
        if (fixed != null)
            fixed.evict();
    }

    /** Bytes reserved or held by tables not yet freed; never more than MAX_BYTES. */
    static synchronized long heldBytes() {
        return accountedBytes;
    }

    /** The most heldBytes has been since the JVM started. */
    static synchronized long mostHeldBytes() {
        return mostAccountedBytes;
    }

    /** Bases holding a FixedBase now. */
    static synchronized int heldTables() {
        return HELD.size();
    }

    /** Transparent FixedBases made since the JVM started (each builds one or two tables). */
    static synchronized long tablesAdmitted() {
        return tablesAdmitted;
    }

    /** Tables that could not be allocated since the JVM started. */
    static synchronized long allocationFailures() {
        return allocationFailures;
    }
}
