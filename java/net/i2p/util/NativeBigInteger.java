package net.i2p.util;

import java.math.BigInteger;
import java.util.Random;

/**
 * A {@link BigInteger} whose {@code modPow}, {@code modInverse} and
 * {@code modPowCT} run in GNU MP through the native library jbigi, and fall
 * back to {@code BigInteger} when that library cannot be loaded.
 *
 * <p>Every method returns exactly the value {@code BigInteger} returns for the
 * same arguments and throws the same exception types, whether or not the
 * native library is in use.  Results computed natively are
 * {@code NativeBigInteger}s, so chained operations stay native.
 *
 * <p>The library is looked for once, when this class is initialised:
 * <ol>
 * <li>{@code -Djbigi.enable=false}: not at all, pure Java;</li>
 * <li>{@code System.loadLibrary("jbigi")}: {@code libjbigi.so} on
 *     {@code java.library.path}, as in an I2P install directory;</li>
 * <li>a library bundled in the jar for this OS and CPU
 *     ({@code libjbigi-linux-<cpu>_64.so}), copied to a new private temporary
 *     file and loaded from there;</li>
 * <li>otherwise pure Java.</li>
 * </ol>
 * {@link #loadStatus()} says which happened; nothing is printed unless
 * {@code -Djbigi.debug=true} is set or {@link #main} runs.
 *
 * <p>A NativeBigInteger used again and again as a base with one modulus gets
 * a fixed-base table, which saves most of the squarings of each further
 * modPow.  The native memory these tables take is bounded across the JVM
 * (32 MiB by default, {@code -Djbigi.fixedBase.cacheBytes}): a table evicted
 * from the bound is freed at once, or as the last call using it returns, see
 * {@code TransparentTables}.  Tables made through {@link #fixedBase} are
 * the caller's, outside that bound: see {@link FixedBase#close}.  What a
 * table saves:
 * doc/measurements.md: "Fixed-base tables against a plain modPow (2026-12-03 and 2026-12-06)"
 *
 * <p>Instances are immutable and thread-safe, as {@code BigInteger} is.
 */
public class NativeBigInteger extends BigInteger {
    /* The public API, every native (JNI binds them by this class's name, as
     * I2P's own NativeBigInteger declares them) and the constants javac -h
     * writes into include/jbigi.h.  The rest, by job: ArgumentChecks,
     * NativePowers (the natives or BigInteger), OperandBytes (who owns a
     * byte form), TransparentTables and FixedBase (fixed-base tables). */

    private static final long serialVersionUID = 5L;

    /** The library, loaded (or not) as this class is initialised; read by {@link NativePowers}. */
    static final JbigiLoader.Result LIBRARY = loadLibrary();

    /**
     * The library's one size limit: the largest array, in bytes, any native
     * takes (16 MiB; GMP would abort the process if it ran out of memory).
     * The other limits below derive from it.  A compile-time constant, so
     * that javac -h writes it into include/jbigi.h, where the C side reads
     * it (net_i2p_util_NativeBigInteger_NATIVE_MAX_BYTES).
     */
    static final int NATIVE_MAX_BYTES = 16 * 1024 * 1024;

    /**
     * Largest value, in bits, the native library takes: a positive value of
     * NATIVE_MAX_BYTES * 8 bits needs a sign byte more.  Larger ones are left
     * to BigInteger.
     */
    static final int NATIVE_MAX_BITS = 8 * NATIVE_MAX_BYTES - 1;

    /**
     * Largest exponent bound taken (the library's operand size limit, in
     * bits), with or without the library: see {@link ArgumentChecks#bound}.
     */
    static final int MAX_BOUND_BITS = 8 * NATIVE_MAX_BYTES;

    /**
     * toByteArray() of this value, made once and shared by the native calls
     * that read it, never written while it is cached, never handed out
     * itself; see {@link OperandBytes}.  Null, and never set again, once the
     * value has been used as a constant-time exponent ({@link #secret}).
     */
    transient volatile OperandBytes.Shared cachedForm;

    /**
     * Set when this value is used as a constant-time exponent (a private
     * key): its byte form is then made afresh for each call and wiped after
     * it, never kept (an array kept for the object's lifetime would hold
     * the key unwiped in the heap), and the form cached before is wiped as
     * the last call reading it returns.
     */
    transient volatile boolean secret;

