package net.i2p.util;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a class in a fresh JVM, for the tests of loading (which happens once per JVM). */
final class Subprocess {
    final int exitCode;
    final String output;

    private Subprocess(int exitCode, String output) {
        this.exitCode = exitCode;
        this.output = output;
    }

    /** java [jvmOptions] -cp classPath mainClass [args], stdout and stderr together. */
    static Subprocess run(String classPath, List<String> jvmOptions, String mainClass, String... args)
            throws IOException, InterruptedException {
        return runWithEnvironment(Collections.<String, String>emptyMap(), classPath, jvmOptions, mainClass, args);
    }

    /** The same, with these variables added to the environment. */
    static Subprocess runWithEnvironment(Map<String, String> environment, String classPath, List<String> jvmOptions,
            String mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = javaCommand();
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (InputStream in = process.getInputStream()) {
            byte[] chunk = new byte[8192];
            int n;
            while ((n = in.read(chunk)) > 0)
                buffer.write(chunk, 0, n);
        }
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        return new Subprocess(process.exitValue(), new String(buffer.toByteArray(), StandardCharsets.UTF_8));
    }

    /**
     * This JVM's java launcher, and on JDK 17 and later the option the README
     * gives class-path users (without it JDK 24 and later print a
     * native-access warning, which the tests that read a child's output
     * would take for the library's).  JDK 8 to 16 reject the option.
     */
    static List<String> javaCommand() {
        List<String> command = new ArrayList<String>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        if (javaFeatureVersion() >= 17)
            command.add("--enable-native-access=ALL-UNNAMED");
        return command;
    }

    /** 8 for Java 8 ("1.8"), else the feature version: 11, 17, 25... */
    static int javaFeatureVersion() {
        String v = System.getProperty("java.specification.version");
        return Integer.parseInt(v.startsWith("1.") ? v.substring(2) : v);
    }

    /** The class path entry holding the given class file, e.g. the main or the test classes. */
    static String entryHolding(String classFile) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (new File(entry, classFile).isFile())
                return entry;
        }
        throw new IllegalStateException(classFile + " is in no directory of the class path");
    }

    static String mainClasses() {
        return entryHolding("net/i2p/util/NativeBigInteger.class");
    }

    static String testClasses() {
        return entryHolding("net/i2p/util/Subprocess.class");
    }
}
