package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
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
        assertEquals(JbigiLoader.FROM_FILE + "; engine: " + NativeBigInteger.engine(), NativeBigInteger.loadStatus());
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

    @Test
    void cpuTypesFollowTheInstructionSets() {
        List<String> zen = CpuInfo.x86Types("AuthenticAMD", flags("bmi2 adx avx2 avx fma sse4a sse4_2"));
        assertEquals(Arrays.asList("zen3", "zen2", "zen", "excavator", "steamroller", "piledriver", "bulldozer",
                "k10", "athlon64"), zen);
        List<String> skylake = CpuInfo.x86Types("GenuineIntel", flags("bmi2 adx avx2 avx sse4_2 ssse3"));
        assertEquals(Arrays.asList("skylake", "coreibwl", "coreihwl", "coreisbr", "corei", "core2"), skylake);
        assertEquals(Collections.singletonList("core2"), CpuInfo.x86Types("GenuineIntel", flags("ssse3")));
        assertTrue(CpuInfo.x86Types("SomeoneElse", flags("bmi2 adx")).isEmpty());
    }

    private static java.util.Set<String> flags(String list) {
        return new java.util.HashSet<String>(Arrays.asList(list.split(" ")));
    }

    @Test
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
