package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every line of the known-answer vectors in ../shared/vectors, computed by an
 * independent implementation, through the public API (instance and static
 * forms).  Skipped, saying why, when the file is not there.
 */
class SharedVectorsTest {
    private static final Path VECTORS = Paths.get(
            System.getProperty("jbigi.vectors", "../shared/vectors/modpow-public.txt"));

    @Test
    void everyVectorMatches() throws IOException {
        assumeTrue(Files.isReadable(VECTORS), "no known-answer vectors at " + VECTORS.toAbsolutePath()
                + " (set -Djbigi.vectors=FILE): skipped");
        List<String> failures = new ArrayList<String>();
        int checked = 0;
        for (String line : Files.readAllLines(VECTORS, StandardCharsets.UTF_8)) {
            if (line.isEmpty() || line.startsWith("#"))
                continue;
            String[] f = line.trim().split("\\s+");
            assertEquals(5, f.length, "malformed vector line: " + line);
            NativeBigInteger base = new NativeBigInteger(f[1], 16);
            BigInteger exponent = f[2].equals("-") ? null : new BigInteger(f[2], 16);
            BigInteger modulus = new BigInteger(f[3], 16);
            String want = f[4];
            List<Outcome> outcomes = new ArrayList<Outcome>();
            if (f[0].equals("modpow")) {
                outcomes.add(Outcome.of(() -> base.modPow(exponent, modulus)));
                outcomes.add(Outcome.of(() -> NativeBigInteger.modPow(new BigInteger(f[1], 16), exponent, modulus)));
            } else if (f[0].equals("modpowct")) {
                outcomes.add(Outcome.of(() -> base.modPowCT(exponent, modulus)));
                outcomes.add(Outcome.of(() -> NativeBigInteger.modPowCT(new BigInteger(f[1], 16), exponent, modulus)));
            } else if (f[0].equals("modinv")) {
                outcomes.add(Outcome.of(() -> base.modInverse(modulus)));
                outcomes.add(Outcome.of(() -> NativeBigInteger.modInverse(new BigInteger(f[1], 16), modulus)));
            } else {
                throw new AssertionError("unknown operation in vector line: " + line);
            }
            for (Outcome got : outcomes) {
                checked++;
                boolean ok = want.equals("ArithmeticException")
                        ? got.thrown == ArithmeticException.class
                        : got.thrown == null && got.value.equals(new BigInteger(want, 16));
                if (!ok && failures.size() < 20)
                    failures.add(line + "  ->  " + got);
            }
        }
        System.out.println("shared vectors: " + checked + " checks from " + VECTORS);
        assertTrue(checked > 1000, "suspiciously few vectors in " + VECTORS);
        assertTrue(failures.isEmpty(), "vector mismatches:\n" + String.join("\n", failures));
    }
}
