package net.i2p.util;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Powers of one base modulo one modulus, fast: {@code g^e mod m} for a fixed
 * g and m and many exponents e, as in Diffie-Hellman, ElGamal, DSA and SRP.
 *
 * <p>A table of powers of the base is prepared once (a Lim-Lee comb in
 * Montgomery form, computed by jbigi); each exponentiation then needs about
 * one squaring per 16 exponent bits instead of one per bit.  The tables live
 * outside the Java heap, in direct buffers that the JVM frees once this
 * object is unreachable, and native code reads them in place without
 * stopping the garbage collector.  For a 2048-bit modulus the table of
 * {@link #modPow} takes 128 KiB and is built by
 * {@link NativeBigInteger#fixedBase}; the one of {@link #modPowCT} takes
 * 32 KiB and is built on its first use.  Both cover exponents up to the
 * modulus' bit length.  The tables of a FixedBase made by
 * {@code NativeBigInteger.fixedBase} are held for as long as it is; those
 * that {@code NativeBigInteger.modPow} makes by itself for a repeated base
 * are bounded (see {@link NativeBigInteger}).
 *
 * <p>Results are always exactly {@code base.modPow(exponent, modulus)}.
 * Where the table cannot serve - no native library, an even modulus or
 * modulus 1, a negative exponent, an exponent longer than the modulus - the
 * call is computed as {@link NativeBigInteger#modPow(BigInteger, BigInteger, BigInteger)}
 * computes it.  The base is treated as public: the table is built in time
 * that depends on it.
 *
 * <p>Immutable once built and safe for any number of threads.
 * Get one from {@link NativeBigInteger#fixedBase(BigInteger, BigInteger)}.
 */
public final class FixedBase {
    /* Comb shapes (rows x blocks), measured fastest for their table size: see
     * variableTimeRows and the methods after it. */

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
    private volatile ByteBuffer variableTimeTable;
    private volatile ByteBuffer constantTimeTable;

    /** Bytes of the table for a modulus of modulusBits bits and comb shape rows x blocks; 0 if out of range. */
    static native long nativeTableBytes(int modulusBits, int rows, int blocks);

    /**
     * Fills table, a direct buffer of nativeTableBytes bytes, with the comb of
     * base mod modulus for exponents of up to maxExponentBits bits (at most the
     * modulus' bit length).
     *
     * @throws ArithmeticException if modulus is even or <= 1
     * @throws IllegalArgumentException if the shape, the reach or the buffer does not fit
     */
    static native void nativeBuildTable(ByteBuffer table, byte[] base, byte[] modulus, int rows, int blocks,
                                        int maxExponentBits);

    /**
     * base^exponent mod modulus from a table filled by nativeBuildTable, in
     * constant time if asked (then time and memory accesses depend only on
     * the table's shape).
     *
     * @throws ArithmeticException if exponent < 0 or longer than the table covers
     * @throws IllegalArgumentException if table does not hold such a table
     */
    static native byte[] nativeModPow(ByteBuffer table, byte[] exponent, boolean constantTime);

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
            ByteBuffer table = ByteBuffer.allocateDirect((int) nativeTableBytes(3, 1, 1));
            nativeBuildTable(table, new byte[] {2}, new byte[] {7}, 1, 1, 3);
            byte[] r = nativeModPow(table, new byte[] {5}, false);
            return r.length == 1 && r[0] == 4; // 2^5 mod 7
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

    /** The table of one variant, built by the first thread that needs it. */
    private ByteBuffer table(boolean constantTime) {
        ByteBuffer t = constantTime ? constantTimeTable : variableTimeTable;
        if (t != null)
            return t;
        synchronized (this) {
            t = constantTime ? constantTimeTable : variableTimeTable;
            if (t == null) {
                if (constantTime) {
                    t = buildTable(base, modulus, constantTimeRows(reachBits), constantTimeBlocks(reachBits),
                            reachBits);
                    constantTimeTable = t;
                } else {
                    t = buildTable(base, modulus, variableTimeRows(reachBits), variableTimeBlocks(reachBits),
                            reachBits);
                    variableTimeTable = t;
                }
                if (account != null)
                    TransparentTables.charge(account, t.capacity());
            }
        }
        return t;
    }

    /**
     * A new table of base mod modulus in a direct buffer (limbs in native
     * order, should anyone read them from Java).
     *
     * @throws ArithmeticException if modulus is even or <= 1
     * @throws IllegalArgumentException if the shape or reach is out of range
     */
    static ByteBuffer buildTable(BigInteger base, BigInteger modulus, int rows, int blocks, int maxExponentBits) {
        return buildTable(NativeBigInteger.bytesOf(base), NativeBigInteger.bytesOf(modulus), rows, blocks,
                maxExponentBits);
    }

    static ByteBuffer buildTable(byte[] base, byte[] modulus, int rows, int blocks, int maxExponentBits) {
        if (base == null)
            throw new NullPointerException("base is null");
        if (modulus == null)
            throw new NullPointerException("modulus is null");
        if (modulus.length == 0)
            throw new NumberFormatException("Zero length BigInteger");
        // At least 2 bits: a modulus of 0 or 1 is then refused by the build, with its own message.
        int bits = Math.max(2, new BigInteger(modulus).bitLength());
        long bytes = nativeTableBytes(bits, rows, blocks);
        if (bytes <= 0)
            throw new IllegalArgumentException("fixed-base table shape out of range: " + rows + " x " + blocks);
        ByteBuffer table = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
        nativeBuildTable(table, base, modulus, rows, blocks, maxExponentBits);
        return table;
    }

    /**
     * More rows: fewer operations per exponentiation, a table twice the size.
     * With the IFMA engine, 7 x 4 takes the table size of GMP's 8 x 2 (its
     * numbers are wider) and 0.96 of its time.
     */
    static int variableTimeRows(int bits) {
        return ifmaTables(bits) ? 7 : bits >= 1024 ? 8 : bits >= 512 ? 7 : bits >= 256 ? 6 : 4;
    }

    static int variableTimeBlocks(int bits) {
        return ifmaTables(bits) ? 4 : 2;
    }

    /**
     * The constant-time path reads a whole block per digit, so it wants
     * smaller blocks; with the IFMA engine's cheaper multiplications, smaller
     * still and more of them (5 x 4: 0.38 of the time of GMP's 6 x 2 at 2048
     * bits, 0.28 at 4096).
     */
    static int constantTimeRows(int bits) {
        return ifmaTables(bits) ? 5 : bits >= 1024 ? 6 : bits >= 256 ? 5 : 4;
    }

    static int constantTimeBlocks(int bits) {
        return ifmaTables(bits) ? 4 : 2;
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
     */
    public BigInteger modPow(BigInteger exponent) {
        if (exponent == null)
            throw new NullPointerException("exponent is null");
        if (usable && tableServes(modulus, exponent, false))
            return tableModPow(exponent, false);
        return NativeBigInteger.modPowWithoutTable(base, exponent, modulus);
    }

    /**
     * base^exponent mod modulus, the same value as {@link #modPow}, in constant
     * time for exponents > 0 within the table's reach: every digit reads the
     * whole of its block of the table and multiplies, so time and memory
     * accesses depend only on the modulus' size, not on the exponent's bits or
     * length.  Other exponents are computed as
     * {@link NativeBigInteger#modPowCT(BigInteger, BigInteger, BigInteger)} computes them.
     *
     * @throws NullPointerException if exponent is null
     * @throws ArithmeticException if exponent < 0 and base is not invertible
     */
    public BigInteger modPowCT(BigInteger exponent) {
        if (exponent == null)
            throw new NullPointerException("exponent is null");
        if (usable && tableServes(modulus, exponent, true))
            return tableModPow(exponent, true);
        return NativeBigInteger.modPowCTWithoutTable(base, exponent, modulus);
    }

    private BigInteger tableModPow(BigInteger exponent, boolean constantTime) {
        ByteBuffer table;
        try {
            table = table(constantTime);
        } catch (OutOfMemoryError noDirectMemory) {
            // A table modPow made by itself is an optimisation: without room for
            // it (direct memory, -XX:MaxDirectMemorySize) the call goes on without.
            if (account == null)
                throw noDirectMemory;
            TransparentTables.noRoom(account);
            return constantTime ? NativeBigInteger.modPowCTWithoutTable(base, exponent, modulus)
                    : NativeBigInteger.modPowWithoutTable(base, exponent, modulus);
        }
        byte[] e = NativeBigInteger.bytesOf(exponent);
        try {
            return NativeBigInteger.fromNative(nativeModPow(table, e, constantTime));
        } finally {
            NativeBigInteger.wipeIfCopy(e, exponent);
        }
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

    /** Bytes of native memory held by the tables built so far. */
    public long tableBytes() {
        ByteBuffer vt = variableTimeTable;
        ByteBuffer ct = constantTimeTable;
        return (vt == null ? 0 : vt.capacity()) + (ct == null ? 0 : ct.capacity());
    }
}
