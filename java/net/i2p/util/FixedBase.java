package net.i2p.util;

import java.math.BigInteger;

/**
 * Powers of one base modulo one modulus, fast: {@code g^e mod m} for a fixed
 * g and m and many exponents e, as in Diffie-Hellman, ElGamal, DSA and SRP.
 *
 * <p>A table of powers of the base is prepared once (a Lim-Lee comb in
 * Montgomery form, computed by jbigi); each exponentiation then needs about
 * one squaring per 16 exponent bits instead of one per bit.  The table is a
 * {@code long[]} in the Java heap: nothing native to free, nothing to leak.
 * For a 2048-bit modulus the table of {@link #modPow} takes 128 KiB and
 * is built by {@link NativeBigInteger#fixedBase}; the one of
 * {@link #modPowCT} takes 32 KiB and is built on its first use.  Both cover
 * exponents up to the modulus' bit length.
 *
 * <p>Results are always exactly {@code base.modPow(exponent, modulus)}.
 * Where the table cannot serve - no native library, an even modulus or
 * modulus 1, a negative exponent, an exponent longer than the modulus - the
 * call goes to {@link NativeBigInteger#modPow(BigInteger, BigInteger, BigInteger)}.
 *
 * <p>Immutable once built and safe for any number of threads.
 * Get one from {@link NativeBigInteger#fixedBase(BigInteger, BigInteger)}.
 */
public final class FixedBase {
    /** Comb shapes (rows x blocks): measured fastest for their table size. */
    private static final int VARIABLE_TIME_BLOCKS = 2;
    private static final int CONSTANT_TIME_BLOCKS = 2;

    /** Larger moduli get no table: it would pass 1 MiB (plain modPow serves them). */
    static final int MAX_TABLE_MODULUS_BITS = 16384;

    private final BigInteger base;
    private final BigInteger modulus;
    private final int reachBits;
    /** False where tables cannot serve: every call falls back. */
    private final boolean usable;
    /** The tables, each built on its first use (or by {@link #prepare}). */
    private volatile long[] variableTimeTable;
    private volatile long[] constantTimeTable;

    FixedBase(BigInteger base, BigInteger modulus) {
        if (base == null)
            throw new NullPointerException("base is null");
        if (modulus == null)
            throw new NullPointerException("modulus is null");
        if (modulus.signum() <= 0)
            throw new ArithmeticException("BigInteger: modulus not positive");
        this.base = base;
        this.modulus = modulus;
        this.reachBits = modulus.bitLength();
        this.usable = NativeBigInteger.hasFixedBase() && modulus.testBit(0) && modulus.bitLength() > 1
                && modulus.bitLength() <= MAX_TABLE_MODULUS_BITS;
    }

    /** Builds the variable-time table now rather than on the first modPow. */
    FixedBase prepare() {
        if (usable)
            table(false);
        return this;
    }

    /** The table of one variant, built by the first thread that needs it. */
    private long[] table(boolean constantTime) {
        long[] t = constantTime ? constantTimeTable : variableTimeTable;
        if (t != null)
            return t;
        synchronized (this) {
            t = constantTime ? constantTimeTable : variableTimeTable;
            if (t == null) {
                if (constantTime) {
                    t = build(constantTimeRows(reachBits), CONSTANT_TIME_BLOCKS);
                    constantTimeTable = t;
                } else {
                    t = build(variableTimeRows(reachBits), VARIABLE_TIME_BLOCKS);
                    variableTimeTable = t;
                }
            }
        }
        return t;
    }

    private long[] build(int rows, int blocks) {
        return NativeBigInteger.nativeFixedBaseTable(NativeBigInteger.bytesOf(base),
                NativeBigInteger.bytesOf(modulus), rows, blocks, reachBits);
    }

    /** More rows: fewer operations per exponentiation, a table twice the size. */
    static int variableTimeRows(int bits) {
        return bits >= 1024 ? 8 : bits >= 512 ? 7 : bits >= 256 ? 6 : 4;
    }

    /** The constant-time path reads a whole block per digit, so it wants smaller blocks. */
    static int constantTimeRows(int bits) {
        return bits >= 1024 ? 6 : bits >= 256 ? 5 : 4;
    }

    private boolean covers(BigInteger exponent) {
        return exponent.signum() >= 0 && exponent.bitLength() <= reachBits;
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
        if (usable && covers(exponent))
            return NativeBigInteger.fromNative(NativeBigInteger.nativeFixedBaseModPow(
                    table(false), NativeBigInteger.bytesOf(exponent), false));
        return NativeBigInteger.modPow(base, exponent, modulus);
    }

    /**
     * base^exponent mod modulus, the same value as {@link #modPow}, in constant
     * time for exponents > 0 within the table's reach: every digit reads the
     * whole of its block of the table and multiplies, so time and memory
     * accesses depend only on the sizes.  Other exponents go to
     * {@link NativeBigInteger#modPowCT(BigInteger, BigInteger, BigInteger)}.
     *
     * @throws NullPointerException if exponent is null
     * @throws ArithmeticException if exponent < 0 and base is not invertible
     */
    public BigInteger modPowCT(BigInteger exponent) {
        if (exponent == null)
            throw new NullPointerException("exponent is null");
        if (usable && exponent.signum() > 0 && covers(exponent))
            return NativeBigInteger.fromNative(NativeBigInteger.nativeFixedBaseModPow(
                    table(true), NativeBigInteger.bytesOf(exponent), true));
        return NativeBigInteger.modPowCT(base, exponent, modulus);
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

    /** Bytes of Java heap held by the tables built so far. */
    public long tableBytes() {
        long[] vt = variableTimeTable;
        long[] ct = constantTimeTable;
        return 8L * ((vt == null ? 0 : vt.length) + (ct == null ? 0 : ct.length));
    }
}
