package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How NativeBigInteger finds its library, each way in a fresh JVM, and that
 * every way (including none) computes the same results.
 */
class LoadingTest {
    private static Path emptyLibraryDir;
    private static String nativeDigest;

    @BeforeAll
    static void setUp() throws IOException {
        emptyLibraryDir = Files.createTempDirectory("jbigi-test-empty");
        emptyLibraryDir.toFile().deleteOnExit();
        assertTrue(NativeBigInteger.isNative(), "the tests run with lib/ on java.library.path: " + NativeBigInteger.loadStatus());
        nativeDigest = LoadProbe.digest();
    }

    private static String jar() {
        String jar = System.getProperty("jbigi.test.jar", "build/jbigi.jar");
        assertTrue(new File(jar).isFile(), jar + " not built");
        return jar;
    }

    private static String probe(String classPath, String... jvmOptions) throws Exception {
        Subprocess p = Subprocess.run(classPath, Arrays.asList(jvmOptions), "net.i2p.util.LoadProbe");
        assertEquals(0, p.exitCode, p.output);
        return p.output;
    }

    private static String field(String output, String name) {
        for (String line : output.split("\n")) {
            if (line.startsWith(name + "="))
                return line.substring(name.length() + 1);
        }
        throw new AssertionError("no " + name + "= line in:\n" + output);
    }

    @Test
    void thisJvmLoadedTheLibraryFromTheLibraryPath() {
        assertEquals(JbigiLoader.FROM_FILE + "; engine: " + NativeBigInteger.engine() + Engine.features(NativeBigInteger.engine()),
                NativeBigInteger.loadStatus());
        assertNull(NativeBigInteger.getLoadedResourceName());
        assertEquals(5, NativeBigInteger.getJbigiVersion());
        assertEquals(5, NativeBigInteger.nativeJbigiVersion());
        assertTrue(NativeBigInteger.getLibGMPVersion().matches("\\d+\\.\\d+\\.\\d+"), NativeBigInteger.getLibGMPVersion());
        assertTrue(NativeBigInteger.nativeGMPMajorVersion() >= 5);
    }

    @Test
    void disabledMeansPureJavaWithTheSameResults() throws Exception {
        String out = probe(Subprocess.mainClasses() + File.pathSeparator + Subprocess.testClasses(),
                "-Djbigi.enable=false", "-Djava.library.path=lib");
        assertEquals("false", field(out, "native"));
        assertTrue(field(out, "status").startsWith(JbigiLoader.NOT_LOADED), out);
        assertTrue(field(out, "status").contains("jbigi.enable=false"), out);
        assertEquals(nativeDigest, field(out, "results"));
    }

    @Test
    void noLibraryAnywhereMeansPureJavaWithTheSameResults() throws Exception {
        String out = probe(Subprocess.mainClasses() + File.pathSeparator + Subprocess.testClasses(),
                "-Djava.library.path=" + emptyLibraryDir);
        assertEquals("false", field(out, "native"));
        assertTrue(field(out, "status").startsWith(JbigiLoader.NOT_LOADED), out);
        assertEquals("null", field(out, "resource"));
        assertEquals(nativeDigest, field(out, "results"));
    }

    @Test
    void jarResourceIsExtractedAndLoaded() throws Exception {
        String out = probe(jar() + File.pathSeparator + Subprocess.testClasses(),
                "-Djava.library.path=" + emptyLibraryDir);
        assertEquals("true", field(out, "native"), out);
        String resource = field(out, "resource");
        assertTrue(resource.matches("libjbigi-linux-[a-z0-9]+_64\\.so"), resource);
        assertTrue(field(out, "status").startsWith("Native BigInteger library " + resource + " loaded from resource; engine: "),
                out);
        assertEquals(nativeDigest, field(out, "results"));
    }

