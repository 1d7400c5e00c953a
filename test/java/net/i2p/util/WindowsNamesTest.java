package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The loader as a Windows JVM runs it (os.name "Windows 11", os.arch
 * "amd64", no /proc/cpuinfo, the vendor from PROCESSOR_IDENTIFIER): the
 * names it asks for, in order, for an AMD, an Intel and an unknown CPU; and,
 * where the jar carries Windows DLLs (the dist jar), that every one of
 * those names and I2P's jcpuid DLL is in it.  Also the removal of copies
 * that earlier JVMs could not delete.
 */
class WindowsNamesTest {
    private static final String[] PROPERTIES = {"os.name", "os.arch", "sun.arch.data.model", "jbigi.cpuinfo",
        "jbigi.processorIdentifier"};

    /** resourceNames(detect()) with the JVM describing Windows on a CPU of this vendor string. */
    private static List<String> windowsNames(String processorIdentifier) {
        Map<String, String> saved = new HashMap<String, String>();
        for (String p : PROPERTIES)
            saved.put(p, System.getProperty(p));
        try {
            System.setProperty("os.name", "Windows 11");
            System.setProperty("os.arch", "amd64");
            System.setProperty("sun.arch.data.model", "64");
            System.setProperty("jbigi.cpuinfo", new File("build/test/no-such-cpuinfo").getAbsolutePath());
            if (processorIdentifier == null)
                System.clearProperty("jbigi.processorIdentifier");
            else
                System.setProperty("jbigi.processorIdentifier", processorIdentifier);
            return JbigiLoader.resourceNames(CpuInfo.detect());
        } finally {
            for (String p : PROPERTIES) {
                if (saved.get(p) == null)
                    System.clearProperty(p);
                else
                    System.setProperty(p, saved.get(p));
            }
        }
    }

    private static List<String> x86Rows() {
        List<String> rows = new ArrayList<String>();
        for (CpuInfo.Variant v : CpuInfo.table())
            if (v.arch.equals("x86_64"))
                rows.add(v.cpu);
        return rows;
    }

    @Test
    void windowsNamesFollowI2pAndTheVendor() {
        List<String> rows = x86Rows();
        assertFalse(rows.isEmpty(), "no x86-64 rows in the table");
        List<String> amd = windowsNames("AMD64 Family 25 Model 33 Stepping 0, AuthenticAMD");
        List<String> intel = windowsNames("Intel64 Family 6 Model 143 Stepping 8, GenuineIntel");
        List<String> unknown = windowsNames(null);
        for (List<String> names : asList(amd, intel, unknown)) {
            assertEquals(rows.size(), names.size(), "one name per x86-64 row: " + names);
            for (String name : names)
                assertTrue(name.matches("jbigi-windows-[a-z0-9]+_64\\.dll"), "not I2P's Windows name: " + name);
        }
        // The vendor's own rows first: AMD's zen2 on AMD, Intel's coreibwl on Intel.
        assertEquals("jbigi-windows-zen2_64.dll", amd.get(0));
        assertEquals("jbigi-windows-coreibwl_64.dll", intel.get(0));
        // Every list ends with the baseline, which runs on any x86-64.
        for (List<String> names : asList(amd, intel, unknown))
            assertEquals("jbigi-windows-none_64.dll", names.get(names.size() - 1));
    }

    @SafeVarargs
    private static <T> List<T> asList(T... items) {
        List<T> list = new ArrayList<T>();
        for (T t : items)
            list.add(t);
        return list;
    }

    @Test
    void aJarWithWindowsDllsHasEveryNameTheLoaderAsks() throws Exception {
        String jar = System.getProperty("jbigi.test.jar", "build/jbigi.jar");
        List<String> entries = new ArrayList<String>();
        try (JarFile file = new JarFile(jar)) {
            for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements();)
                entries.add(e.nextElement().getName());
        }
        boolean windows = false;
        for (String e : entries)
            windows |= e.startsWith("jbigi-windows-");
        // The host's jar carries no DLL; the dist jar (make check) carries them all.
        boolean required = Boolean.getBoolean("jbigi.test.windows");
        assertTrue(windows || !required, jar + " carries no Windows DLL, and the build made them");
        if (!windows)
            return;
        for (String vendor : asList("AuthenticAMD", "GenuineIntel", "SomethingElse"))
            for (String name : windowsNames("x, " + vendor))
                assertTrue(entries.contains(name), jar + " lacks " + name + ", asked for on " + vendor);
        assertTrue(entries.contains("jcpuid-x86_64-windows.dll"), jar + " lacks I2P's jcpuid-x86_64-windows.dll");
    }

    @Test
    void copiesLeftByEarlierJvmsAreRemovedAndNothingElse() throws Exception {
        Path base = Files.createTempDirectory(new File("build").toPath().toAbsolutePath(), "windows-copies");
        Path old = Files.createDirectory(base.resolve(JbigiLoader.COPY_PREFIX + "old"));
        Files.write(old.resolve("jbigi123.dll"), new byte[] {1, 2, 3});
        Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - 3600 * 1000L));
        Path fresh = Files.createDirectory(base.resolve(JbigiLoader.COPY_PREFIX + "fresh"));
        Files.write(fresh.resolve("jbigi456.dll"), new byte[] {4});
        Path other = Files.createDirectory(base.resolve("someone-elses"));
        Files.setLastModifiedTime(other, FileTime.fromMillis(System.currentTimeMillis() - 3600 * 1000L));
        JbigiLoader.removeStaleCopies(base);
        assertFalse(Files.exists(old), "an hour-old copy was kept");
        assertTrue(Files.exists(fresh.resolve("jbigi456.dll")), "a copy still on its way to System.load was removed");
        assertTrue(Files.exists(other), "a directory that is not a copy was removed");
        Files.delete(fresh.resolve("jbigi456.dll"));
        Files.delete(fresh);
        Files.delete(other);
        Files.delete(base);
    }
}
