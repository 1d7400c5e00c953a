package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library bundled in the jar is written to disk before it is loaded.
 * Anyone who could predict that file, or write to it or its directory,
 * could have their code loaded into the router.  So: a new directory and a
 * new file each time, names nobody can guess, readable by the owner only,
 * gone when the JVM exits; and two JVMs extracting at the same moment must
 * not trip over each other.
 */
class LoaderSafetyTest {
    private static Path emptyLibraryDir;
    private static String nativeDigest;

    @BeforeAll
    static void setUp() throws IOException {
        emptyLibraryDir = Files.createTempDirectory("jbigi-test-nolib");
        emptyLibraryDir.toFile().deleteOnExit();
        nativeDigest = LoadProbe.digest();
    }

    private static String jar() {
        String jar = System.getProperty("jbigi.test.jar", "build/jbigi.jar");
        assertTrue(new File(jar).isFile(), jar + " not built");
        return jar;
    }

    /** java ... ExtractionProbe [gate], with the jar, no library on the path, and tmpdir as java.io.tmpdir. */
    private static List<String> probeCommand(Path tmpdir, String... args) {
        List<String> command = new ArrayList<String>(Arrays.asList(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.library.path=" + emptyLibraryDir, "-Djava.io.tmpdir=" + tmpdir,
                "-cp", jar() + File.pathSeparator + Subprocess.testClasses(), ExtractionProbe.class.getName()));
        command.addAll(Arrays.asList(args));
        return command;
    }

    private static Process start(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        return p;
    }

    /** The rest of a process's output, and its exit status, which must be 0. */
    private static String finish(Process p, BufferedReader out, String already) throws Exception {
        StringBuilder text = new StringBuilder(already);
        for (String line; (line = out.readLine()) != null; )
            text.append(line).append('\n');
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "probe hung:\n" + text);
        assertEquals(0, p.exitValue(), "probe failed:\n" + text);
        return text.toString();
    }

    private static BufferedReader reader(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    private static String field(String output, String name) {
        for (String line : output.split("\n")) {
            if (line.startsWith(name + "="))
                return line.substring(name.length() + 1);
        }
        throw new AssertionError("no " + name + "= line in:\n" + output);
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return !entries.findAny().isPresent();
        }
    }

    /**
     * Under umask 000, so that the permissions must come from the loader
     * itself: the file is rw------- in its own rwx------ directory, which
     * holds nothing else, both with fresh random names; nothing is left after
     * exit; and a second run uses different names.
     */
    @Test
    void extractedLibraryIsPrivateFreshAndRemoved(@TempDir Path scratch) throws Exception {
        Path tmpdir = Files.createDirectory(scratch.resolve("tmp"));
        String me = Files.getOwner(tmpdir).getName(); // as the file system names this user
        List<Path> seen = new ArrayList<Path>();
        for (int run = 0; run < 2; run++) {
            List<String> command = new ArrayList<String>(Arrays.asList("/bin/sh", "-c", "umask 000 && exec \"$@\"", "sh"));
            command.addAll(probeCommand(tmpdir));
            Process p = start(command);
            String out = finish(p, reader(p), "");

            assertEquals("true", field(out, "native"), out);
            Path library = Paths.get(field(out, "mapped"));
            Path dir = library.getParent();
            assertEquals(tmpdir, dir.getParent(), "the library is in a directory of its own under java.io.tmpdir:\n" + out);
            assertEquals("rw-------", field(out, "file-perms"), out);
            assertEquals("rwx------", field(out, "dir-perms"), out);
            assertEquals(me, field(out, "file-owner"), out);
            assertEquals("1", field(out, "dir-entries"), out);
            // Names with a random part: neither the resource's name nor a fixed one.
            assertTrue(library.getFileName().toString().matches("libjbigi-?[0-9]+\\.so"), library.toString());
            assertTrue(dir.getFileName().toString().matches("jbigi-?[0-9]+"), dir.toString());
            assertFalse(Files.exists(dir), dir + " left behind after the JVM exited");
            seen.add(library);
        }
        assertNotEquals(seen.get(0), seen.get(1));
        assertNotEquals(seen.get(0).getParent(), seen.get(1).getParent());
        assertTrue(isEmpty(tmpdir), "left in java.io.tmpdir: " + tmpdir);
    }

    /**
     * Two JVMs, sharing java.io.tmpdir, held at a gate until both are up,
     * then released together to extract and load: both load natively, into
     * different files, and compute what this JVM computes.
     */
    @Test
    void twoJvmsExtractingAtOnceDoNotInterfere(@TempDir Path scratch) throws Exception {
        Path tmpdir = Files.createDirectory(scratch.resolve("tmp"));
        Path gate = scratch.resolve("go");
        Process[] probes = {start(probeCommand(tmpdir, gate.toString())), start(probeCommand(tmpdir, gate.toString()))};
        BufferedReader[] outs = {reader(probes[0]), reader(probes[1])};
        String[] first = new String[2];
        for (int i = 0; i < 2; i++) {
            first[i] = outs[i].readLine();
            if (!"ready".equals(first[i]))
                finish(probes[i], outs[i], first[i] + "\n"); // fails, showing why
        }
        Files.createFile(gate);
        String[] results = new String[2];
        for (int i = 0; i < 2; i++)
            results[i] = finish(probes[i], outs[i], first[i] + "\n");

        for (String out : results) {
            assertEquals("true", field(out, "native"), out);
            assertEquals(nativeDigest, field(out, "results"), out);
        }
        assertNotEquals(field(results[0], "mapped"), field(results[1], "mapped"));
        System.out.println("two JVMs loaded " + field(results[0], "mapped") + " and " + field(results[1], "mapped"));
        assertTrue(isEmpty(tmpdir), "left in java.io.tmpdir: " + tmpdir);
    }
}
