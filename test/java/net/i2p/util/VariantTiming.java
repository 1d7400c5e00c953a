package net.i2p.util;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;

/**
 * A measurement, not a test: times nativeModPow of the library this JVM
 * loaded (choose one with -Djbigi.variant=CPU) at a few sizes, random odd
 * moduli with the top bit set and full-length exponents, and prints
 * "variant bits microseconds" per size: the median of 7 samples of at least
 * 200 ms each after a warm-up.  test/emulated/time-variants.sh runs it for
 * every variant of the dist jar in turn, interleaved.
 */
public final class VariantTiming {
    public static void main(String[] args) {
        if (!NativeBigInteger.isNative()) {
            System.out.println("not native: " + NativeBigInteger.loadStatus());
            System.exit(1);
        }
        String variant = String.valueOf(NativeBigInteger.getLoadedResourceName());
        int[] sizes = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray()
                : new int[] {256, 1024, 2048, 4096};
        Random random = new Random(1);
        for (int bits : sizes) {
            byte[][] b = new byte[16][], e = new byte[16][], m = new byte[16][];
            for (int i = 0; i < 16; i++) {
                BigInteger mod = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
                m[i] = mod.toByteArray();
                e[i] = new BigInteger(bits, random).setBit(bits - 1).toByteArray();
                b[i] = new BigInteger(bits - 1, random).toByteArray();
            }
            double[] samples = new double[7];
            long sink = 0;
            for (int s = -2; s < samples.length; s++) {
                long start = System.nanoTime();
                long calls = 0;
                do {
                    for (int i = 0; i < 16; i++)
                        sink += NativeBigInteger.nativeModPow(b[i], e[i], m[i])[0];
                    calls += 16;
                } while (System.nanoTime() - start < 200_000_000L);
                if (s >= 0)
                    samples[s] = (System.nanoTime() - start) / 1000.0 / calls;
            }
            Arrays.sort(samples);
            System.out.printf("%s %d %.3f%s%n", variant.replaceAll("libjbigi-linux-|_64\\.so", ""), bits,
                    samples[samples.length / 2], sink == 42 ? " " : "");
        }
    }
}
