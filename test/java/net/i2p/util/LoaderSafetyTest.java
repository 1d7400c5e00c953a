package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library bundled in the jar is written to disk before it is loaded.
 * Anyone who could predict that file, or write to it or its directory,
 * could have their code loaded into the router.  So: a new directory and a
 * new file each time, names nobody can guess, readable by the owner only,
 * deleted as soon as the library is loaded (so that even kill -9 leaves
 * nothing); two JVMs extracting at the same moment must not trip over each
 * other; and no loading problem may stop NativeBigInteger from working in
 * pure Java.
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
        return probeCommand(Arrays.asList("-Djava.io.tmpdir=" + tmpdir), args);
    }

    private static List<String> probeCommand(List<String> jvmOptions, String... args) {
        return probeCommand(jvmOptions, ExtractionProbe.class, args);
    }

    private static List<String> probeCommand(List<String> jvmOptions, Class<?> probe, String... args) {
        List<String> command = Subprocess.javaCommand();
        command.add("-Djava.library.path=" + emptyLibraryDir);
        command.addAll(jvmOptions);
        command.addAll(Arrays.asList("-cp", jar() + File.pathSeparator + Subprocess.testClasses(),
                probe.getName()));
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
     * itself: the file is rw------- (read through the mapping, as the file
     * is already deleted), in a directory of its own under java.io.tmpdir,
     * both with fresh random names; both are gone while the JVM still runs;
     * and a second run uses different names.
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
            assertEquals("false", field(out, "file-exists"), "deleted right after loading:\n" + out);
            assertEquals("false", field(out, "dir-exists"), "deleted right after loading:\n" + out);
            if (!field(out, "file-perms").startsWith("unavailable")) {
                assertEquals("rw-------", field(out, "file-perms"), out);
                assertEquals(me, field(out, "file-owner"), out);
            }
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

    /** Reads a probe's output up to and including the line "holding"; fails if it ends first. */
    private static String untilHolding(Process p, BufferedReader out) throws Exception {
        StringBuilder text = new StringBuilder();
        for (String line; (line = out.readLine()) != null; ) {
            text.append(line).append('\n');
            if (line.equals("holding"))
                return text.toString();
        }
        p.waitFor(1, TimeUnit.MINUTES);
        throw new AssertionError("probe ended before loading:\n" + text);
    }

    /** A JVM killed with SIGKILL while using the extracted library leaves nothing in the temporary directory. */
    @Test
    void killMinus9LeavesNothingBehind(@TempDir Path scratch) throws Exception {
        Path tmpdir = Files.createDirectory(scratch.resolve("tmp"));
        Process p = start(probeCommand(tmpdir, "hold"));
        String out = untilHolding(p, reader(p));
        assertEquals("true", field(out, "native"), out);
        p.destroyForcibly(); // SIGKILL: no shutdown hooks, no deleteOnExit
        assertTrue(p.waitFor(1, TimeUnit.MINUTES));
        assertEquals(137, p.exitValue(), "killed by SIGKILL");
        assertTrue(isEmpty(tmpdir), "left in java.io.tmpdir after kill -9: " + list(tmpdir));
    }

    private static String list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.walk(dir)) {
            StringBuilder text = new StringBuilder();
            entries.forEach(e -> text.append(e).append(' '));
            return text.toString();
        }
    }

    /** -Djbigi.tmpdir decides where the library is extracted, instead of java.io.tmpdir. */
    @Test
    void jbigiTmpdirIsWhereTheLibraryGoes(@TempDir Path scratch) throws Exception {
        Path javaTmp = Files.createDirectory(scratch.resolve("java-tmp"));
        Path jbigiTmp = Files.createDirectory(scratch.resolve("jbigi-tmp"));
        Process p = start(probeCommand(Arrays.asList("-Djava.io.tmpdir=" + javaTmp, "-Djbigi.tmpdir=" + jbigiTmp)));
        String out = finish(p, reader(p), "");
        assertEquals("true", field(out, "native"), out);
        assertEquals(jbigiTmp, Paths.get(field(out, "mapped")).getParent().getParent(), out);
        assertTrue(isEmpty(javaTmp) && isEmpty(jbigiTmp), list(scratch));
    }

    /** A -Djbigi.tmpdir that does not exist: pure Java, and the status says why. */
    @Test
    void missingJbigiTmpdirMeansPureJavaWithAReason(@TempDir Path scratch) throws Exception {
        Path missing = scratch.resolve("no-such-dir");
        Process p = start(probeCommand(Arrays.asList("-Djbigi.tmpdir=" + missing)));
        String out = finish(p, reader(p), "");
        assertEquals("false", field(out, "native"), out);
        assertTrue(field(out, "status").contains("-Djbigi.tmpdir=" + missing + " is not a directory"), out);
        assertEquals(nativeDigest, field(out, "results"), out);
    }

    /**
     * A temporary directory on a file system mounted noexec (common for /tmp
     * on hardened systems): nothing is extracted, the JVM runs in pure Java,
     * and the status says what to do.  Needs a tmpfs mount (root); skipped
     * otherwise.
     */
    @Test
    void noexecTmpdirMeansPureJavaAndSaysWhatToDo(@TempDir Path scratch) throws Exception {
        Path mount = Files.createDirectory(scratch.resolve("noexec"));
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "noexec,size=8m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        boolean mounted = m.waitFor(30, TimeUnit.SECONDS) && m.exitValue() == 0;
        assumeTrue(mounted, "cannot mount a noexec tmpfs here (needs root): skipped");
        try {
            Process p = start(probeCommand(mount));
            String out = finish(p, reader(p), "");
            assertEquals("false", field(out, "native"), out);
            String status = field(out, "status");
            assertTrue(status.startsWith(JbigiLoader.NOT_LOADED), out);
            assertTrue(status.contains("mounted noexec") && status.contains("-Djbigi.tmpdir"), out);
            assertEquals(nativeDigest, field(out, "results"), out);
            assertTrue(isEmpty(mount), list(mount));
        } finally {
            new ProcessBuilder("umount", mount.toString()).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A security manager that lets the JVM read the jar and write the
     * temporary file but not load it: System.load throws SecurityException.
     * That must mean pure Java, not an ExceptionInInitializerError.  Of the
     * properties only os.name and os.arch (as the default policy allows) and
     * java.io.tmpdir (where to extract) may be read: jbigi's own are denied.
     * Skipped on JDKs without a security manager (24 and later).
     */
    @Test
    @Tag("security-manager")
    void securityExceptionWhileLoadingMeansPureJava(@TempDir Path scratch) throws Exception {
        Path policy = scratch.resolve("no-load.policy");
        Files.write(policy, Arrays.asList(
                "grant {",
                "  permission java.io.FilePermission \"<<ALL FILES>>\", \"read,write,delete\";",
                "  permission java.util.PropertyPermission \"os.name\", \"read\";",
                "  permission java.util.PropertyPermission \"os.arch\", \"read\";",
                "  permission java.util.PropertyPermission \"java.io.tmpdir\", \"read\";",
                "  permission java.lang.RuntimePermission \"loadLibrary.jbigi\";",
                "};"), StandardCharsets.UTF_8);
        Path tmpdir = Files.createDirectory(scratch.resolve("tmp"));
        Process p = start(probeCommand(Arrays.asList("-Djava.io.tmpdir=" + tmpdir,
                "-Djava.security.manager", "-Djava.security.policy==" + policy)));
        BufferedReader out = reader(p);
        StringBuilder text = new StringBuilder();
        for (String line; (line = out.readLine()) != null; )
            text.append(line).append('\n');
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        String output = text.toString();
        assumeTrue(!output.contains("Security Manager is not supported"),
                "this JVM has no security manager: skipped\n" + output);
        assertFalse(output.contains("ExceptionInInitializerError"), output);
        assertEquals("false", field(output, "native"), output);
        assertTrue(field(output, "status").matches(".*(Security|AccessControl)Exception.*"), output);
        assertTrue(isEmpty(tmpdir), "left in java.io.tmpdir: " + list(tmpdir));
    }

    /**
     * A security manager with the JDK's default policy, which lets class-path
     * code read neither jbigi's properties nor /proc/cpuinfo nor load a
     * library: NativeBigInteger initialises anyway (twice asked, no
     * ExceptionInInitializerError, no NoClassDefFoundError), runs in pure
     * Java with a status saying why, and every result is right, through the
     * transparent and the explicit fixed-base paths too.  Skipped on JDKs
     * without a security manager (24 and later); the Java-version lane leaves
     * it out there by its tag.
     */
    @Test
    @Tag("security-manager")
    void defaultPolicySecurityManagerMeansPureJavaWithAStatus() throws Exception {
        Process p = start(probeCommand(Arrays.asList("-Djava.security.manager"), SecurityManagerProbe.class));
        BufferedReader out = reader(p);
        StringBuilder text = new StringBuilder();
        for (String line; (line = out.readLine()) != null; )
            text.append(line).append('\n');
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        String output = text.toString();
        assumeTrue(!output.contains("Security Manager is not supported"),
                "this JVM has no security manager: skipped\n" + output);
        assertEquals(0, p.exitValue(), output);
        assertFalse(output.contains("error="), output);
        assertFalse(output.contains("ExceptionInInitializerError") || output.contains("NoClassDefFoundError"), output);
        assertEquals("false", field(output, "native"), output);
        String status = field(output, "status");
        assertTrue(status.startsWith(JbigiLoader.NOT_LOADED) && status.contains("access denied"), output);
        assertEquals("true", field(output, "reused-base-right"), output);
        assertEquals(nativeDigest, field(output, "results"), output);
    }

    /**
     * An old jbigi (version 3 here, made for the test, from before release
     * marks) on java.library.path and a better one in the jar: the jar's is
     * loaded, the path's passed over before the JVM loads it, and the status
     * says why; -Djbigi.libraryPath=false gives the jar's too.
     */
    @Test
    void olderJbigiOnTheLibraryPathGivesWayToTheJars(@TempDir Path scratch) throws Exception {
        Path dir = standInJbigi(scratch, 3, "4, 1, 2");

        for (boolean usePath : new boolean[] {true, false}) {
            String out = loadWithPath(LoadProbe.class, dir, "-Djbigi.libraryPath=" + usePath);
            assertEquals("true", field(out, "native"), out);
            assertTrue(field(out, "resource").startsWith("libjbigi-linux-"), out);
            if (usePath)
                assertTrue(field(out, "status").contains("(no release mark), older than the jar's libjbigi-linux-"), out);
            assertEquals(nativeDigest, field(out, "results"), out);
        }
    }

    /**
     * Version skew as Debian has it: a jbigi-jni package of an older release
     * in /usr/lib/jni, on the JVM's default java.library.path, and a newer
     * jar.  A library marked with an older release is passed over for the
     * jar's own; one of the jar's release or a later one is loaded from the
     * path, as before.
     */
    @Test
    void libraryOnThePathIsComparedWithTheJarsByRelease(@TempDir Path scratch) throws Exception {
        String jarRelease = jarRelease();
        String[] parts = jarRelease.split("\\.");
        String newer = (Long.parseLong(parts[0]) + 1) + ".0.0";
        String older = parts.length > 1 && !parts[1].equals("0") ? parts[0] + ".0" : (Long.parseLong(parts[0]) - 1) + ".99";
        String[][] cases = {{older, "jar"}, {jarRelease, "path"}, {newer, "path"}};
        for (String[] c : cases) {
            Path dir = standInJbigi(Files.createDirectory(scratch.resolve("release-" + c[0])), 5, "6, 2, 1", c[0]);
            // The stand-in computes nothing: StatusProbe where it is loaded.
            String out = loadWithPath(c[1].equals("jar") ? LoadProbe.class : StatusProbe.class, dir);
            assertEquals("true", field(out, "native"), out);
            if (c[1].equals("jar")) {
                assertTrue(field(out, "resource").startsWith("libjbigi-linux-"), out);
                assertTrue(field(out, "status").contains("is release " + c[0] + ", older than the jar's"), out);
                assertEquals(nativeDigest, field(out, "results"), out);
            } else {
                assertTrue(field(out, "status").startsWith(JbigiLoader.FROM_FILE), "release " + c[0] + ": " + out);
            }
        }
    }

    /** The release marked in the first Linux library of the jar under test. */
    private static String jarRelease() throws IOException {
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(jar())) {
            java.util.jar.JarEntry entry = jar.stream().filter(e -> e.getName().matches("libjbigi-linux-.*\\.so"))
                    .findFirst().orElse(null);
            assumeTrue(entry != null, "the jar carries no Linux library: skipped");
            String release = LibraryRelease.read(jar.getInputStream(entry));
            assertTrue(release != null, entry.getName() + " in the jar has no release mark");
            return release;
        }
    }

    /** A probe's output with the jar, the directory as java.library.path, and the JVM options. */
    private static String loadWithPath(Class<?> probe, Path dir, String... options) throws Exception {
        List<String> command = Subprocess.javaCommand();
        command.add("-Djava.library.path=" + dir);
        command.addAll(Arrays.asList(options));
        command.addAll(Arrays.asList("-cp", jar() + File.pathSeparator + Subprocess.testClasses(),
                probe.getName()));
        Process p = start(command);
        return finish(p, reader(p), "");
    }

    /**
     * I2P's own library (version 4: the I2P natives, no fixed-length
     * modPowCT) on java.library.path: loaded, and the status says its
     * modPowCT is weaker than this project's.  A stand-in with the version
     * queries only, made for the test; nothing is computed with it.
     */
    @Test
    void i2psOwnLibraryIsLoadedWithAWeakerModPowCTSaid(@TempDir Path scratch) throws Exception {
        Path dir = standInJbigi(scratch, 4, "6, 2, 1");
        List<String> command = Subprocess.javaCommand();
        command.addAll(Arrays.asList("-Djava.library.path=" + dir,
                "-cp", Subprocess.mainClasses() + File.pathSeparator + Subprocess.testClasses(),
                StatusProbe.class.getName()));
        Process p = start(command);
        String out = finish(p, reader(p), "");
        assertEquals("true", field(out, "native"), out);
        assertTrue(field(out, "status").contains("modPowCT is weaker with this older jbigi"), out);
    }

    /**
     * A directory holding a stand-in libjbigi.so, made for a test, with the
     * version queries only: jbigi version, and GMP's "major, minor, patch".
     * Skips the test (assumption) where no C compiler or JDK headers are.
     */
    private static Path standInJbigi(Path scratch, int version, String gmpVersion) throws Exception {
        return standInJbigi(scratch, version, gmpVersion, null);
    }

    /** The same, marked with a release as the project's libraries are (none if null). */
    private static Path standInJbigi(Path scratch, int version, String gmpVersion, String release) throws Exception {
        Path dir = Files.createDirectory(scratch.resolve("i2p"));
        Path source = scratch.resolve("jbigi.c");
        String[] gmp = gmpVersion.split(", ");
        Files.write(source, Arrays.asList(
                "#include <jni.h>",
                "#define V(n, r) JNIEXPORT jint JNICALL Java_net_i2p_util_NativeBigInteger_##n(JNIEnv *e, jclass c) \\",
                "    { (void)e; (void)c; return r; }",
                "V(nativeJbigiVersion, " + version + ") V(nativeGMPMajorVersion, " + gmp[0]
                        + ") V(nativeGMPMinorVersion, " + gmp[1] + ") V(nativeGMPPatchVersion, " + gmp[2] + ")",
                release == null ? "" : "__attribute__((used)) static const char mark[] = \"" + LibraryRelease.MARK + release + "\";"),
                StandardCharsets.UTF_8);
        // A runtime without them (Debian's -jre-headless packages) is given
        // another JDK's: the stand-in's few functions are the same in all.
        Path include = Paths.get(System.getProperty("jbigi.test.jniInclude",
                Paths.get(System.getProperty("java.home"), "include").toString()));
        assumeTrue(Files.isDirectory(include), "no JDK headers in " + include + ": skipped");
        Process cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-o", dir.resolve("libjbigi.so").toString(),
                "-I" + include, "-I" + include.resolve("linux"), source.toString()).redirectErrorStream(true).start();
        assumeTrue(cc.waitFor(1, TimeUnit.MINUTES) && cc.exitValue() == 0, "cannot compile the stand-in library: skipped");
        return dir;
    }
}
