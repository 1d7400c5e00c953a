package net.i2p.util;

import java.io.Closeable;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Powers of one base modulo one modulus, fast: {@code g^e mod m} for a fixed
 * g and m and many exponents e, as in Diffie-Hellman, ElGamal, DSA and SRP.
 *
 * <p>A table of powers of the base is prepared once (a Lim-Lee comb in
 * Montgomery form, computed by jbigi); each exponentiation then needs about
 * one squaring per 32 exponent bits instead of one per bit.  For a 2048-bit
 * modulus the table of {@link #modPow} takes 256 KiB (160 KiB with the IFMA
 * engine) and is built by {@link NativeBigInteger#fixedBase}; the one of
 * {@link #modPowCT} takes 96 KiB (80 KiB) and is built on its first use.
 * Both cover exponents up to the modulus' bit length.
 *
 * <p><b>The tables belong to the caller.</b>  They live outside the Java heap,
 * in memory that jbigi allocates and frees itself; native code reads them in
 * place without stopping the garbage collector.  {@link #close} frees them at
 * once (or, if other threads are in the middle of a call, as the last of
 * those calls returns); after it every exponentiation throws
 * {@link IllegalStateException}.  A FixedBase dropped without close is freed
 * too, after the garbage collector finds it unreachable, when a later table
 * is made: close it to free its memory at a known time.  The tables made
 * with {@code NativeBigInteger.fixedBase} are not counted in the bound on
 * the tables that {@code NativeBigInteger.modPow} makes by itself for a
 * repeated base (see {@link NativeBigInteger}).  Freed tables are wiped
 * first, although they hold only powers of the base.
 *
 * <p>Results are always exactly {@code base.modPow(exponent, modulus)}.
 * Where the table cannot serve - no native library, an even modulus or
 * modulus 1, a negative exponent, an exponent longer than the modulus - the
 * call is computed as {@link NativeBigInteger#modPow(BigInteger, BigInteger, BigInteger)}
 * computes it.  The base is treated as public: the table is built in time
 * that depends on it.
 *
 * <p>Immutable once built and safe for any number of threads, {@code close}
 * included.  Get one from {@link NativeBigInteger#fixedBase(BigInteger, BigInteger)}.
 */
public final class FixedBase implements Closeable {
    /* Comb shapes (rows x blocks), measured on the engines that multiply
     * their tables: see variableTimeRows and the methods after it. */

    /** Larger moduli get no table: it would pass 1 MiB (plain modPow serves them). */
    static final int MAX_TABLE_MODULUS_BITS = 16384;

    private final BigInteger base;
    private final BigInteger modulus;
    private final int reachBits;
    /** False where tables cannot serve: every call falls back. */
    private final boolean usable;
    /** Where a transparent table's bytes are accounted; null for an explicit FixedBase. */
    private final TransparentTables.Use account;
    /** The tables, each built on its first use (or by {@link #prepare}). */
    private final TablePair tables = new TablePair();
    /** Closes the tables of an explicit FixedBase dropped unclosed; null for the others. */
    private final UnreachableTables.Watch watch;
    /**
     * Set by close.  Also read after every native call: a volatile read of
     * this object keeps it reachable until the call has released its table.
     */
    private volatile boolean closed;

    /**
     * The two tables of a FixedBase, kept apart from it so that they can be
     * closed once it is unreachable.  Once closed, no table is added.
     */
    static final class TablePair {
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

    /** Bytes of the table for a modulus of modulusBits bits and comb shape rows x blocks; 0 if out of range. */
    static native long nativeTableBytes(int modulusBits, int rows, int blocks);

    /**
     * A new zeroed block of native memory for a table of tableBytes bytes: a
     * direct buffer of {@link NativeTable#HEADER_BYTES} + tableBytes bytes,
     * whose slice from HEADER_BYTES on is the table.  Not the JVM's memory:
     * only {@link #nativeFreeTable} frees it.  Its header holds the block's
     * generation, which the caller reads once, now
     * ({@link NativeTable#generationOf}), and passes to every other table
     * native: a buffer is taken only with its own block's generation, so a
     * stale buffer over an address a new block took is refused.
     *
     * @throws IllegalArgumentException if tableBytes is not a multiple of 8 from 8 to 128 MiB
     * @throws OutOfMemoryError if there is no memory for it
     */
    static native ByteBuffer nativeAllocateTable(long tableBytes);

    /**
     * Wipes and frees a block from {@link #nativeAllocateTable} of that
     * generation; neither it nor its slices may be used again (the natives
     * refuse them: they keep their own record of live blocks).
     *
     * @throws NullPointerException if block is null
     * @throws IllegalArgumentException if block is not such a block, alive and of that generation (a stale or
     *         freed table, or never one)
     * @throws IllegalStateException if a call is using it (it is not freed)
     */
    static native void nativeFreeTable(ByteBuffer block, long generation);

    /**
     * Fills table, a direct buffer of nativeTableBytes bytes, with the comb of
     * base mod modulus for exponents of up to maxExponentBits bits (at most the
     * modulus' bit length).
     *
     * @throws ArithmeticException if modulus is even or <= 1
     * @throws IllegalArgumentException if the shape, the reach or the buffer does not fit, or the buffer is
     *         not inside a live block of that generation from nativeAllocateTable (a stale or freed table)
     */
    static native void nativeBuildTable(ByteBuffer table, long generation, byte[] base, byte[] modulus, int rows,
                                        int blocks, int maxExponentBits);

    /**
     * base^exponent mod modulus from a table filled by nativeBuildTable, in
     * constant time if asked (then time and memory accesses depend only on
     * the table's shape and the exponent's limb count, its array's length
     * less a zero sign byte over whole limbs).
     *
     * @throws ArithmeticException if exponent < 0 or longer than the table covers
     * @throws IllegalArgumentException if table does not hold such a table, or is not inside a live block of
     *         that generation from nativeAllocateTable (a stale or freed table)
     */
    static native byte[] nativeModPow(ByteBuffer table, long generation, byte[] exponent, boolean constantTime);

    /**
     * base^exponent mod modulus in constant time from a table filled by
     * nativeBuildTable, the exponent taken at exponentBits rounded up to
     * limbs (time and memory accesses then depend only on the table's shape
     * and exponentBits).  An exponent of 0 gives 1, as BigInteger does.
     * Arguments are checked in order, each one's null first: the table,
     * the exponent, the bound.
     *
     * @throws NullPointerException if table or exponent is null
     * @throws IllegalArgumentException if exponentBits is not from 1 to the
     *         table's reach, the exponent is negative or 2^exponentBits or
     *         more, or table does not hold such a table (or is stale or freed)
     */
    static native byte[] nativeModPowCTBound(ByteBuffer table, long generation, byte[] exponent, int exponentBits);

    FixedBase(BigInteger base, BigInteger modulus) {
        this(base, modulus, null);
    }

    FixedBase(BigInteger base, BigInteger modulus, TransparentTables.Use account) {
        if (base == null)
            throw new NullPointerException("base is null");
        if (modulus == null)
            throw new NullPointerException("modulus is null");
        if (modulus.signum() <= 0)
            throw new ArithmeticException("BigInteger: modulus not positive");
        this.base = base;
        this.modulus = modulus;
        this.reachBits = modulus.bitLength();
        this.usable = tablesPossible(modulus);
        this.account = account;
        this.watch = usable && account == null ? UnreachableTables.watch(this, tables) : null;
    }

    /**
     * Whether tables can be made for modulus at all: the library has them,
     * and the modulus is odd, above 1 and not too large.  Part of the one
     * rule, {@link #tableServes}.
     */
    private static boolean tablesPossible(BigInteger modulus) {
        return NativeBigInteger.hasFixedBase() && modulus.signum() > 0 && modulus.testBit(0)
                && modulus.bitLength() > 1 && modulus.bitLength() <= MAX_TABLE_MODULUS_BITS;
    }

    /**
     * The one rule for when a table of some base mod modulus computes
     * base^exponent: the explicit API and the transparent tables both ask
     * here, so they cannot disagree.  The constant-time variant also needs
     * exponent > 0, as modPowCT does.
     */
    static boolean tableServes(BigInteger modulus, BigInteger exponent, boolean constantTime) {
        return tablesPossible(modulus) && exponent.signum() >= (constantTime ? 1 : 0)
                && exponent.bitLength() <= modulus.bitLength();
    }

    /** Whether the loaded library has working fixed-base natives (I2P's has none). */
    static boolean nativesWork() {
        try {
            ByteBuffer block = nativeAllocateTable(nativeTableBytes(3, 1, 1));
            long generation = NativeTable.generationOf(block);
            try {
                block.position(NativeTable.HEADER_BYTES);
                ByteBuffer table = block.slice().order(ByteOrder.nativeOrder());
                nativeBuildTable(table, generation, new byte[] {2}, new byte[] {7}, 1, 1, 3);
                byte[] r = nativeModPow(table, generation, new byte[] {5}, false);
                return r.length == 1 && r[0] == 4; // 2^5 mod 7
            } finally {
                nativeFreeTable(block, generation);
            }
        } catch (UnsatisfiedLinkError e) {
            return false;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Builds the variable-time table now rather than on the first modPow. */
    FixedBase prepare() {
        if (usable)
            table(false);
        return this;
    }

    /**
     * The table of one variant, built by the first thread that needs it; null
     * if the tables are closed, or for a transparent FixedBase whose table
     * the bound or the memory left does not allow.
     *
     * @throws OutOfMemoryError for an explicit FixedBase, if there is no memory for the table
     */
    private NativeTable table(boolean constantTime) {
        NativeTable t = tables.get(constantTime);
        if (t != null)
            return t;
        synchronized (this) {
            t = tables.get(constantTime);
            if (t != null || tables.isClosed())
                return t;
            t = newTable(constantTime);
            if (t != null && !tables.put(constantTime, t)) {
                t.close(); // evicted while it was built
                return null;
            }
            return t;
        }
    }

    /** A new table of one variant; null where a transparent table may not or cannot be had. */
    private NativeTable newTable(boolean constantTime) {
        OperandBytes baseForm = null;
        OperandBytes modulusForm = null;
        try {
            baseForm = OperandBytes.of(base);
            modulusForm = OperandBytes.of(modulus);
            return newTable(constantTime, baseForm.bytes, modulusForm.bytes);
        } finally {
            OperandBytes.release(baseForm, modulusForm, null);
        }
    }

    /** newTable from the byte forms b and m of base and modulus, read-only. */
    private NativeTable newTable(boolean constantTime, byte[] b, byte[] m) {
        int rows = constantTime ? constantTimeRows(reachBits) : variableTimeRows(reachBits);
        int blocks = constantTime ? constantTimeBlocks(reachBits) : variableTimeBlocks(reachBits);
        long tableBytes = tableBytes(m, rows, blocks);
        NativeTable t = null;
        if (account == null) {
            t = NativeTable.allocate(tableBytes, null);
        } else {
            // Reserved before it exists, so that tables being built at once cannot pass the bound together.
            long bytes = NativeTable.blockBytes(tableBytes);
            if (!TransparentTables.reserve(account, bytes))
                return null;
            try {
                t = NativeTable.allocate(tableBytes, TransparentTables::freed);
            } catch (OutOfMemoryError noMemory) {
                // A table modPow makes by itself is an optimisation: the call goes on without.
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
            nativeBuildTable(buffer, t.generation(), b, m, rows, blocks, reachBits);
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
        long bytes = nativeTableBytes(bits, rows, blocks);
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
        ByteBuffer block = nativeAllocateTable(bytes);
        long generation = NativeTable.generationOf(block);
        try {
            block.position(NativeTable.HEADER_BYTES);
            ByteBuffer table = block.slice().order(ByteOrder.nativeOrder());
            nativeBuildTable(table, generation, base, modulus, rows, blocks, maxExponentBits);
            ByteBuffer copy = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
            copy.put(table);
            copy.clear();
            return copy;
        } finally {
            nativeFreeTable(block, generation);
        }
    }

    /**
     * More rows: fewer operations per exponentiation, a table twice the size;
     * more blocks: fewer squarings, a table larger by a block.  With the IFMA
     * engine, 7 x 4 takes the table size of GMP's 8 x 2 (its numbers are
     * wider) and 0.96 of its time.  In GMP's format, from 1024 to 4096 bits,
     * 8 x 4: half the squarings of 8 x 2 for twice the table (256 KiB at 2048
     * bits), 0.86 to 0.92 of its time on the MULX/ADX engine and on GMP's
     * functions; above 4096 bits 8 x 2, which keeps a 16384-bit table at 1 MiB.
     */
    static int variableTimeRows(int bits) {
        return ifmaTables(bits) ? 7 : bits >= 1024 ? 8 : bits >= 512 ? 7 : bits >= 256 ? 6 : 4;
    }

    static int variableTimeBlocks(int bits) {
        return ifmaTables(bits) ? 4 : bits >= 1024 && largerTables(bits) ? 4 : 2;
    }

    /**
     * The constant-time path reads a whole block per digit: each row more
     * doubles that read and saves multiplications, each block more saves
     * squarings.  In GMP's format, where a product costs more than a read
     * (the MULX/ADX engine, GMP's functions), 6 x 6 from 2048 to 4096 bits:
     * 0.82 to 0.91 of 5 x 4's time on the MULX/ADX engine and 0.88 to 0.965
     * on GMP's functions (96 KiB at 2048 bits); 5 x 5 from 1024 bits, where
     * 6 x 6 gave GMP's functions 1.06 (0.96 to 0.98).  The IFMA engine
     * multiplies faster than it reads: 5 rows there (5 x 6 was 0.945 to
     * 0.965 of 5 x 4's time, more rows slower), and 8 blocks: a short
     * exponent runs only the blocks its limbs reach, and a block of 5 x 8
     * spans 260 bits at 2048 (345 of 5 x 6), so a 256-bit one takes 51
     * squarings and 52 products rather than 68 and 69; 80 KiB at 2048 bits
     * (doc/engines.md).
     */
    static int constantTimeRows(int bits) {
        if (bits >= 2048 && largerTables(bits) && !ifmaTables(bits))
            return 6;
        return bits >= 256 ? 5 : 4;
    }

    static int constantTimeBlocks(int bits) {
        if (bits < 1024)
            return 2;
        if (!largerTables(bits))
            return 4;
        if (ifmaTables(bits))
            return 8;
        return bits >= 2048 ? 6 : 5;
    }

    /** Up to 4096 bits, where the larger shapes above were measured; above, the smaller tables. */
    private static boolean largerTables(int bits) {
        return bits <= 4096;
    }

    /**
     * Whether tables for a modulus of bits bits are computed by the IFMA engine
     * (from 1024 bits): asked of the library when a table is built, so that a
     * table built while GMP is forced gets GMP's format and GMP's shape.
     */
    private static boolean ifmaTables(int bits) {
        return bits >= 1024 && "avx512-ifma".equals(Engine.current());
    }

    /**
     * base^exponent mod modulus, exactly as {@link BigInteger#modPow}, from the
     * table when the exponent is within its reach.
     *
     * @throws NullPointerException if exponent is null
     * @throws ArithmeticException if exponent < 0 and base is not invertible
     * @throws IllegalStateException if this FixedBase is closed
     */
    public BigInteger modPow(BigInteger exponent) {
        if (exponent == null)
            throw new NullPointerException("exponent is null");
        checkOpen();
        if (usable && tableServes(modulus, exponent, false))
            return tableModPow(exponent, false);
        return NativeBigInteger.modPowWithoutTable(base, exponent, modulus);
    }

    /**
     * base^exponent mod modulus, the same value as {@link #modPow}, in constant
     * time for exponents > 0 within the table's reach: the comb runs the
     * steps the exponent's limb count needs (ceil(bitLength / 64) limbs: a
     * 256-bit exponent on a 2048-bit table takes one of the table's blocks),
     * every digit of them reads the whole of its rows of the table and
     * multiplies, so time and memory accesses depend only on the modulus'
     * size and the exponent's limb count, never on its bits, as
     * {@link NativeBigInteger#modPowCT(BigInteger, BigInteger)}.  Other
     * exponents are computed as
     * {@link NativeBigInteger#modPowCT(BigInteger, BigInteger, BigInteger)} computes them.
     *
     * @throws NullPointerException if exponent is null
     * @throws ArithmeticException if exponent < 0 and base is not invertible
     * @throws IllegalStateException if this FixedBase is closed
     */
    public BigInteger modPowCT(BigInteger exponent) {
        if (exponent == null)
            throw new NullPointerException("exponent is null");
        checkOpen();
        if (usable && tableServes(modulus, exponent, true))
            return tableModPow(exponent, true);
        return NativeBigInteger.modPowCTWithoutTable(base, exponent, modulus);
    }

    /**
     * base^exponent mod modulus in constant time as {@link #modPowCT(BigInteger)},
     * the exponent taken at exponentBits rounded up to whole 64-bit limbs
     * whatever its own length (see
     * {@link NativeBigInteger#modPowCT(BigInteger, BigInteger, int)}), from
     * the table when exponentBits is within its reach.
     *
     * @throws NullPointerException if exponent is null
     * @throws IllegalArgumentException if exponentBits < 1 or exponentBits >
     *         2^27 (with or without the library), or exponent is negative or
     *         2^exponentBits or more
     * @throws IllegalStateException if this FixedBase is closed
     */
    public BigInteger modPowCT(BigInteger exponent, int exponentBits) {
        if (exponent == null)
            throw new NullPointerException("exponent is null");
        NativeBigInteger.checkBound(exponent, exponentBits);
        checkOpen();
        if (usable && exponentBits <= reachBits && tableServes(modulus, exponent, true)) {
            NativeBigInteger.markSecret(exponent);
            NativeTable table = table(true);
            ByteBuffer buffer = acquire(table);
            if (buffer == null)
                return NativeBigInteger.modPowCTWithoutTable(base, exponent, modulus, exponentBits);
            OperandBytes e = null;
            try {
                e = OperandBytes.of(exponent);
                return NativeBigInteger.fromNative(nativeModPowCTBound(buffer, table.generation(), e.bytes, exponentBits));
            } finally {
                table.release();
                OperandBytes.release(e, null, null);
                reachableUntilHere();
            }
        }
        return NativeBigInteger.modPowCTWithoutTable(base, exponent, modulus, exponentBits);
    }

    /**
     * The table's buffer, held until table.release(); null if there is no
     * table or it was closed meanwhile.
     *
     * @throws IllegalStateException if this FixedBase is explicit and has no table (closed)
     */
    private ByteBuffer acquire(NativeTable table) {
        ByteBuffer buffer = null;
        if (table != null) {
            try {
                buffer = table.acquire();
            } catch (IllegalStateException closedMeanwhile) {
                // buffer stays null
            }
        }
        if (buffer == null && account == null)
            throw new IllegalStateException("FixedBase is closed");
        return buffer;
    }

    private void checkOpen() {
        if (closed)
            throw new IllegalStateException("FixedBase is closed");
    }

    private BigInteger tableModPow(BigInteger exponent, boolean constantTime) {
        if (constantTime)
            NativeBigInteger.markSecret(exponent);
        NativeTable table = table(constantTime);
        // null: closed by its owner (explicit: acquire throws), or evicted or never admitted (transparent).
        ByteBuffer buffer = acquire(table);
        if (buffer == null) {
            return constantTime ? NativeBigInteger.modPowCTWithoutTable(base, exponent, modulus)
                    : NativeBigInteger.modPowWithoutTable(base, exponent, modulus);
        }
        OperandBytes e = null;
        try {
            e = OperandBytes.of(exponent);
            return NativeBigInteger.fromNative(nativeModPow(buffer, table.generation(), e.bytes, constantTime));
        } finally {
            table.release();
            OperandBytes.release(e, null, null);
            reachableUntilHere();
        }
    }

    /**
     * Reads a volatile field of this object, which therefore stays reachable
     * until here: its watch cannot close the tables of a call in progress
     * (Java 8 has no Reference.reachabilityFence).
     */
    @SuppressWarnings("unused")
    private void reachableUntilHere() {
        boolean unused = closed;
    }

    /**
     * Frees the tables: at once, or, where other threads are in the middle of
     * a call, as the last of those calls returns.  After it modPow and
     * modPowCT throw IllegalStateException.  Closing again does nothing.
     */
    @Override
    public void close() {
        closed = true;
        tables.close();
        if (watch != null)
            watch.forget();
    }

    /**
     * Frees the tables of a transparent FixedBase that its cache let go:
     * calls that reach it afterwards go on without a table.
     */
    void evict() {
        tables.close();
    }

    public BigInteger base() {
        return base;
    }

    public BigInteger modulus() {
        return modulus;
    }

    /** Whether exponentiations use a table (false: they fall back to modPow). */
    public boolean usesTable() {
        return usable;
    }

    /** The largest exponent bit length the table serves. */
    public int maxExponentBits() {
        return reachBits;
    }

    /** Bytes of native memory held by the tables built so far; 0 once closed. */
    public long tableBytes() {
        return tables.bytes();
    }

    /** Whether this FixedBase is closed and the memory of its tables freed (for tests). */
    boolean tablesFreed() {
        return tables.freed();
    }

    /** Whether the variant's table is built and open (for tests). */
    boolean hasTable(boolean constantTime) {
        NativeTable t = tables.get(constantTime);
        return t != null && !tables.isClosed();
    }
}