    /** How this value has been used as a base lately, for the transparent fixed-base tables. */
    transient volatile TransparentTables.Use baseUse;

    /**
     * base^exponent mod modulus.  All arrays are big-endian two's complement
     * ({@code BigInteger.toByteArray()} form).  Any base; a negative exponent
     * means the inverse raised to |exponent| (library version 5 and later).
     *
     * @throws NullPointerException if an array is null
     * @throws NumberFormatException if an array is empty
     * @throws ArithmeticException if modulus <= 0, if the exponent is negative
     *         and base has no inverse, or if an operand is over the library's
     *         size limit (16 MiB)
     */
    static native byte[] nativeModPow(byte[] base, byte[] exponent, byte[] modulus);

    /**
     * base^exponent mod modulus in constant time: the engine's constant-time
     * path (or GMP's mpn_sec_powm) with the exponent taken at its own limb
     * count, as mpz_powm_sec does: the array's length rounded up to 64-bit
     * limbs, less a zero sign byte over whole limbs (for a toByteArray()
     * array, the value's limb count, which bitLength shows), read with a
     * loop over that width.  Running time and memory accesses depend only on
     * the base, the modulus' limb count and the exponent's limb count, never
     * on the exponent's bits.  The result is in toByteArray() form, so its
     * length is the value's.  Arguments are checked in order: each array
     * (null, empty, over the size limit), then the modulus' value, then the
     * exponent's (I2P's contract: exponent <= 0 throws).
     *
     * @throws NullPointerException if an array is null
     * @throws NumberFormatException if an array is empty
     * @throws ArithmeticException if modulus <= 0 or even, exponent <= 0, or
     *         an array is over the library's size limit (16 MiB)
     */
    static native byte[] nativeModPowCT(byte[] base, byte[] exponent, byte[] modulus);

    /**
     * nativeModPowCT with the exponent taken at exponentBits bits, whatever
     * its own length; an exponent of 0 gives 1 mod modulus, as BigInteger.
     * Not in I2P's library.  Arguments are checked in order: each array
     * (null, empty, over the size limit), then exponentBits and the
     * exponent against it, then the modulus' value, as the Java path does.
     *
     * @throws NullPointerException if an array is null
     * @throws NumberFormatException if an array is empty
     * @throws IllegalArgumentException if exponentBits is not from 1 to
     *         2^27, or exponent is negative or 2^exponentBits or more
     * @throws ArithmeticException if an array is over the library's size
     *         limit (16 MiB), or modulus <= 0 or even
     */
    static native byte[] nativeModPowCTBound(byte[] base, byte[] exponent, byte[] modulus, int exponentBits);

    /**
     * base^exponent mod modulus in constant time on fixed-length unsigned
     * big-endian arrays: the result has exactly modulus.length bytes.  The
     * exponent is read at its array's length rounded up to limbs and
     * processed over the array's length in bits, whatever its value.  Not
     * in I2P's library (version 4).  Arguments are checked in order: each
     * array (null, empty, over the size limit), then the modulus' value,
     * then the exponent's.
     *
     * @throws NullPointerException if an array is null
     * @throws IllegalArgumentException if an array is empty
     * @throws ArithmeticException if modulus is 0 or even, exponent is 0, or
     *         an array is over the library's size limit (16 MiB)
     */
    static native byte[] nativeModPowCTFixed(byte[] base, byte[] exponent, byte[] modulus);

    /**
     * base^-1 mod modulus.
     *
     * @throws ArithmeticException if modulus <= 0 or base is not invertible
     */
    static native byte[] nativeModInverse(byte[] base, byte[] modulus);

    /**
     * The Jacobi symbol (a/n), n odd and positive; not in I2P's library.
     *
     * @throws NullPointerException if an array is null
     * @throws NumberFormatException if an array is empty
     * @throws ArithmeticException if n <= 0 or n is even, or an array is over the size limit
     */
    static native int nativeJacobi(byte[] a, byte[] n);

    /** The library's interface version: 5 for this one, 4 for I2P's current one. */
    static native int nativeJbigiVersion();

