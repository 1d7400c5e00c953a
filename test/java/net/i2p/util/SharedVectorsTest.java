package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
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
 * Every line of the known-answer vectors in test/vectors/modpow-public.txt,
 * computed by an independent implementation, through the public API
 * (instance and static forms).  The file is the repository's own copy;
 * -Djbigi.vectors=FILE names another.  A missing file fails the test: a
 * check that silently did not run must not look like a pass.
 */
class SharedVectorsTest {
    static final String IN_REPOSITORY = "test/vectors/modpow-public.txt";

    /**
     * -Djbigi.vectors if set; else the repository's copy, looked up from the
     * working directory and then upwards from the test classes (which live
     * under the repository's build/ directory).
     */
    static Path vectors() {
        String property = System.getProperty("jbigi.vectors");
        if (property != null)
            return Paths.get(property);
        Path here = Paths.get(IN_REPOSITORY);
        if (Files.exists(here))
            return here;
        for (File dir = new File(Subprocess.testClasses()).getAbsoluteFile(); dir != null; dir = dir.getParentFile()) {
            Path candidate = dir.toPath().resolve(IN_REPOSITORY);
            if (Files.exists(candidate))
                return candidate;
        }
        return here;
    }

    @Test
    void everyVectorMatches() throws IOException {
        Path vectors = vectors();
        assertTrue(Files.isReadable(vectors), "no known-answer vectors at " + vectors.toAbsolutePath()
                + ": the repository keeps them in " + IN_REPOSITORY + " (-Djbigi.vectors=FILE names another file)");
        List<String> failures = new ArrayList<String>();
        int checked = 0;
        for (String line : Files.readAllLines(vectors, StandardCharsets.UTF_8)) {
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
        System.out.println("shared vectors: " + checked + " checks from " + vectors);
        assertTrue(checked > 1000, "suspiciously few vectors in " + vectors);
        assertTrue(failures.isEmpty(), "vector mismatches:\n" + String.join("\n", failures));
    }
}
