package net.i2p.util;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds and loads the jbigi library for {@link NativeBigInteger}, once, in
 * the order its class comment gives, and records what happened.
 */
final class JbigiLoader {
    static final String FROM_FILE = "Locally optimized native BigInteger library loaded from file";
    static final String NOT_LOADED = "Native BigInteger library jbigi not loaded - using pure Java";
    static final String DISABLED = NOT_LOADED + " (disabled by -Djbigi.enable=false)";

    /** Interface versions this class can drive: 4 lacks negative exponents only. */
    private static final int OLDEST_USABLE_VERSION = 4;

    /** What loading found.  Immutable. */
    static final class Result {
        final boolean loaded;
        final String status;
        final String resourceName;
        final int jbigiVersion;
        final String gmpVersion;
        final CpuInfo cpu;
        /** The library also has the fixed-base natives (this project's, not I2P's). */
        final boolean fixedBase;
        /** The engine for large moduli: "avx512-ifma" or "gmp" (null if not loaded). */
        final String engine;

        Result(boolean loaded, String status, String resourceName, int jbigiVersion,
               String gmpVersion, CpuInfo cpu, boolean fixedBase, String engine) {
            this.loaded = loaded;
            this.status = status;
            this.resourceName = resourceName;
            this.jbigiVersion = jbigiVersion;
            this.gmpVersion = gmpVersion;
            this.cpu = cpu;
            this.fixedBase = fixedBase;
            this.engine = engine;
        }
    }

    private JbigiLoader() {
    }

    static Result load() {
        CpuInfo cpu = CpuInfo.detect();
        if (!Boolean.parseBoolean(System.getProperty("jbigi.enable", "true")))
            return notLoaded(DISABLED, cpu);

        List<String> problems = new ArrayList<String>();
        try {
            System.loadLibrary("jbigi");
            return loaded(FROM_FILE, null, cpu, problems);
        } catch (UnsatisfiedLinkError e) {
            debug("System.loadLibrary(\"jbigi\") failed: " + e.getMessage());
        } catch (SecurityException e) {
            debug("System.loadLibrary(\"jbigi\") not allowed: " + e.getMessage());
        }

        for (String name : resourceNames(cpu)) {
            String status = "Native BigInteger library " + name + " loaded from resource";
            try {
                if (loadResource(name))
                    return loaded(status, name, cpu, problems);
            } catch (IOException e) {
                problems.add(name + ": " + e);
            } catch (UnsatisfiedLinkError e) {
                problems.add(name + ": not a usable library here: " + e.getMessage());
            }
        }
        String why = problems.isEmpty() ? "" : " (" + String.join("; ", problems) + ")";
        return notLoaded(NOT_LOADED + why, cpu);
    }

    /** Checks that what was loaded is a jbigi this class can drive. */
    private static Result loaded(String status, String resourceName, CpuInfo cpu, List<String> problems) {
        int version;
        String gmp;
        try {
            version = NativeBigInteger.nativeJbigiVersion();
            gmp = NativeBigInteger.nativeGMPMajorVersion() + "."
                    + NativeBigInteger.nativeGMPMinorVersion() + "."
                    + NativeBigInteger.nativeGMPPatchVersion();
        } catch (UnsatisfiedLinkError e) {
            // A library from before version queries existed.
            return notLoaded(NOT_LOADED + " (the jbigi found has no version query: too old)", cpu);
        }
        if (version < OLDEST_USABLE_VERSION)
            return notLoaded(NOT_LOADED + " (the jbigi found is version " + version
                    + ", this class needs " + OLDEST_USABLE_VERSION + " or later)", cpu);
        debug(status);
        return new Result(true, status, resourceName, version, gmp, cpu, FixedBase.nativesWork(), Engine.select());
    }

    private static Result notLoaded(String status, CpuInfo cpu) {
        debug(status);
        return new Result(false, status, null, 0, null, cpu, false, null);
    }

    /** I2P's names for bundled libraries, best first: libjbigi-linux-zen2_64.so ... -none_64.so */
    static List<String> resourceNames(CpuInfo cpu) {
        List<String> names = new ArrayList<String>();
        String os = osName();
        if (os == null)
            return names;
        boolean is64 = "64".equals(System.getProperty("sun.arch.data.model", "64"));
        for (String type : cpu.compatibleTypes())
            names.add("lib" + "jbigi-" + os + "-" + type + (is64 ? "_64" : "") + ".so");
        return names;
    }

    private static String osName() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.US);
        if (os.contains("linux"))
            return "linux";
        if (os.contains("kfreebsd"))
            return "kfreebsd";
        if (os.contains("freebsd"))
            return "freebsd";
        return null;
    }

    /**
     * Copies the resource to a new file in a new directory that only this
     * user can read (names chosen by the JDK, not guessable), loads it, and
     * has both deleted when the JVM exits.  Returns false if the jar has no
     * such resource.
     */
    private static boolean loadResource(String name) throws IOException {
        InputStream in = JbigiLoader.class.getResourceAsStream("/" + name);
        if (in == null)
            return false;
        Path dir;
        Path file;
        try {
            boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
            if (posix) {
                FileAttribute<?> ownerDir = PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------"));
                FileAttribute<?> ownerFile = PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-------"));
                dir = Files.createTempDirectory("jbigi", ownerDir);
                file = Files.createTempFile(dir, "libjbigi", ".so", ownerFile);
            } else {
                dir = Files.createTempDirectory("jbigi");
                file = Files.createTempFile(dir, "libjbigi", ".so");
            }
            // Registered in this order, deleted in the reverse: file, then directory.
            dir.toFile().deleteOnExit();
            file.toFile().deleteOnExit();
            // Into the file just made, keeping its owner-only permissions
            // (Files.copy with REPLACE_EXISTING would make a new file with the umask's).
            OutputStream out = Files.newOutputStream(file);
            try {
                byte[] buffer = new byte[8192];
                for (int n; (n = in.read(buffer)) > 0;)
                    out.write(buffer, 0, n);
            } finally {
                out.close();
            }
        } finally {
            in.close();
        }
        System.load(file.toAbsolutePath().toString());
        return true;
    }

    private static void debug(String message) {
        if (Boolean.getBoolean("jbigi.debug"))
            System.err.println("jbigi: " + message);
    }
}
