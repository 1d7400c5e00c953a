package net.i2p.util;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The benchmark's inputs: fixed seeds, so every run (and the raw C program)
 * works on the same numbers.
 */
final class BenchInputs {
    /** Seeds are this plus the operand size, so sizes can be chosen freely without changing each other's inputs. */
    private static final long POW_SEED = 0x6a62696770L;
    private static final long PRIME_SEED = 0x6a62696769L;
    private static final long GROUP14_SEED = 0x6a6269670eL;

    /** A pool of inputs for one operation and size: rows of (base, exponent, modulus) or (value, modulus). */
    static final class Set {
        final String name;
        final boolean pow;
        final int bits;
        final BigInteger[][] rows;
        /** BigInteger's result for each row, once computed. */
        BigInteger[] expected;

        Set(String name, boolean pow, int bits, BigInteger[][] rows) {
            this.name = name;
            this.pow = pow;
            this.bits = bits;
            this.rows = rows;
        }

        BigInteger[] column(int i) {
            BigInteger[] c = new BigInteger[rows.length];
            for (int r = 0; r < rows.length; r++)
                c[r] = rows[r][i];
            return c;
        }

        /**
         * The column as NativeBigIntegers, whose byte form is computed once
         * and then reused.  Equal values share one instance, as I2P's
         * generator and prime are single constants.
         */
        NativeBigInteger[] nativeColumn(int i) {
            Map<BigInteger, NativeBigInteger> made = new HashMap<>();
            NativeBigInteger[] c = new NativeBigInteger[rows.length];
            for (int r = 0; r < rows.length; r++)
                c[r] = made.computeIfAbsent(rows[r][i], NativeBigInteger::new);
            return c;
        }
    }

    private BenchInputs() {
    }

    /** Odd moduli with the top bit set, exponents of the full size, bases in [2, modulus). */
    static Set randomPow(int bits, int count) {
        Random random = new Random(POW_SEED + bits);
        BigInteger[][] rows = new BigInteger[count][];
        for (int r = 0; r < count; r++) {
            BigInteger modulus = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
            BigInteger exponent = new BigInteger(bits, random).setBit(bits - 1);
            rows[r] = new BigInteger[] {below(modulus, random), exponent, modulus};
        }
        return new Set("modpow-" + bits, true, bits, rows);
    }

    /**
     * A fixed base: the base and modulus of the first row of a randomPow
     * set raised to the exponents of all its rows, so the fixed-base cases
     * run on inputs of the very kind (and exponents) of the plain cases they
     * are compared with.
     */
    static Set fixedBase(Set pow) {
        BigInteger[][] rows = new BigInteger[pow.rows.length][];
        for (int r = 0; r < rows.length; r++)
            rows[r] = new BigInteger[] {pow.rows[0][0], pow.rows[r][1], pow.rows[0][2]};
        return new Set("fixedbase-" + pow.bits, true, pow.bits, rows);
    }

    /**
     * Short exponents: one odd modulus of bits bits and one base (so the
     * fixed-base cases run on the very inputs of the plain ones), random
     * exponents below 2^ebits (not 0), as secrets drawn below a bound are.
     */
    static Set randomShort(int bits, int ebits, int count) {
        Random random = new Random(POW_SEED + 31L * bits + ebits);
        BigInteger modulus = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
        BigInteger base = below(modulus, random);
        BigInteger[][] rows = new BigInteger[count][];
        for (int r = 0; r < count; r++) {
            BigInteger exponent;
            do
                exponent = new BigInteger(ebits, random);
            while (exponent.signum() == 0);
            rows[r] = new BigInteger[] {base, exponent, modulus};
        }
        return new Set("short-" + bits + "-" + ebits, true, bits, rows);
    }

    /** I2P's Diffie-Hellman and ElGamal: 2^x mod the RFC 3526 group 14 prime, 2048-bit x. */
    static Set group14(int count) {
        Random random = new Random(GROUP14_SEED);
        BigInteger[][] rows = new BigInteger[count][];
        for (int r = 0; r < count; r++) {
            BigInteger exponent = new BigInteger(2048, random).setBit(2047);
            rows[r] = new BigInteger[] {SpeedTest.GROUP14_GENERATOR, exponent, SpeedTest.GROUP14_PRIME};
        }
        return new Set("i2p-group14", true, 2048, rows);
    }

    /** Values in [2, p) and one prime p of the size: every value is invertible. */
    static Set primeInverse(int bits, int count, Path primeCache) throws IOException {
        BigInteger prime = prime(bits, PRIME_SEED + bits, primeCache);
        Random random = new Random(PRIME_SEED + bits);
        BigInteger[][] rows = new BigInteger[count][];
        for (int r = 0; r < count; r++)
            rows[r] = new BigInteger[] {below(prime, random), prime};
        return new Set("modinv-" + bits, false, bits, rows);
    }

    /** A random number in [2, limit) with as many bits as limit, by rejection (no bias). */
    private static BigInteger below(BigInteger limit, Random random) {
        BigInteger two = BigInteger.valueOf(2);
        while (true) {
            BigInteger x = new BigInteger(limit.bitLength(), random);
            if (x.compareTo(limit) < 0 && x.compareTo(two) >= 0)
                return x;
        }
    }

    /**
     * BigInteger.probablePrime with a fixed seed.  An 8192-bit one takes
     * BigInteger half a minute, so each is kept in primeCache and taken from
     * there by later runs, after a Fermat test against a damaged file.
     */
    private static BigInteger prime(int bits, long seed, Path primeCache) throws IOException {
        String key = bits + " " + seed + " ";
        if (Files.exists(primeCache)) {
            for (String line : Files.readAllLines(primeCache, StandardCharsets.US_ASCII)) {
                if (!line.startsWith(key))
                    continue;
                BigInteger p = new BigInteger(line.substring(key.length()).trim(), 16);
                if (p.bitLength() == bits && BigInteger.valueOf(2).modPow(p.subtract(BigInteger.ONE), p).equals(BigInteger.ONE))
                    return p;
            }
        }
        System.err.println("Generating a " + bits + "-bit prime (kept in " + primeCache + " for later runs)...");
        BigInteger p = BigInteger.probablePrime(bits, new Random(seed));
        Files.write(primeCache, (key + p.toString(16) + "\n").getBytes(StandardCharsets.US_ASCII),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return p;
    }

    /** Writes the sets in the format rawgmp.c reads (see the comment at its top). */
    static void write(Path file, List<Set> sets) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            out.println("# jbigi benchmark inputs, hex: pow SET BASE EXPONENT MODULUS | inv SET VALUE MODULUS");
            for (Set set : sets) {
                for (BigInteger[] row : set.rows) {
                    StringBuilder line = new StringBuilder(set.pow ? "pow " : "inv ").append(set.name);
                    for (BigInteger x : row)
                        line.append(' ').append(x.toString(16));
                    out.println(line);
                }
            }
            // PrintWriter keeps write errors to itself until asked.
            if (out.checkError())
                throw new IOException("could not write " + file);
        }
    }
}
