package net.i2p.util;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Warms up and samples a group of cases that are compared with each other.
 *
 * <p>The cases of a group take turns: one sample of each, then the next
 * round, starting each round one case further on.  Drift on the machine (a
 * build in the background, frequency changes) then lands on every case of
 * the group alike instead of on whichever ran last, and no case is always the
 * one that runs right after another.
 */
final class BenchSampler {
    /** Runs n operations on inputs first, first+1, ... (wrapping) and returns the nanoseconds taken. */
    interface Timer {
        long run(long first, long n) throws IOException;
    }

    /** One implementation of one operation at one size, and what was measured. */
    static final class Case {
        final String operation;
        final int bits;
        final String implementation;
        final Timer timer;
        /** The cases this one's ratios are taken against; set once the group is built. */
        Case javaReference;
        Case rawReference;
        /** The plain path this case replaces (FixedBase: NativeBigInteger.modPow; wiping: GMP's own memory functions). */
        Case baselineReference;
        /** For a table build: the bytes of the table it built. */
        long tableBytes;

        /** Operations a sample is planned with; one that came out short was topped up. */
        long opsPerSample;
        double[] nanosPerOp = new double[0];
        /** The measured time of the shortest timed sample. */
        long shortestSampleNanos = Long.MAX_VALUE;
        int warmupRounds;
        boolean settled;
        /** Operations run so far: the next sample starts there, so the pool is cycled across samples. */
        private long cursor;

        Case(String operation, int bits, String implementation, Timer timer) {
            this.operation = operation;
            this.bits = bits;
            this.implementation = implementation;
            this.timer = timer;
        }

        /**
         * Time per operation over at least n operations and at least
         * minNanos: a run that comes out shorter is topped up with as many
         * more operations as should fill the rest, so a sample is never
         * shorter than asked for.
         */
        private double run(long n, long minNanos) throws IOException {
            long nanos = 0;
            long ops = 0;
            while (true) {
                nanos += timer.run(cursor, n);
                cursor += n;
                ops += n;
                if (nanos >= minNanos) {
                    if (minNanos > 0)
                        shortestSampleNanos = Math.min(shortestSampleNanos, nanos);
                    return (double) nanos / ops;
                }
                double perOp = (double) Math.max(1, nanos) / ops;
                n = Math.max(1, (long) Math.ceil((minNanos - nanos) * 1.1 / perOp));
            }
        }

        double median() {
            return BenchSampler.median(nanosPerOp);
        }

        double min() {
            return Arrays.stream(nanosPerOp).min().orElse(Double.NaN);
        }

        double max() {
            return Arrays.stream(nanosPerOp).max().orElse(Double.NaN);
        }
    }

    /** Warm-up rounds compared: the median of the last WINDOW against that of the WINDOW before. */
    private static final int WINDOW = 3;
    private static final double SETTLED_CHANGE = 0.02;
    private static final int MAX_WARMUP_ROUNDS = 60;

    private final int samples;
    private final long sampleNanos;
    private final long warmupSampleNanos;
    private final long warmupCapNanos;

    BenchSampler(int samples, long sampleNanos, long warmupSampleNanos, long warmupCapNanos) {
        this.samples = samples;
        this.sampleNanos = sampleNanos;
        this.warmupSampleNanos = warmupSampleNanos;
        this.warmupCapNanos = warmupCapNanos;
    }

    /** Warms the group up, then takes the timed samples of every case in it. */
    void measure(List<Case> group) throws IOException {
        double[] fastest = warmUp(group);
        for (int i = 0; i < group.size(); i++) {
            // 10% over the fastest warm-up time, so that a sample rarely
            // needs topping up to reach sampleNanos.
            long n = (long) Math.ceil(sampleNanos * 1.1 / fastest[i]);
            Case c = group.get(i);
            c.opsPerSample = Math.max(1, n);
            c.nanosPerOp = new double[samples];
        }
        for (int s = 0; s < samples; s++) {
            for (int k = 0; k < group.size(); k++) {
                Case c = group.get((s + k) % group.size());
                c.nanosPerOp[s] = c.run(c.opsPerSample, sampleNanos);
            }
        }
    }

    /**
     * Runs rounds of short samples, interleaved as the timed ones are, until
     * for every case the median of the last WINDOW rounds is within 2% of
     * the median of the WINDOW rounds before (the JIT has settled), or the
     * time cap is reached.  Returns each case's fastest time per operation
     * in the last window, to size the timed samples.
     */
    private double[] warmUp(List<Case> group) throws IOException {
        int size = group.size();
        List<List<Double>> history = new ArrayList<>();
        long[] n = new long[size];
        for (int i = 0; i < size; i++) {
            history.add(new ArrayList<>());
            n[i] = 1;
        }
        long start = System.nanoTime();
        int rounds = 0;
        boolean settled = false;
        while (!settled && rounds < MAX_WARMUP_ROUNDS && System.nanoTime() - start < warmupCapNanos) {
            for (int k = 0; k < size; k++) {
                int i = (rounds + k) % size;
                double perOp = group.get(i).run(n[i], 0);
                // A round much shorter than asked for is still ramping up the
                // operation count (the first runs n = 1): too noisy to judge by.
                if (perOp * n[i] >= warmupSampleNanos / 2)
                    history.get(i).add(perOp);
                n[i] = Math.max(1, Math.round(warmupSampleNanos / perOp));
            }
            rounds++;
            settled = true;
            for (List<Double> h : history)
                settled &= hasSettled(h);
        }
        double[] fastest = new double[size];
        for (int i = 0; i < size; i++) {
            Case c = group.get(i);
            c.warmupRounds = rounds;
            c.settled = settled;
            List<Double> h = history.get(i);
            // If the cap came before any full-length round, fall back to the
            // last short one, which is what n was computed from.
            fastest[i] = h.isEmpty() ? warmupSampleNanos / (double) n[i]
                    : h.subList(Math.max(0, h.size() - WINDOW), h.size()).stream()
                            .mapToDouble(Double::doubleValue).min().getAsDouble();
        }
        return fastest;
    }

    private static boolean hasSettled(List<Double> h) {
        if (h.size() < 2 * WINDOW)
            return false;
        double last = median(window(h, h.size() - WINDOW));
        double before = median(window(h, h.size() - 2 * WINDOW));
        return Math.abs(last - before) <= SETTLED_CHANGE * before;
    }

    private static double[] window(List<Double> h, int from) {
        return h.subList(from, from + WINDOW).stream().mapToDouble(Double::doubleValue).toArray();
    }

    static double median(double[] values) {
        if (values.length == 0)
            return Double.NaN;
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
