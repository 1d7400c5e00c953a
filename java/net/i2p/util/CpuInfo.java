package net.i2p.util;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the bundled-library loader needs to know about this CPU: which
 * variants of the library (rows of {@code variants.tsv}, the table the build
 * made them from, carried beside this class) it can run, best first.
 *
 * <p>On x86-64 the loader reads no feature flags: it ranks the rows by
 * vendor and the table's order, and each library's JNI_OnLoad, asking CPUID
 * (src/cpu/cpu_check.c, the one rule build.sh and the tests also use), refuses a
 * CPU without what it was built for; the loader then tries the next row.
 * /proc/cpuinfo, which a hypervisor can contradict (flags CPUID reports
 * left out of it), gives only the vendor, for the order, and the model name.
 * On 32-bit ARM, which has no CPUID, the kernel's "CPU architecture" line
 * keeps an ARMv6 from being offered the ARMv7 row (whose check, reading
 * AT_PLATFORM, would refuse it too).
 */
final class CpuInfo {
    /** The table's resource name, relative to this class. */
    static final String TABLE = "variants.tsv";

    /** One row of the variant table. */
    static final class Variant {
        final String cpu;
        final String arch;
        final String vendor;
        final List<String> features;

        Variant(String cpu, String arch, String vendor, List<String> features) {
            this.cpu = cpu;
            this.arch = arch;
            this.vendor = vendor;
            this.features = Collections.unmodifiableList(features);
        }

        @Override
        public String toString() {
            return cpu;
        }
    }

    private final String model;
    private final List<String> types;
    /** The row of the library in use, once one is loaded; else null. */
    private final String loadedType;

    private CpuInfo(String model, List<String> types, String loadedType) {
        this.model = model;
        this.types = Collections.unmodifiableList(types);
        this.loadedType = loadedType;
    }

    private CpuInfo(String model, List<String> types) {
        this(model, types, null);
    }

    /** This CPU, with the row of the library that loaded (its own check passed). */
    CpuInfo withLoadedType(String type) {
        return type == null ? this : new CpuInfo(model, types, type);
    }

    /** The model name, or "unrecognized". */
    String model() {
        return model;
    }

    /**
     * The row of the library in use (its own CPUID check accepted this CPU),
     * else the first row the loader would try, or "unrecognized".
     */
    String type() {
        if (loadedType != null)
            return loadedType;
        return types.isEmpty() ? "unrecognized" : types.get(0);
    }

    /**
     * CPU types (the table's cpu names) the loader tries, best first; on
     * x86-64 each library's own CPUID check then accepts or refuses.
     */
    List<String> compatibleTypes() {
        return types;
    }

    /** The architecture as the table names it ("x86_64", "aarch64", "armhf"), or the JVM's os.arch. */
    static String arch() {
        String arch = JbigiProperties.get("os.arch", "").toLowerCase(Locale.US);
        if (arch.equals("amd64") || arch.equals("x86_64"))
            return "x86_64";
        if (arch.equals("aarch64") || arch.equals("arm64"))
            return "aarch64";
        // 32-bit ARM JVMs: Debian's and Raspberry Pi OS's are hard float.
        if (arch.equals("arm") || arch.equals("armhf") || arch.startsWith("armv7"))
            return "armhf";
        return arch;
    }

    /** The number of /proc/cpuinfo's "CPU architecture: 7" ("AArch64" is 8), or 0. */
    static int armArchitecture(String value) {
        if (value.equalsIgnoreCase("AArch64"))
            return 8;
        int n = 0;
        for (int i = 0; i < value.length() && Character.isDigit(value.charAt(i)) && n < 1000; i++)
            n = 10 * n + (value.charAt(i) - '0');
        return n;
    }

    /** "intel", "amd" or "other", from CPUID's vendor string. */
    static String vendor(String vendorId) {
        if (vendorId.equals("GenuineIntel"))
            return "intel";
        if (vendorId.equals("AuthenticAMD") || vendorId.equals("HygonGenuine"))
            return "amd";
        return "other";
    }