    /** Parts of the version of the GMP the library runs on. */
    static native int nativeGMPMajorVersion();

    static native int nativeGMPMinorVersion();

    static native int nativeGMPPatchVersion();

    public NativeBigInteger(byte[] val) {
        super(val);
    }

    public NativeBigInteger(int signum, byte[] magnitude) {
        super(signum, magnitude);
    }

    public NativeBigInteger(int bitLength, int certainty, Random rnd) {
        super(bitLength, certainty, rnd);
    }

    public NativeBigInteger(int numBits, Random rnd) {
        super(numBits, rnd);
    }

    public NativeBigInteger(String val) {
        super(val);
    }

    public NativeBigInteger(String val, int radix) {
        super(val, radix);
    }

    /** A NativeBigInteger with the value of {@code integer}. */
    public NativeBigInteger(BigInteger integer) {
        this(integer.toByteArray(), true); // a new array: another value's cached form is never shared
    }

    /**
     * Wraps a result array that nothing else holds: it becomes this value's
     * cached byte form, so passing the result back to native code costs no
     * conversion.
     */
    private NativeBigInteger(byte[] canonicalBytes, boolean owned) {
        super(canonicalBytes);
        if (owned)
            cachedForm = OperandBytes.cacheOf(canonicalBytes);
    }

    /**
     * Returns a new array, as BigInteger does: a copy of the cached form,
     * which stays private (copied while counted as one of its readers, so a
     * marking meanwhile cannot wipe it under the copy).
     */
    @Override
    public byte[] toByteArray() {
        return OperandBytes.of(this).take();
    }

    /** BigInteger's own toByteArray(): a new array, not cached. */
    byte[] ownBytes() {
        return super.toByteArray();
    }

    // ---- modPow ----

    /**
     * this^exponent mod m, exactly as {@link BigInteger#modPow}.
     *
     * @throws ArithmeticException if m <= 0, or exponent < 0 and this is not
     *         relatively prime to m
     */
    @Override
    public BigInteger modPow(BigInteger exponent, BigInteger m) {
        return modPow(this, exponent, m);
    }

    /**
     * base^exponent mod modulus for any BigIntegers, exactly as
     * {@code base.modPow(exponent, modulus)}, natively when possible.
     *
     * @throws NullPointerException if an argument is null
     * @throws ArithmeticException if modulus <= 0, or exponent < 0 and base is
     *         not relatively prime to modulus
     */
    public static BigInteger modPow(BigInteger base, BigInteger exponent, BigInteger modulus) {
        ArgumentChecks.notNull(base, exponent, modulus);
        if (LIBRARY.loaded && base instanceof NativeBigInteger) {
            FixedBase fixed = TransparentTables.lookup((NativeBigInteger) base, exponent, modulus, false);
            if (fixed != null)
                return fixed.modPow(exponent);
        }
        return NativePowers.modPow(base, exponent, modulus);
    }

    // ---- modPowCT ----

    /**
     * this^exponent mod m, the same value as {@link #modPow}, computed in
     * constant time when the library is loaded ({@link #isNative()}), m is
     * odd and exponent > 0.  The work is set by public sizes only: the
     * modulus' limb count and the exponent's limb count (its length rounded
     * up to whole 64-bit limbs, ceil(bitLength / 64)), never its bits.  That
     * is {@code mpz_powm_sec}'s promise, and no more than
     * {@code BigInteger} shows itself (bitLength).  So a short secret costs
     * what its own limbs need: a 160-bit DSA nonce under a 1024-bit modulus
     * a sixth of a full-width exponent.  For a random secret below a bound
     * of 160, 224 or 256 bits, the limb count is the same for all but 2^-32
     * (160, 224) or 2^-64 (256) of the secrets; callers who know their bound
     * and want none of the secret's length to show use
     * {@link #modPowCT(BigInteger, BigInteger, int)}.  This value is treated
     * as public.  Even moduli, exponents <= 0 and the pure-Java fallback use
     * the ordinary variable-time modPow.
     *
     * <p>What {@code BigInteger} itself reveals, before and after the
     * library: the exponent's {@code toByteArray()} has bitLength/8+1
     * bytes, and making it, like any {@code BigInteger} arithmetic on it,
     * takes time that follows that length; the result is a
     * {@code BigInteger}, whose length is its value's (a result with a zero
     * top byte is shorter).  Secrets held as fixed-length byte arrays avoid
     * both through {@link #modPowCT(byte[], byte[], byte[])}.  A
     * NativeBigInteger exponent keeps no cached byte form once used here:
     * the one it had is zeroed as soon as no call in flight is reading it,
     * and each later call gets a copy of its own, zeroed after it.
     *
     * @throws ArithmeticException as {@link BigInteger#modPow}
     */
    public BigInteger modPowCT(BigInteger exponent, BigInteger m) {
        return modPowCT(this, exponent, m);
    }

