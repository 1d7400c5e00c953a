package net.i2p.util;

import java.math.BigInteger;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fixed-base tables that {@link NativeBigInteger#modPow} makes by itself
 * for a NativeBigInteger used again and again as a base with one modulus,
 * as I2P uses its Diffie-Hellman generator.
 *
 * <p>Any program can hold many NativeBigIntegers (every native result is
 * one), so the memory these tables take across the JVM is bounded: at most
 * {@code -Djbigi.fixedBase.cacheBytes} bytes (default 32 MiB; suffixes k, m
 * and g are understood; 0 turns transparent tables off), the least recently
 * used table going first.  A base gets a table on its
 * {@code -Djbigi.fixedBase.after}-th use with one modulus (default 3; 0 turns
 * them off), counting only the uses a table could serve; a base whose table
 * was evicted starts counting again.  Tables made through
 * {@link NativeBigInteger#fixedBase} are the caller's and are not bounded.
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

        Use(BigInteger modulus) {
            this.modulus = modulus;
        }

        boolean isFor(BigInteger m) {
            return modulus == m || modulus.equals(m);
        }
    }

    /** Uses holding a table, least recently used first, with the bytes of their tables. */
    private static final LinkedHashMap<Use, Long> HELD = new LinkedHashMap<Use, Long>(64, 0.75f, true);
    private static long heldBytes;
    private static long tablesAdmitted;

    /**
     * When the JVM had no direct memory for a table: new tables wait this
     * long, since each failed attempt costs the JVM's retries (up to half a
     * second) and the memory will not come back at once.
     */
    private static final long NO_ROOM_PAUSE_NANOS = 10_000_000_000L;
    private static volatile long noRoomSince = System.nanoTime() - NO_ROOM_PAUSE_NANOS;

    private TransparentTables() {
    }

    /** A table for use could not be had: forget it, and make no new ones for a while. */
    static synchronized void noRoom(Use use) {
        noRoomSince = System.nanoTime();
        Long held = HELD.remove(use);
        if (held != null)
            heldBytes -= held;
        use.fixed = null;
        use.uses.set(0);
    }

    /**
     * The FixedBase that computes base^exponent mod modulus, if base has now
     * been used often enough with this modulus; else null.
     */
    static FixedBase lookup(NativeBigInteger base, BigInteger exponent, BigInteger modulus, boolean constantTime) {
        if (AFTER_USES <= 0 || MAX_BYTES <= 0 || !FixedBase.tableServes(modulus, exponent, constantTime))
            return null;
        if (System.nanoTime() - noRoomSince < NO_ROOM_PAUSE_NANOS)
            return null;
        // Read once: other threads may replace the base's Use at any moment,
        // and everything below must concern this one modulus.
        Use use = base.baseUse;
        if (use == null || !use.isFor(modulus)) {
            use = new Use(modulus);
            base.baseUse = use;
        } else {
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
        if (fixed == null) {
            fixed = new FixedBase(base, use.modulus, use);
            use.fixed = fixed;
            HELD.put(use, 0L);
            tablesAdmitted++;
        }
        return fixed;
    }

    private static synchronized void touch(Use use) {
        HELD.get(use); // access order: now the most recently used
    }

    /**
     * Called by a transparent FixedBase when it has built a table of bytes
     * bytes; evicts the least recently used tables beyond the bound.  A Use
     * already evicted is not charged: its FixedBase serves the calls that
     * hold it and is then collected, its tables with it.
     */
    static synchronized void charge(Use use, long bytes) {
        Long held = HELD.get(use);
        if (held == null)
            return;
        HELD.put(use, held + bytes);
        heldBytes += bytes;
        Iterator<Map.Entry<Use, Long>> eldest = HELD.entrySet().iterator();
        while (heldBytes > MAX_BYTES && eldest.hasNext()) {
            Map.Entry<Use, Long> e = eldest.next();
            heldBytes -= e.getValue();
            e.getKey().fixed = null;
            e.getKey().uses.set(0);
            eldest.remove();
        }
    }

    /** Bytes of tables held now; never more than MAX_BYTES once a charge returns. */
    static synchronized long heldBytes() {
        return heldBytes;
    }

    /** Tables held now. */
    static synchronized int heldTables() {
        return HELD.size();
    }

    /** Transparent FixedBases made since the JVM started (each builds one or two tables). */
    static synchronized long tablesAdmitted() {
        return tablesAdmitted;
    }
}
