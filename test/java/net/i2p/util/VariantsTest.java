package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every library variant in the jar, forced in turn with -Djbigi.variant in a
 * fresh JVM: those this CPU can run load and pass the known-answer vectors
 * and the random cases through the Java API; the others (another
 * architecture, instructions this CPU lacks) are refused without harm, and
 * the JVM computes the same results in pure Java.
 */
class VariantsTest {
    /** The known-answer vectors: the project's own copy (a missing file fails the test). */
    private static final String VECTORS = System.getProperty("jbigi.vectors", "test/vectors/modpow-public.txt");

    private static String field(String output, String name) {
        for (String line : output.split("\n")) {
            if (line.startsWith(name + "="))
                return line.substring(name.length() + 1);
        }
        throw new AssertionError("no " + name + "= line in:\n" + output);
    }

    @Test
    void everyVariantInTheJarLoadsWhereItCanAndIsRefusedWhereItCannot() throws Exception {
        String jar = System.getProperty("jbigi.test.jar", "build/jbigi.jar");
        List<String> variants = new ArrayList<String>();
        try (JarFile file = new JarFile(jar)) {
            for (JarEntry e : Collections.list(file.entries())) {
                Matcher m = Pattern.compile("libjbigi-linux-([a-z0-9]+)_64\\.so").matcher(e.getName());
                if (m.matches())
                    variants.add(m.group(1));
            }
        }
        assertTrue(!variants.isEmpty(), jar + " carries no library");
        Path empty = Files.createTempDirectory("jbigi-variants");
        empty.toFile().deleteOnExit();
        String digest = LoadProbe.digest();
        List<CpuInfo.Variant> table = LoadingTest.sourceTable();
        int loaded = 0;
        for (String cpu : variants) {
            CpuInfo.Variant row = null;
            for (CpuInfo.Variant v : table) {
                if (v.cpu.equals(cpu))
                    row = v;
            }
            assertTrue(row != null, cpu + " is not in src/cpu/variants.tsv");
            // CPUID's answer through the library's own check (build/cpu-probe), as JNI_OnLoad's.
            boolean runnable = HostCpu.runs(cpu);
            Subprocess p = Subprocess.run(jar + File.pathSeparator + Subprocess.testClasses(),
                    Arrays.asList("-Djava.library.path=" + empty, "-Djbigi.variant=" + cpu),
                    "net.i2p.util.VectorProbe", VECTORS);
            assertEquals(0, p.exitCode, cpu + ":\n" + p.output);
            assertEquals(digest, field(p.output, "results"), cpu + ":\n" + p.output);
            String vectors = field(p.output, "vectors");
            assertTrue(vectors.equals("missing") || vectors.endsWith(" 0"), cpu + ": vectors failed:\n" + p.output);
            if (runnable) {
                assertEquals("true", field(p.output, "native"), cpu + ":\n" + p.output);
                assertEquals("libjbigi-linux-" + cpu + "_64.so", field(p.output, "resource"), p.output);
                loaded++;
            } else {
                assertEquals("false", field(p.output, "native"), cpu + ":\n" + p.output);
                assertTrue(field(p.output, "status").contains("libjbigi-linux-" + cpu + "_64.so"), p.output);
            }
            System.out.println(cpu + ": " + (runnable ? "loaded" : "refused") + ", vectors " + vectors + ", "
                    + field(p.output, "status"));
        }
        assertTrue(loaded > 0, "no variant of the jar runs here: " + variants);
    }
}