    /**
     * base^exponent mod modulus for any BigIntegers, in constant time where
     * {@link #modPowCT(BigInteger, BigInteger)} says.
     *
     * @throws NullPointerException if an argument is null
     * @throws ArithmeticException as {@link BigInteger#modPow}
     */
    public static BigInteger modPowCT(BigInteger base, BigInteger exponent, BigInteger modulus) {
        ArgumentChecks.notNull(base, exponent, modulus);
        if (LIBRARY.loaded && base instanceof NativeBigInteger) {
            FixedBase fixed = TransparentTables.lookup((NativeBigInteger) base, exponent, modulus, true);
            if (fixed != null)
                return fixed.modPowCT(exponent);
        }
        return NativePowers.modPowCT(base, exponent, modulus);
    }

    /**
     * this^exponent mod m as {@link #modPowCT(BigInteger, BigInteger)}, for
     * a caller who knows a bound on its secret exponent: the exponent is
     * processed over exactly exponentBits bits (a fixed-base table's path:
     * exponentBits rounded up to whole 64-bit limbs), so the work
     * follows exponentBits and the modulus' limb count alone and the
     * exponent's own length never shows (in the library: BigInteger's own
     * handling of it is as there).  The bound is checked before anything
     * else is done, natively or not: the pure-Java fallback throws the same
     * exceptions.
     *
     * @param exponent the exponent, 0 <= exponent < 2^exponentBits
     * @param m the modulus
     * @param exponentBits the bound on the exponent's bit length, from 1 to
     *        2^27 (134,217,728: the library's operand size limit, in bits)
     * @throws NullPointerException if exponent or m is null
     * @throws IllegalArgumentException if exponentBits < 1 or exponentBits >
     *         2^27 (with or without the library), or exponent is negative or
     *         2^exponentBits or more
     * @throws ArithmeticException as {@link BigInteger#modPow}
     */
    public BigInteger modPowCT(BigInteger exponent, BigInteger m, int exponentBits) {
        return modPowCT(this, exponent, m, exponentBits);
    }

    /**
     * base^exponent mod modulus for any BigIntegers, in constant time where
     * {@link #modPowCT(BigInteger, BigInteger, int)} says.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if exponentBits < 1 or exponentBits >
     *         2^27 (with or without the library), or exponent is negative or
     *         2^exponentBits or more
     * @throws ArithmeticException as {@link BigInteger#modPow}
     */
    public static BigInteger modPowCT(BigInteger base, BigInteger exponent, BigInteger modulus, int exponentBits) {
        ArgumentChecks.notNull(base, exponent, modulus);
        ArgumentChecks.bound(exponent, exponentBits);
        if (LIBRARY.loaded && base instanceof NativeBigInteger) {
            FixedBase fixed = TransparentTables.lookup((NativeBigInteger) base, exponent, modulus, true);
            if (fixed != null)
                return fixed.modPowCT(exponent, exponentBits);
        }
        return NativePowers.modPowCT(base, exponent, modulus, exponentBits);
    }