    @Test
    void loadingPrintsNothingUnlessAskedTo() throws Exception {
        String quiet = probe(jar() + File.pathSeparator + Subprocess.testClasses(), "-Djava.library.path=" + emptyLibraryDir);
        assertEquals(4, quiet.trim().split("\n").length, "only the probe's own lines:\n" + quiet);
        String loud = probe(jar() + File.pathSeparator + Subprocess.testClasses(),
                "-Djava.library.path=" + emptyLibraryDir, "-Djbigi.debug=true");
        assertTrue(loud.contains("jbigi: "), loud);
    }

    @Test
    void resourceNamesFollowI2pAndEndWithNone() {
        List<String> names = JbigiLoader.resourceNames(CpuInfo.detect());
        assertFalse(names.isEmpty());
        assertEquals("libjbigi-linux-none_64.so", names.get(names.size() - 1));
        for (String name : names)
            assertTrue(name.matches("libjbigi-linux-[a-z0-9]+_64\\.so"), name);
    }

    /** /proc/cpuinfo's vendor_id, or "" where there is none. */
    private static String vendorId() throws IOException {
        if (!Files.isReadable(Paths.get("/proc/cpuinfo")))
            return "";
        for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"), StandardCharsets.ISO_8859_1)) {
            if (line.startsWith("vendor_id"))
                return line.substring(line.indexOf(':') + 1).trim();
        }
        return "";
    }

    /** src/cpu/variants.tsv, the table the build made the jar's libraries from. */
    static List<CpuInfo.Variant> sourceTable() throws IOException {
        try (Reader in = Files.newBufferedReader(Paths.get("src/cpu/variants.tsv"), StandardCharsets.UTF_8)) {
            return CpuInfo.parse(in);
        }
    }

    private static CpuInfo.Variant row(List<CpuInfo.Variant> table, String cpu) {
        for (CpuInfo.Variant v : table) {
            if (v.cpu.equals(cpu))
                return v;
        }
        throw new AssertionError("no row " + cpu);
    }

    @Test
    void theLoaderReadsTheTableTheBuildUsed() throws IOException {
        List<CpuInfo.Variant> table = sourceTable();
        assertEquals(table.toString(), CpuInfo.table().toString());
        Set<String> names = new HashSet<String>();
        for (CpuInfo.Variant v : table) {
            assertTrue(names.add(v.cpu), "twice in the table: " + v.cpu);
            assertTrue(v.cpu.matches("[a-z0-9]+"), v.cpu);
            assertTrue(Arrays.asList("x86_64", "aarch64", "armhf").contains(v.arch), v.cpu + ": " + v.arch);
            assertTrue(Arrays.asList("intel", "amd", "any").contains(v.vendor), v.cpu + ": " + v.vendor);
        }
        assertTrue(names.containsAll(Arrays.asList("none", "armv8", "armv7")), names.toString());
    }

    /**
     * For each row, a CPU with exactly its features (of its vendor, or of
     * every vendor for "any" rows): the row is among the candidates, and it
     * is the first of them if the row is meant for that vendor; every
     * candidate needs only features that CPU has and is of its architecture;
     * rows for the CPU's vendor come first, then the other vendor's, then
     * those for any CPU, each in the table's order; x86-64 ends with the
     * baseline "none".
     */
    @Test
    void candidatesFollowTheTable() throws IOException {
        List<CpuInfo.Variant> table = sourceTable();
        for (CpuInfo.Variant v : table) {
            Set<String> flags = new HashSet<String>(v.features);
            List<String> vendors = v.vendor.equals("any") ? Arrays.asList("intel", "amd", "other")
                    : Collections.singletonList(v.vendor);
            for (String vendor : vendors) {
                List<String> got = CpuInfo.candidates(table, v.arch, vendor, flags);
                assertTrue(got.contains(v.cpu), v.cpu + " for " + vendor + ": " + got);
                int lastGroup = 0;
                int lastIndex = -1;
                for (String cpu : got) {
                    CpuInfo.Variant c = row(table, cpu);
                    assertTrue(flags.containsAll(c.features), cpu + " needs more than " + v.cpu + " has");
                    assertEquals(v.arch, c.arch);
                    int group = c.vendor.equals(vendor) ? 0 : c.vendor.equals("any") ? 2 : 1;
                    int index = table.indexOf(c);
                    assertTrue(group > lastGroup || (group == lastGroup && index > lastIndex), "out of order: " + got);
                    lastGroup = group;
                    lastIndex = index;
                }
                if (!v.vendor.equals("any"))
                    assertTrue(table.indexOf(row(table, got.get(0))) <= table.indexOf(v), got + " for " + v.cpu);
                if (v.arch.equals("x86_64"))
                    assertEquals("none", got.get(got.size() - 1), got.toString());
            }
        }
        List<String> baseline = CpuInfo.candidates(table, "x86_64", "intel", Collections.<String>emptySet());
        assertEquals("none", baseline.get(baseline.size() - 1), baseline.toString());
        for (String cpu : baseline)
            assertTrue(row(table, cpu).features.isEmpty(), cpu + " needs more than the x86-64 baseline");
        // x86-64 reads no flags: every x86-64 row, this vendor's first, then
        // the other's, then any CPU's, for the libraries' CPUID checks to decide.
        List<String> amd = CpuInfo.candidates(table, "x86_64", "amd", null);
        List<String> x86 = new ArrayList<String>();
        for (String group : Arrays.asList("amd", "intel", "any")) {
            for (CpuInfo.Variant v : table) {
                if (v.arch.equals("x86_64") && v.vendor.equals(group))
                    x86.add(v.cpu);
            }
        }
        assertEquals(x86, amd);
        if (CpuInfo.arch().equals("x86_64"))
            assertEquals(CpuInfo.candidates(table, "x86_64", CpuInfo.vendor(vendorId()), null),
                    CpuInfo.detect().compatibleTypes(), "detect() reads no flags on x86-64");
        // I2P's names: armv8 for 64-bit ARM, armv7 for 32-bit ARMv7 and later (nothing for an ARMv6).
        assertEquals(Collections.singletonList("armv8"),
                CpuInfo.candidates(table, "aarch64", "other", Collections.<String>emptySet()));
        assertEquals(Collections.singletonList("armv7"),
                CpuInfo.candidates(table, "armhf", "other", Collections.<String>singleton("armv7")));
        assertEquals(Collections.<String>emptyList(),
                CpuInfo.candidates(table, "armhf", "other", Collections.<String>emptySet()));
    }

    /**
     * The jar: its libraries are rows of the table, it carries the table
     * itself and GMP's licence texts, and its manifest names a version and
     * a module.
     */
    @Test
    void theJarCarriesTheTableLicencesAndAManifest() throws IOException {
        Map<String, String> rows = new HashMap<String, String>();
        for (CpuInfo.Variant v : sourceTable())
            rows.put(v.cpu, v.arch);
        try (JarFile jar = new JarFile(jar())) {
            int libraries = 0;
            boolean x86 = false;
            boolean gmpLinkedIn = false;
            for (JarEntry e : Collections.list(jar.entries())) {
                Matcher m = Pattern.compile("libjbigi-linux-([a-z0-9]+?)(_64)?\\.so").matcher(e.getName());
                if (m.matches()) {
                    String arch = rows.get(m.group(1));
                    assertTrue(arch != null, e.getName() + " is no row of src/cpu/variants.tsv");
                    // I2P's names: _64 for 64-bit JVMs, none for 32-bit ones (armhf).
                    assertEquals(!arch.equals("armhf"), m.group(2) != null, e.getName() + " for " + arch);
                    x86 |= arch.equals("x86_64");
                    gmpLinkedIn |= !needsSharedGmp(jar, e);
                    libraries++;
                }
            }
            assertTrue(libraries >= 1, "no library in the jar");
            // I2P's CPU identification, for I2P's own loader, beside x86-64 libraries.
            assertEquals(x86, jar.getJarEntry("libjcpuid-x86_64-linux.so") != null, "jcpuid beside x86-64 libraries");
            JarEntry table = jar.getJarEntry("net/i2p/util/variants.tsv");
            assertTrue(table != null, "no variant table in the jar");
            try (InputStream in = jar.getInputStream(table)) {
                assertTrue(Arrays.equals(Files.readAllBytes(Paths.get("src/cpu/variants.tsv")), readAll(in)));
            }
            // GMP's licence texts travel with GMP's code: in the jar exactly when a library in it
            // links GMP in (static, fat, dist).  A dynamic build (GMP=system) passes on no GMP code,
            // only a reference to the system's libgmp.so, and carries none (as make install copies none).
            for (String licence : new String[] {"COPYING", "COPYING.LESSERv3", "COPYINGv2"})
                assertEquals(gmpLinkedIn, jar.getJarEntry("META-INF/" + licence) != null,
                             "META-INF/" + licence + (gmpLinkedIn ? " missing beside a library that links GMP in"
                                                                  : " in a jar whose libraries link GMP dynamically"));
            Attributes main = jar.getManifest().getMainAttributes();
            assertTrue(main.getValue("Implementation-Version") != null, "no Implementation-Version");
            assertEquals("net.i2p.jbigi", main.getValue("Automatic-Module-Name"));
            // java -jar on JDK 24 and later: no native-access warning.
            assertEquals("ALL-UNNAMED", main.getValue("Enable-Native-Access"));
        }
    }

    /** Whether the library in entry e needs a shared libgmp: its dynamic section names libgmp.so.N. */
    private static boolean needsSharedGmp(JarFile jar, JarEntry e) throws IOException {
        byte[] library;
        try (InputStream in = jar.getInputStream(e)) {
            library = readAll(in);
        }
        return new String(library, StandardCharsets.ISO_8859_1).contains("libgmp.so.");
    }

    private static byte[] readAll(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) > 0; )
            out.write(buffer, 0, n);
        return out.toByteArray();
    }

    /** The full speed test, about 8 s (tagged: the Java-version lane runs -n on each JDK instead). */
    @Test
    @Tag("full-speed-test")
    void speedTestChecksAndTimesEveryOperation() throws Exception {
        Subprocess p = Subprocess.run(jar(), Collections.singletonList("-Djava.library.path=lib"),
                "net.i2p.util.NativeBigInteger");
        assertEquals(0, p.exitCode, p.output);
        for (String op : new String[] {"modPow", "modPowCT", "modInverse"})
            assertTrue(p.output.contains(op + ": "), p.output);
        assertEquals(5, count(p.output, "Native run time:"), p.output);
        assertEquals(5, count(p.output, "Java run time:"), p.output);
        assertEquals(5, count(p.output, "% of pure Java time"), p.output);
        assertTrue(p.output.contains("jbigi version: 5"), p.output);
    }

    /** -n times native code only: it must say that nothing was compared, never that results matched. */
    @Test
    void speedTestNativeOnlySaysItDidNotCompare() throws Exception {
        Subprocess p = Subprocess.run(jar(), Collections.singletonList("-Djava.library.path=lib"),
                "net.i2p.util.NativeBigInteger", "-n");
        assertEquals(0, p.exitCode, p.output);
        assertEquals(5, count(p.output, " runs, not compared with BigInteger (-n)"), p.output);
        assertTrue(p.output.contains("Results not compared with BigInteger (-n)."), p.output);
        assertFalse(p.output.contains("match"), p.output);
        assertEquals(0, count(p.output, "Java run time:"), p.output);
        // The release version, from the file VERSION through the jar's manifest.
        String version = new String(Files.readAllBytes(Paths.get("VERSION")), StandardCharsets.UTF_8).trim();
        assertTrue(p.output.contains("Release: " + version + "\n"), p.output);
    }

    @Test
    void speedTestNativeOnlyFailsWithoutTheLibrary() throws Exception {
        Subprocess p = Subprocess.run(jar(), Collections.singletonList("-Djbigi.enable=false"),
                "net.i2p.util.NativeBigInteger", "-n");
        assertEquals(1, p.exitCode, p.output);
        assertTrue(p.output.contains(JbigiLoader.NOT_LOADED), p.output);
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1))
            n++;
        return n;
    }
}
