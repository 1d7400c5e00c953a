package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JDK 24 and later restrict loading native code: a warning on stderr
 * unless native access is enabled, and with --illegal-native-access=deny
 * an IllegalCallerException.  The jar's manifest enables
 * it for java -jar; a class-path user passes the flag; and where it is
 * denied the status must say so and name the flag.  These tests need a JDK
 * 24 or later beside the one running them (-Djbigi.test.newJava=.../bin/java,
 * or one under /usr/lib/jvm); without one they are skipped.
 */
class NativeAccessTest {
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    /** A java launcher of JDK 24 or later, or null. */
    static String newerJava() throws IOException {
        String configured = System.getProperty("jbigi.test.newJava");
        if (configured != null)
            return new File(configured).canExecute() ? configured : null;
        Path jvms = Paths.get("/usr/lib/jvm");
        if (!Files.isDirectory(jvms))
            return null;
        try (DirectoryStream<Path> homes = Files.newDirectoryStream(jvms)) {
            for (Path home : homes) {
                Path release = home.resolve("release");
                Path java = home.resolve("bin/java");
                if (!Files.isRegularFile(release) || !Files.isExecutable(java))
                    continue;
                Matcher m = VERSION.matcher(new String(Files.readAllBytes(release), StandardCharsets.UTF_8));
                if (m.find() && Integer.parseInt(m.group(1)) >= 24)
                    return java.toString();
            }
        }
        return null;
    }

    private static String jar() {
        String jar = System.getProperty("jbigi.test.jar", "build/jbigi.jar");
        assertTrue(new File(jar).isFile(), jar + " not built");
        return jar;
    }

    /** Runs java with these arguments; returns {stdout, stderr}. */
    private static String[] run(Path scratch, List<String> command) throws Exception {
        Path out = scratch.resolve("out.txt");
        Path err = scratch.resolve("err.txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "hung: " + command);
        String[] result = {new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
                new String(Files.readAllBytes(err), StandardCharsets.UTF_8)};
        assertEquals(0, p.exitValue(), command + "\n" + result[0] + result[1]);
        return result;
    }

    private static List<String> probe(String java, String... options) {
        List<String> command = new ArrayList<String>();
        command.add(java);
        command.add("-Djava.library.path=/nonexistent");
        command.addAll(Arrays.asList(options));
        command.addAll(Arrays.asList("-cp", jar() + File.pathSeparator + Subprocess.testClasses(),
                LoadProbe.class.getName()));
        return command;
    }

    private static String field(String output, String name) {
        for (String line : output.split("\n")) {
            if (line.startsWith(name + "="))
                return line.substring(name.length() + 1);
        }
        throw new AssertionError("no " + name + "= line in:\n" + output);
    }

    /** java -jar: the manifest's Enable-Native-Access keeps stderr empty, and the library loads. */
    @Test
    void javaDashJarIsSilentAndNative(@TempDir Path scratch) throws Exception {
        String java = newerJava();
        assumeTrue(java != null, "no JDK 24 or later here: skipped");
        String[] r = run(scratch, Arrays.asList(java, "-Djava.library.path=/nonexistent", "-jar", jar(), "-n"));
        assertEquals("", r[1], "stderr of java -jar on " + java);
        assertTrue(r[0].contains("loaded from resource"), r[0]);
    }

    /** Denied: pure Java, right results, and a status that names the way out. */
    @Test
    void deniedNativeAccessIsInTheStatusWithTheFlag(@TempDir Path scratch) throws Exception {
        String java = newerJava();
        assumeTrue(java != null, "no JDK 24 or later here: skipped");
        String[] r = run(scratch, probe(java, "--illegal-native-access=deny"));
        assertEquals("false", field(r[0], "native"), r[0]);
        String status = field(r[0], "status");
        assertTrue(status.startsWith(JbigiLoader.NOT_LOADED), status);
        assertTrue(status.contains("--illegal-native-access=deny") && status.contains("--enable-native-access=ALL-UNNAMED"),
                status);
        assertEquals(LoadProbe.digest(), field(r[0], "results"));
        assertEquals("", r[1]);
    }

    /** The flag the README gives class-path users: native, and nothing on stderr. */
    @Test
    void enableNativeAccessOnTheClassPathIsNativeAndSilent(@TempDir Path scratch) throws Exception {
        String java = newerJava();
        assumeTrue(java != null, "no JDK 24 or later here: skipped");
        String[] r = run(scratch, probe(java, "--illegal-native-access=deny", "--enable-native-access=ALL-UNNAMED"));
        assertEquals("true", field(r[0], "native"), r[0]);
        assertEquals("", r[1]);
    }

    /** Recognised by class name, as the loader is compiled for Java 8. */
    @Test
    void illegalCallerExceptionMeansNativeAccessDenied() {
        assertTrue(JbigiLoader.nativeAccessDenied(new IllegalCallerException("Illegal native access")));
        assertFalse(JbigiLoader.nativeAccessDenied(new SecurityException("access denied")));
    }

    /** An Error while loading still gives a usable pure-Java result, its status naming the error. */
    @Test
    void anErrorWhileLoadingMeansPureJavaWithAStatus() {
        JbigiLoader.Result r = JbigiLoader.Result.afterError(new OutOfMemoryError("Java heap space"));
        assertFalse(r.loaded);
        assertTrue(r.status.startsWith(JbigiLoader.NOT_LOADED) && r.status.contains("OutOfMemoryError"), r.status);
        assertEquals("unrecognized", r.cpu.type());
    }
}
