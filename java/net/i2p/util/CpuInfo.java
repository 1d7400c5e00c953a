package net.i2p.util;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the bundled-library loader needs to know about this CPU: which of
 * I2P's CPU names ({@code zen2}, {@code skylake}, ... {@code none}) it can
 * run, best first.  Read from /proc/cpuinfo; elsewhere only "none" is safe.
 */
final class CpuInfo {
    private final String model;
    private final List<String> types;

    private CpuInfo(String model, List<String> types) {
        this.model = model;
        this.types = Collections.unmodifiableList(types);
    }

    /** The model name, or "unrecognized". */
    String model() {
        return model;
    }

    /** The best CPU type for a library, or "unrecognized". */
    String type() {
        return types.isEmpty() ? "unrecognized" : types.get(0);
    }

    /** CPU types whose libraries this CPU can run, best first; ends with "none" on x86-64. */
    List<String> compatibleTypes() {
        return types;
    }

    static CpuInfo detect() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.US);
        boolean x86_64 = arch.equals("amd64") || arch.equals("x86_64");
        String vendor = "";
        String model = "unrecognized";
        Set<String> flags = new HashSet<String>();
        BufferedReader in = null;
        try {
            in = new BufferedReader(new InputStreamReader(
                    new FileInputStream("/proc/cpuinfo"), StandardCharsets.ISO_8859_1));
            String line;
            // The first processor's block says it all.
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                int colon = line.indexOf(':');
                if (colon < 0)
                    continue;
                String key = line.substring(0, colon).trim();
                String value = line.substring(colon + 1).trim();
                if (key.equals("vendor_id"))
                    vendor = value;
                else if (key.equals("model name"))
                    model = value;
                else if (key.equals("flags"))
                    flags.addAll(Arrays.asList(value.split("\\s+")));
            }
        } catch (IOException e) {
            // Not Linux, or no procfs: nothing known beyond the architecture.
        } finally {
            if (in != null) {
                try {
                    in.close();
                } catch (IOException ignored) {
                }
            }
        }
        List<String> types = new ArrayList<String>();
        if (x86_64) {
            types.addAll(x86Types(vendor, flags));
            types.add("none");
        } else if (arch.equals("aarch64")) {
            types.add("aarch64");
        }
        return new CpuInfo(model, types);
    }

    /**
     * GMP's x86-64 targets this CPU can run, newest first, named as I2P names
     * its jbigi builds.  The instruction sets decide: a library built for a
     * target uses that target's instructions.
     */
    static List<String> x86Types(String vendor, Set<String> flags) {
        boolean bmi2Adx = flags.contains("bmi2") && flags.contains("adx");
        boolean avx2 = flags.contains("avx2") && flags.contains("bmi2");
        boolean avx = flags.contains("avx");
        boolean sse42 = flags.contains("sse4_2");
        boolean ssse3 = flags.contains("ssse3");
        List<String> types = new ArrayList<String>();
        if (vendor.equals("AuthenticAMD")) {
            if (bmi2Adx)
                types.addAll(Arrays.asList("zen3", "zen2", "zen"));
            if (avx2)
                types.add("excavator");
            if (avx && flags.contains("fma"))
                types.addAll(Arrays.asList("steamroller", "piledriver"));
            if (avx)
                types.add("bulldozer");
            if (flags.contains("sse4a"))
                types.add("k10");
            types.add("athlon64");
        } else if (vendor.equals("GenuineIntel")) {
            if (bmi2Adx)
                types.addAll(Arrays.asList("skylake", "coreibwl"));
            if (avx2)
                types.add("coreihwl");
            if (avx)
                types.add("coreisbr");
            if (sse42)
                types.add("corei");
            if (ssse3)
                types.add("core2");
        }
        return types;
    }
}
