package net.i2p.util;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * This CPU as the library's own check sees it: the tests ask build/cpu-probe
 * (src/cpu/cpu_probe.c over src/cpu/cpu_check.c and src/cpu/cpu_facts.c, the rule JNI_OnLoad and build.sh
 * use), never /proc/cpuinfo, which a hypervisor can contradict.
 */
final class HostCpu {
    private static final String PROBE = System.getProperty("jbigi.test.cpuProbe", "build/cpu-probe");
    private static final String TABLE = "src/cpu/variants.tsv";

    private HostCpu() {
    }

    /** The features CPUID reports, named as the variant table names them. */
    static Set<String> features() throws IOException, InterruptedException {
        Result r = run(PROBE);
        if (r.exitCode != 0)
            throw new AssertionError(PROBE + " exited " + r.exitCode + ": " + r.output);
        String line = r.output.trim();
        return line.isEmpty() ? Collections.<String>emptySet() : new HashSet<String>(Arrays.asList(line.split("\\s+")));
    }

    /** Whether this CPU runs the table's row cpu (its architecture, every feature). */
    static boolean runs(String cpu) throws IOException, InterruptedException {
        Result r = run(PROBE, "--runs", TABLE, cpu);
        if (r.exitCode != 0 && r.exitCode != 1)
            throw new AssertionError(PROBE + " --runs " + cpu + " exited " + r.exitCode + ": " + r.output);
        return r.exitCode == 0;
    }

    /** The row build.sh and the loader choose here. */
    static String variant() throws IOException, InterruptedException {
        Result r = run(PROBE, "--variant", TABLE);
        if (r.exitCode != 0)
            throw new AssertionError(PROBE + " --variant exited " + r.exitCode + ": " + r.output);
        return r.output.trim();
    }

    private static final class Result {
        final int exitCode;
        final String output;

        Result(int exitCode, String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }

    private static Result run(String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<String>(Arrays.asList(command));
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) > 0; )
                out.write(buffer, 0, n);
        }
        return new Result(p.waitFor(), new String(out.toByteArray(), StandardCharsets.UTF_8));
    }
}
