package net.i2p.util;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

import net.i2p.util.BenchSampler.Case;

/** The measured cases as a table on stdout, as CSV, and as the data of the speed-up chart. */
final class BenchReport {
    /** One line of the table: a NativeBigInteger operation at one size and what it is compared with. */
    static final class Row {
        final String operation;
        final int bits;
        final Case java;
        final Case jbigi;
        /** Null when the raw C program was not run. */
        final Case raw;

        Row(String operation, int bits, Case java, Case jbigi, Case raw) {
            this.operation = operation;
            this.bits = bits;
            this.java = java;
            this.jbigi = jbigi;
            this.raw = raw;
        }
    }

    private BenchReport() {
    }

    static void printTable(PrintStream out, List<Row> rows, int samples, long sampleMillis) {
        String timed = "%10s %-14s";
        out.printf("%-15s %5s  %-25s  %-34s  %-25s  %7s %7s%n",
                "", "", "BigInteger", "NativeBigInteger", "raw GMP from C", "native/", "native/");
        out.printf("%-15s %5s  %s  %s %8s  %s  %7s %7s%n", "operation", "bits",
                String.format(timed, "us/op", "spread"), String.format(timed, "us/op", "spread"), "ops/s",
                String.format(timed, "us/op", "spread"), "Java", "raw C");
        boolean capped = false;
        for (Row r : rows) {
            boolean settled = r.java.settled && r.jbigi.settled && (r.raw == null || r.raw.settled);
            capped |= !settled;
            out.printf(Locale.ROOT, "%-15s %5d  %s  %s %8.0f  %s  %7.3f %7s%s%n",
                    r.operation, r.bits, timing(r.java), timing(r.jbigi), 1e9 / r.jbigi.median(),
                    r.raw == null ? String.format("%-25s", "-") : timing(r.raw),
                    r.jbigi.median() / r.java.median(),
                    r.raw == null ? "-" : String.format(Locale.ROOT, "%.3f", r.jbigi.median() / r.raw.median()),
                    settled ? "" : " *");
        }
        out.println();
        out.printf("us/op: median of %d samples of at least %d ms each, the cases of a line interleaved;%n",
                samples, sampleMillis);
        out.println("spread: the fastest and slowest sample against the median.  Ratios are of medians;");
        out.println("below 1, NativeBigInteger takes less time.  modPowCT is compared with BigInteger.modPow");
        out.println("(Java has no constant-time modPow) and with mpz_powm_sec; raw GMP is mpz_powm, mpz_invert.");
        out.println("modPow, modPowCT: a new base on every call.  modPow-samebase and i2p-*: one NativeBigInteger");
        out.println("base used again and again (I2P's generator 2 and group 14 prime for i2p-*), for which");
        out.println("NativeBigInteger may keep precomputed work; their raw C column is still plain mpz_powm.");
        if (capped)
            out.println("*: the warm-up reached its time cap before the times settled (within 2%).");
    }

    /** "median  -low/+high%" in a fixed width. */
    private static String timing(Case c) {
        double median = c.median();
        String spread = String.format(Locale.ROOT, "-%.1f/+%.1f%%",
                100 * (median - c.min()) / median, 100 * (c.max() - median) / median);
        return String.format(Locale.ROOT, "%10s %-14s", micros(median), spread);
    }

    private static String micros(double nanos) {
        double us = nanos / 1e3;
        return String.format(Locale.ROOT, us < 100 ? "%.3f" : us < 10000 ? "%.1f" : "%.0f", us);
    }

    /** One line per operation, size and implementation; every case once. */
    static void writeCsv(Path file, List<Case> cases) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            out.println("operation,bits,implementation,median_us,min_us,max_us,ops_per_s,ratio_vs_java,ratio_vs_raw_c,"
                    + "samples,ops_per_sample,shortest_sample_ms,warmup_rounds,warmup_settled");
            for (Case c : cases) {
                out.printf(Locale.ROOT, "%s,%d,%s,%.4f,%.4f,%.4f,%.2f,%s,%s,%d,%d,%.1f,%d,%b%n",
                        c.operation, c.bits, c.implementation, c.median() / 1e3, c.min() / 1e3, c.max() / 1e3,
                        1e9 / c.median(), ratio(c, c.javaReference), ratio(c, c.rawReference),
                        c.nanosPerOp.length, c.opsPerSample, c.shortestSampleNanos / 1e6, c.warmupRounds, c.settled);
            }
            if (out.checkError())
                throw new IOException("could not write " + file);
        }
    }

    private static String ratio(Case c, Case reference) {
        return reference == null ? "" : String.format(Locale.ROOT, "%.4f", c.median() / reference.median());
    }

    /**
     * The chart's data for speedup.gp: per size, the speed-up over BigInteger
     * (BigInteger time / other time) of each line, then its range from the
     * sample extremes.  "?" marks a value not measured.
     */
    static void writeChartData(Path file, List<Row> rows, String title) throws IOException {
        String[] lines = {"modPow", "modPowCT", "modInverse", "mpz_powm", "modPow-samebase"};
        TreeMap<Integer, String[]> bySize = new TreeMap<>();
        for (Row r : rows) {
            String[] cells = bySize.computeIfAbsent(r.bits, b -> new String[] {"? ? ?", "? ? ?", "? ? ?", "? ? ?", "? ? ?"});
            switch (r.operation) {
                case "modPow":
                    cells[0] = speedup(r.java, r.jbigi);
                    if (r.raw != null)
                        cells[3] = speedup(r.java, r.raw);
                    break;
                case "modPowCT":
                    cells[1] = speedup(r.java, r.jbigi);
                    break;
                case "modInverse":
                    cells[2] = speedup(r.java, r.jbigi);
                    break;
                case "modPow-samebase":
                    cells[4] = speedup(r.java, r.jbigi);
                    break;
                default:
                    break; // the I2P workload is a single size: in the table only
            }
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            out.println("# title: " + title);
            out.println("# bits " + String.join(" ", lines) + " (each: speed-up low high)");
            bySize.forEach((bits, cells) -> out.println(bits + " " + String.join(" ", cells)));
            if (out.checkError())
                throw new IOException("could not write " + file);
        }
    }

    private static String speedup(Case java, Case other) {
        return String.format(Locale.ROOT, "%.4f %.4f %.4f", java.median() / other.median(),
                java.min() / other.max(), java.max() / other.min());
    }
}