    /**
     * base^exponent mod modulus in constant time for secrets held as
     * fixed-length byte arrays, with the result as a fixed-length array:
     * the exponent's array length is the caller's fixed width, the bound.
     *
     * <p>All three arrays are unsigned big-endian numbers of any length
     * (leading zero bytes allowed).  The result is exactly
     * {@code modulus.length} bytes, zero-padded at the top.  Rules, as
     * GMP's {@code mpz_powm_sec}: the modulus must be odd (modulus 1 gives
     * 0), the exponent must not be 0; any base (reduced mod modulus).
     *
     * <p>What stays secret, when {@link #isNative()} and the loaded library
     * is this project's (version 5 with these natives): the exponent's
     * value, including how many of its leading bytes are zero.  The time
     * taken and the memory touched, in this library's code from the array
     * to the result, depend only on the lengths of the three arrays and on
     * the base and modulus (public).  The exponent is processed over its
     * array's width in bits (a 20-byte DSA nonce: 160 bits, under any
     * modulus; a fixed-base table's path rounds it up to 64-bit limbs), so
     * give it the length of its bound; the
     * result's length is the modulus'.  This is what {@link #modPowCT(BigInteger,
     * BigInteger, BigInteger)} cannot give: a {@code BigInteger} exponent
     * shows its own length ({@code toByteArray()} is bitLength/8+1 bytes,
     * and {@code BigInteger}'s own arithmetic follows its length), and so
     * does a {@code BigInteger} result (a Diffie-Hellman secret with a zero
     * top byte is one byte shorter).  The caller's own handling of the arrays
     * is the caller's.
     *
     * <p>Without the native library, or with an older one (I2P's own,
     * version 4, which has no such native), the same value is computed
     * with {@code BigInteger} (or that library's {@code modPowCT}) and
     * padded: correct, but <em>not constant time</em>.  The inputs are
     * never modified.
     *
     * @param base the base, unsigned big-endian
     * @param exponent the exponent, unsigned big-endian, not 0
     * @param modulus the modulus, unsigned big-endian, odd
     * @return base^exponent mod modulus as exactly modulus.length bytes
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if an array is empty
     * @throws ArithmeticException if modulus is 0 or even, or exponent is 0
     */
    public static byte[] modPowCT(byte[] base, byte[] exponent, byte[] modulus) {
        ArgumentChecks.fixedLength(base, exponent, modulus);
        return NativePowers.modPowCT(base, exponent, modulus);
    }

    /**
     * Whether modPowCT is constant time to the library's edge here: the
     * loaded library reads exponents at a public width itself and has the
     * fixed-length and bounded natives (this project's library; I2P's
     * version 4 has none of them).  False when no library is loaded.  For
     * the loader's status line.
     */
    static boolean constantTimeEdgeToEdge() {
        return NativePowers.EdgeToEdge.PRESENT;
    }

    // ---- fixed bases ----

    /**
     * A {@link FixedBase} for raising base to many exponents modulo modulus:
     * its table is built now, once, and each modPow after that costs a
     * fraction of a plain one.  The FixedBase and the native memory of its
     * tables belong to the caller, outside the bound on the tables modPow
     * makes by itself: {@link FixedBase#close} frees them (otherwise they
     * are freed some time after the FixedBase becomes unreachable).
     *
     * @throws NullPointerException if an argument is null
     * @throws ArithmeticException if modulus <= 0
     * @throws OutOfMemoryError if there is no memory for the table
     */
    public static FixedBase fixedBase(BigInteger base, BigInteger modulus) {
        return new FixedBase(base, modulus).prepare();
    }

    /** True if the loaded library computes fixed-base tables. */
    static boolean hasFixedBase() {
        return LIBRARY.fixedBase;
    }

    // ---- modInverse ----

    /**
     * this^-1 mod m, exactly as {@link BigInteger#modInverse}.
     *
     * @throws ArithmeticException if m <= 0 or this has no inverse mod m
     */
    @Override
    public BigInteger modInverse(BigInteger m) {
        return modInverse(this, m);
    }

    /**
     * value^-1 mod modulus for any BigIntegers, exactly as
     * {@code value.modInverse(modulus)}.
     *
     * @throws NullPointerException if an argument is null
     * @throws ArithmeticException if modulus <= 0 or value has no inverse
     */
    public static BigInteger modInverse(BigInteger value, BigInteger modulus) {
        if (value == null)
            throw new NullPointerException("value is null");
        if (modulus == null)
            throw new NullPointerException("modulus is null");
        return NativePowers.modInverse(value, modulus);
    }

    // ---- the Jacobi symbol ----

