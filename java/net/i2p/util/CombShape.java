package net.i2p.util;

import java.math.BigInteger;

/**
 * The shape of a fixed-base table (a Lim-Lee comb of rows x blocks) for a
 * modulus size, and the one rule for when a table serves a call at all.
 *
 * <p>More rows: fewer products per exponentiation, a table twice the size.
 * More blocks: fewer squarings, a table larger by a block.  The constant-time
 * path also reads all 2^rows entries of a block per digit, so there each row
 * more doubles that read.  Which shape wins depends on the table's format:
 * the IFMA engine's numbers are wider and its products cheap beside its
 * reads; GMP's format is multiplied by the MULX/ADX engine or GMP's
 * functions, where a product costs more than a read.  Each shape below is
 * the one that took the least time in its format's runs (the pointer at
 * each); above 4096 bits the smaller shapes keep a table within 1 MiB.
 */
final class CombShape {
    private CombShape() {
    }

    /**
     * Whether tables can be made for modulus at all: the library has them,
     * and the modulus is odd, above 1 and at most
     * {@link FixedBase#MAX_TABLE_MODULUS_BITS}.
     */
    static boolean tablesPossible(BigInteger modulus) {
        return NativeBigInteger.hasFixedBase() && modulus.signum() > 0 && modulus.testBit(0)
                && modulus.bitLength() > 1 && modulus.bitLength() <= FixedBase.MAX_TABLE_MODULUS_BITS;
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

    /**
     * Variable time: the IFMA format 7 x 4 (the table size of GMP's 8 x 2,
     * and less time); GMP's format 8 x 4 from 1024 to 4096 bits (half the
     * squarings of 8 x 2 for twice the table), else 8 x 2 and smaller.
     * doc/measurements.md: "Comb shapes for modPow (2026-11-30 and 2026-12-03)"
     */
    static int variableTimeRows(int bits) {
        return ifmaTables(bits) ? 7 : bits >= 1024 ? 8 : bits >= 512 ? 7 : bits >= 256 ? 6 : 4;
    }

    static int variableTimeBlocks(int bits) {
        return ifmaTables(bits) ? 4 : bits >= 1024 && largerTables(bits) ? 4 : 2;
    }

    /**
     * Constant time: GMP's format 6 x 6 from 2048 to 4096 bits and 5 x 5
     * from 1024 (6 x 6 lost there on GMP's functions); the IFMA format 5
     * rows (more cost it time: its reads cost more than its products) and 8
     * blocks, so that a short exponent runs fewer squarings (a block spans
     * rows x ceil(bits / (rows x blocks)) bits: 260 at 2048).
     * doc/measurements.md: "Comb shapes for modPowCT (2026-12-03 and 2026-12-04)"
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

    /** Up to 4096 bits, where the larger shapes were tried; above, the smaller tables. */
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
}