    /**
     * The vendor string on Windows, which has no /proc/cpuinfo: the system
     * sets PROCESSOR_IDENTIFIER ("AMD64 Family 25 Model 33 Stepping 0,
     * AuthenticAMD"); -Djbigi.processorIdentifier stands in for it in the
     * tests.  "" when neither says.  Only the order of the rows tried
     * follows it: each library's own CPU check decides.
     */
    static String windowsVendor() {
        String id;
        try {
            id = JbigiProperties.get("jbigi.processorIdentifier", System.getenv("PROCESSOR_IDENTIFIER"));
        } catch (RuntimeException e) { // a security manager that forbids getenv
            id = null;
        }
        if (id == null)
            return "";
        int comma = id.lastIndexOf(',');
        return id.substring(comma + 1).trim();
    }

    /** A CPU nothing is known of: no bundled variant is tried. */
    static CpuInfo none() {
        return new CpuInfo("unrecognized", Collections.<String>emptyList());
    }

    static CpuInfo detect() {
        String vendorId = "";
        String model = "unrecognized";
        Set<String> flags = new HashSet<String>();
        // -Djbigi.cpuinfo=FILE: read FILE instead (the tests describe another CPU's vendor).
        String source = JbigiProperties.get("jbigi.cpuinfo", "/proc/cpuinfo");
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new FileInputStream(source), StandardCharsets.ISO_8859_1))) {
            String line;
            // The first processor's block says it all.
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                int colon = line.indexOf(':');
                if (colon < 0)
                    continue;
                String key = line.substring(0, colon).trim();
                String value = line.substring(colon + 1).trim();
                if (key.equals("vendor_id"))
                    vendorId = value;
                else if (key.equals("model name"))
                    model = value;
                else if (key.equals("CPU architecture") && armArchitecture(value) >= 7)
                    flags.add("armv7"); // the table's name for ARMv7 and later (32-bit ARM)
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, no procfs, or not allowed: only baseline variants.
        }
        if (vendorId.isEmpty())
            vendorId = windowsVendor();
        // x86-64: no flags; the libraries' CPUID checks decide (see above).
        String arch = arch();
        return new CpuInfo(model, candidates(table(), arch, vendor(vendorId), arch.equals("x86_64") ? null : flags));
    }

    /**
     * The rows to try on a CPU of this architecture and vendor, best first:
     * the rows meant for its vendor, then those meant for the other vendor
     * (correct there, only tuned for another design, and ahead of the
     * baseline even so), then the rows for any CPU; each group in the table's
     * order.  With flags, only rows whose every feature is among them; with
     * null, every row of the architecture (their libraries' checks decide).
     * Why the other vendor's rows come before the baseline:
     * doc/measurements.md: "Other vendors' rows before the baseline (2026-11-30)"
     */
    static List<String> candidates(List<Variant> table, String arch, String vendor, Set<String> flags) {
        List<String> names = new ArrayList<String>();
        for (int group = 0; group < 3; group++) {
            for (Variant v : table) {
                int g = v.vendor.equals(vendor) ? 0 : v.vendor.equals("any") ? 2 : 1;
                if (g == group && v.arch.equals(arch) && (flags == null || flags.containsAll(v.features)))
                    names.add(v.cpu);
            }
        }
        return names;
    }

    /** The table carried beside this class; empty (so nothing bundled is tried) if it is missing. */
    static List<Variant> table() {
        InputStream in = CpuInfo.class.getResourceAsStream(TABLE);
        if (in == null)
            return Collections.emptyList();
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return parse(reader);
        } catch (IOException | RuntimeException e) {
            return Collections.emptyList();
        }
    }

    /** Rows of "cpu arch gmp_host march mtune vendor features...", '#' comments; "-" is no features. */
    static List<Variant> parse(Reader reader) throws IOException {
        List<Variant> rows = new ArrayList<Variant>();
        BufferedReader in = new BufferedReader(reader);
        for (String line; (line = in.readLine()) != null; ) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#"))
                continue;
            String[] f = trimmed.split("\\s+");
            if (f.length < 7)
                throw new IOException("variant table: fewer than 7 columns in: " + line);
            List<String> features = new ArrayList<String>();
            for (int i = 6; i < f.length; i++) {
                if (!f[i].equals("-"))
                    features.add(f[i]);
            }
            rows.add(new Variant(f[0], f[1], f[5], features));
        }
        return rows;
    }
}