    /**
     * The Jacobi symbol (a/n): -1, 0 or 1, for any a and n odd and
     * positive; for a prime n, the Legendre symbol (1 for a non-zero square
     * mod n, -1 for a non-square, 0 for a multiple of n).  Natively where
     * the loaded library has it; otherwise (no library, or an older one
     * without it) in Java, with the same answers.  Variable time.
     *
     * @throws NullPointerException if a or n is null
     * @throws ArithmeticException if n <= 0 or n is even
     */
    public static int jacobi(BigInteger a, BigInteger n) {
        return Jacobi.of(a, n);
    }

    // ---- helpers ----

    /** A native result as a value, the array becoming its cached byte form. */
    static NativeBigInteger fromNative(byte[] result) {
        return new NativeBigInteger(result, true);
    }

    /** BigInteger's own modPow and modInverse, for the pure-Java path ({@link NativePowers}). */
    BigInteger superModPow(BigInteger exponent, BigInteger modulus) {
        return super.modPow(exponent, modulus);
    }

    BigInteger superModInverse(BigInteger modulus) {
        return super.modInverse(modulus);
    }

    // ---- status ----

    /**
     * JbigiLoader.load(), which never throws; and should the loader's own
     * classes fail to initialise (an Error), pure Java all the same: an
     * Error here would make this class unusable for the JVM's lifetime.
     */
    private static JbigiLoader.Result loadLibrary() {
        try {
            return JbigiLoader.load();
        } catch (Throwable e) {
            return JbigiLoader.Result.afterError(e);
        }
    }

    /** True if modPow, modPowCT and modInverse run natively. */
    public static boolean isNative() {
        return LIBRARY.loaded;
    }

    /**
     * One line saying how the library was loaded, or why not, and when it is
     * loaded, the engine it raises to powers with (e.g. "...; engine: gmp"),
     * and why an engine this CPU has is not used when its known-answer
     * self-test failed.  When an older jbigi was loaded (I2P's own), it says
     * that library's modPowCT is weaker: it has neither the fixed-length
     * nor the bounded form, whose fallbacks are not constant time.
     */
    public static String loadStatus() {
        if (!LIBRARY.loaded)
            return LIBRARY.status;
        String status = LIBRARY.status + "; engine: " + LIBRARY.engine + Engine.features(LIBRARY.engine) + Engine.note();
        if (!constantTimeEdgeToEdge())
            status += "; modPowCT is weaker with this older jbigi: its fixed-length and bounded forms are not constant time";
        return status;
    }

    /**
     * The engine modPow and modPowCT use for 2048-bit odd moduli: "avx512-ifma"
     * (on CPUs with AVX-512 IFMA), "adx" (the MULX/ADX engine, on other x86-64
     * CPUs with BMI2 and ADX) or "gmp"; -Djbigi.engine forces one.  null when
     * the library is not loaded.
     */
    public static String engine() {
        return LIBRARY.engine;
    }

    /**
     * The row of the variant table the loaded library was built for (e.g.
     * "zen2"; its CPUID check accepted this CPU); without a library, the
     * first row the loader would try here, or "unrecognized".
     */
    public static String cpuType() {
        return LIBRARY.cpu.type();
    }

    /** The CPU's model name as the OS reports it, or "unrecognized". */
    public static String cpuModel() {
        return LIBRARY.cpu.model();
    }

    /** The loaded library's interface version (5 for this one), or 0 if none is loaded. */
    public static int getJbigiVersion() {
        return LIBRARY.jbigiVersion;
    }

    /** The version of GMP the loaded library runs on, e.g. "6.2.1", or null if none is loaded. */
    public static String getLibGMPVersion() {
        return LIBRARY.gmpVersion;
    }

    /** The jar resource the library was loaded from, or null if it was not loaded from the jar. */
    public static String getLoadedResourceName() {
        return LIBRARY.resourceName;
    }

    /**
     * The speed test: checks native results against BigInteger and times
     * both.  {@code -n} skips the Java side.  Exits with status 1 on any
     * mismatch, or with {@code -n} when the library is not loaded.
     */
    public static void main(String[] args) {
        System.exit(SpeedTest.run(args));
    }
}
