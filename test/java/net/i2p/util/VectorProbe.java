package net.i2p.util;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Run in a fresh JVM by VariantsTest (and the emulated-CPU check): prints
 * what LoadProbe prints, then "vectors=CHECKED FAILED" over the known-answer
 * vectors in the file given as first argument (at most as many as the
 * second argument says, if any), or "vectors=missing".
 */
public final class VectorProbe {
    public static void main(String[] args) throws Exception {
        LoadProbe.main(new String[0]);
        Path file = Paths.get(args.length > 0 ? args[0] : "test/vectors/modpow-public.txt");
        if (!Files.isReadable(file)) {
            System.out.println("vectors=missing");
            return;
        }
        int limit = args.length > 1 ? Integer.parseInt(args[1]) : Integer.MAX_VALUE;
        int checked = 0;
        int failed = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isEmpty() || line.startsWith("#"))
                continue;
            if (checked == limit)
                break;
            String[] f = line.trim().split("\\s+");
            NativeBigInteger base = new NativeBigInteger(f[1], 16);
            BigInteger exponent = f[2].equals("-") ? null : new BigInteger(f[2], 16);
            BigInteger modulus = new BigInteger(f[3], 16);
            Outcome got;
            if (f[0].equals("modpow"))
                got = Outcome.of(() -> base.modPow(exponent, modulus));
            else if (f[0].equals("modpowct"))
                got = Outcome.of(() -> base.modPowCT(exponent, modulus));
            else
                got = Outcome.of(() -> base.modInverse(modulus));
            boolean ok = f[4].equals("ArithmeticException")
                    ? got.thrown == ArithmeticException.class
                    : got.thrown == null && got.value.equals(new BigInteger(f[4], 16));
            checked++;
            if (!ok)
                failed++;
        }
        System.out.println("vectors=" + checked + " " + failed);
    }
}
