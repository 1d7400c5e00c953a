package net.i2p.util;

import java.io.Closeable;
import java.math.BigInteger;
import java.nio.ByteBuffer;

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
    /* The public API, the table natives (JNI binds them by this class's
     * name) and the use of a FixedBase's tables from call to call.  The
     * rest, by job: CombShape (a table's shape, and when a table serves),
     * TableMaker (making one), TablePair (a FixedBase's two), NativeTable
     * (one table's native memory and its users). */

    /**
     * Larger moduli get no table: it would pass 1 MiB (plain modPow serves
     * them).  Declared here, where javac -h writes it into include/jbigi.h.
     */
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
        this.usable = CombShape.tablesPossible(modulus);
        this.account = account;
        this.watch = usable && account == null ? UnreachableTables.watch(this, tables) : null;
    }

    /** Whether the loaded library has working fixed-base natives: asked by JbigiLoader. */
    static boolean nativesWork() {
        return TableMaker.nativesWork();
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
            return TableMaker.make(baseForm.bytes, modulusForm.bytes, reachBits, constantTime, account);
        } finally {
            OperandBytes.release(baseForm, modulusForm, null);
        }
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
        if (usable && CombShape.tableServes(modulus, exponent, false))
            return tableModPow(exponent, false);
        return NativePowers.modPow(base, exponent, modulus);
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
        if (usable && CombShape.tableServes(modulus, exponent, true))
            return tableModPow(exponent, true);
        return NativePowers.modPowCT(base, exponent, modulus);
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
        ArgumentChecks.bound(exponent, exponentBits);
        checkOpen();
        if (usable && exponentBits <= reachBits && CombShape.tableServes(modulus, exponent, true)) {
            OperandBytes.markSecret(exponent);
            NativeTable table = table(true);
            ByteBuffer buffer = acquire(table);
            if (buffer == null)
                return NativePowers.modPowCT(base, exponent, modulus, exponentBits);
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
        return NativePowers.modPowCT(base, exponent, modulus, exponentBits);
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
            OperandBytes.markSecret(exponent);
        NativeTable table = table(constantTime);
        // null: closed by its owner (explicit: acquire throws), or evicted or never admitted (transparent).
        ByteBuffer buffer = acquire(table);
        if (buffer == null) {
            return constantTime ? NativePowers.modPowCT(base, exponent, modulus)
                    : NativePowers.modPow(base, exponent, modulus);
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
