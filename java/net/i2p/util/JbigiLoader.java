package net.i2p.util;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
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
    /** Why, when the JVM refuses this code native access (JDK 24 and later, --illegal-native-access=deny). */
    static final String NATIVE_ACCESS_DENIED = "this JVM denies jbigi native access"
            + " (--illegal-native-access=deny): run java with --enable-native-access=ALL-UNNAMED"
            + " (jar on the class path) or --enable-native-access=net.i2p.jbigi (on the module path)";

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
        /** The engine for 2048-bit moduli: "avx512-ifma", "adx" or "gmp" (null if not loaded). */
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

        /**
         * Pure Java after an error thrown while loading, by anything, this
         * class's own initialisation included: never throws (with no memory
         * left even for the message, the status is the bare NOT_LOADED).
         */
        static Result afterError(Throwable error) {
            String status = NOT_LOADED;
            try {
                status = NOT_LOADED + " (" + error + ")";
            } catch (Throwable e) { // OutOfMemoryError while building the message
            }
            return new Result(false, status, null, 0, null, CpuInfo.none(), false, null);
        }
    }

    private JbigiLoader() {
    }

    /**
     * Never throws: whatever goes wrong (a library refused, a file system
     * mounted noexec, a security manager, a broken jar, native access
     * denied, an OutOfMemoryError or any other Error) ends in the pure-Java
     * fallback with a status saying why, never in an
     * ExceptionInInitializerError of NativeBigInteger.
     */
    static Result load() {
        try {
            return detectAndLoad();
        } catch (Throwable e) { // an Error: NativeBigInteger must still work, in pure Java
            Result result = Result.afterError(e);
            debug(result.status);
            return result;
        }
    }

    private static Result detectAndLoad() {
        CpuInfo cpu;
        try {
            cpu = CpuInfo.detect();
        } catch (RuntimeException | LinkageError e) {
            return notLoaded(NOT_LOADED + " (cannot read the CPU's features: " + e + ")", null);
        }
        try {
            return load(cpu);
        } catch (RuntimeException | LinkageError e) {
            return notLoaded(NOT_LOADED + " (" + e + ")", cpu);
        }
    }

    /*
     * The order, and why: a jbigi on java.library.path wins whenever it loads
     * and is version 4 or later, unless the jar carries one of a later release
     * (LibraryRelease reads both files before either is loaded): then the
     * jar's come first and the path's is tried after them.  The path's is
     * what the administrator installed (an I2P install directory holds
     * exactly one, Debian's jbigi-jni package puts one in /usr/lib/jni), and
     * the JVM cannot have two: native methods would bind to either library,
     * so the choice is made before loading.  A version 4 library (I2P's) is
     * used with negative exponents done in Java; an older one leaves this JVM
     * in pure Java, and the status names the bundled library that could not
     * be used beside it: remove the old file, or run with
     * -Djbigi.libraryPath=false, to use the bundled one.
     */
    private static Result load(CpuInfo cpu) {
        if (!JbigiProperties.getBoolean("jbigi.enable", true))
            return notLoaded(DISABLED, cpu);

        List<String> problems = new ArrayList<String>();
        String forced = JbigiProperties.get("jbigi.variant", null);
        List<String> names = forced == null ? resourceNames(cpu) : forcedName(forced);
        boolean usePath = forced == null && JbigiProperties.getBoolean("jbigi.libraryPath", true);
        // A library on the path older than the jar's own is tried after the jar's (LibraryRelease).
        String older = null;
        if (usePath) {
            Path onPath = LibraryRelease.onLibraryPath();
            older = onPath == null ? null : LibraryRelease.olderThanBundled(onPath, names);
        }
        if (usePath && older == null) {
            Result fromPath = loadFromPath(cpu, problems);
            if (fromPath != null)
                return fromPath;
        }
        if (older != null)
            problems.add(older);

        if (names.isEmpty())
            problems.add("no bundled library is meant for this system (os.name \""
                    + JbigiProperties.get("os.name", "unknown") + "\", os.arch \"" + CpuInfo.arch()
                    + "\", CPU type " + cpu.type() + ")");
        Path tmpdir = null;
        try {
            if (!names.isEmpty())
                tmpdir = extractionDirectory();
        } catch (RuntimeException | IOException e) {
            problems.add(e.getMessage());
        }
        for (String name : tmpdir == null ? new ArrayList<String>() : names) {
            String status = "Native BigInteger library " + name + " loaded from resource";
            try {
                if (loadResource(name, tmpdir))
                    return loaded(status, name, cpu, problems);
            } catch (IOException e) {
                problems.add(name + ": " + e);
            } catch (UnsatisfiedLinkError e) {
                problems.add(name + ": " + refusal(String.valueOf(e.getMessage())));
            } catch (RuntimeException | LinkageError e) {
                if (nativeAccessDenied(e))
                    return notLoaded(NOT_LOADED + " (" + NATIVE_ACCESS_DENIED + ")", cpu);
                problems.add(name + ": " + e);
            }
        }
        if (older != null) {
            Result fromPath = loadFromPath(cpu, problems);
            if (fromPath != null)
                return fromPath;
        }
        String why = problems.isEmpty() ? "" : " (" + String.join("; ", problems) + ")";
        return notLoaded(NOT_LOADED + why, cpu);
    }

    /**
     * System.loadLibrary("jbigi"): the result, or null with the reason added
     * to problems (none when there is no such library on the path).
     */
    private static Result loadFromPath(CpuInfo cpu, List<String> problems) {
        try {
            System.loadLibrary("jbigi");
            return loaded(FROM_FILE, null, cpu, problems);
        } catch (UnsatisfiedLinkError e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains("java.library.path"))
                debug("System.loadLibrary(\"jbigi\") failed: " + message);
            else
                problems.add("libjbigi.so on java.library.path: " + refusal(message));
        } catch (RuntimeException | LinkageError e) {
            if (nativeAccessDenied(e))
                return notLoaded(NOT_LOADED + " (" + NATIVE_ACCESS_DENIED + ")", cpu);
            problems.add("System.loadLibrary(\"jbigi\"): " + e);
        }
        return null;
    }

    /**
     * Whether System.load or loadLibrary failed because the JVM denies this
     * code native access: JDK 24 and later throw IllegalCallerException
     * (a Java 9 class, hence the name) under --illegal-native-access=deny.
     */
    static boolean nativeAccessDenied(Throwable e) {
        return e.getClass().getName().equals("java.lang.IllegalCallerException");
    }

    /** What an UnsatisfiedLinkError from loading a library means, in a user's words. */
    private static String refusal(String message) {
        // JNI_OnLoad's CPUID check, which says what is missing in the error it throws.
        if (message.contains("this CPU cannot run"))
            return "refused by its CPU check: " + message;
        // JNI_OnLoad returned JNI_ERR without saying why (an older build of the check).
        if (message.contains("unsupported JNI version"))
            return "refused by its CPU check: this CPU lacks instructions the library was built for";
        return "not a usable library here: " + message;
    }

    /** -Djbigi.variant=CPU: only that row of the table (for tests, and to choose by hand). */
    private static List<String> forcedName(String cpu) {
        List<String> names = new ArrayList<String>();
        String os = osName();
        if (os != null && cpu.matches("[a-z0-9]+"))
            names.add(resourceName(os, cpu));
        return names;
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
            return notLoaded(NOT_LOADED + " (the jbigi found has no version query: too old"
                    + notUsedBeside(resourceName, cpu) + ")", cpu);
        }
        if (version < OLDEST_USABLE_VERSION)
            return notLoaded(NOT_LOADED + " (" + (resourceName == null ? "the jbigi on java.library.path" : resourceName)
                    + " is version " + version
                    + ", this class needs " + OLDEST_USABLE_VERSION + " or later" + notUsedBeside(resourceName, cpu)
                    + ")", cpu);
        // A library ranked higher refused by its CPU check (this CPU lacks what it was built for), or unusable: say which.
        if (!problems.isEmpty())
            status += " (not the first choice: " + String.join("; ", problems) + ")";
        debug(status);
        return new Result(true, status, resourceName, version, gmp, cpu.withLoadedType(Engine.variant()),
                FixedBase.nativesWork(), Engine.select());
    }

    /** For a too-old library from java.library.path: the bundled one that cannot be loaded beside it. */
    private static String notUsedBeside(String resourceName, CpuInfo cpu) {
        if (resourceName != null)
            return "";
        for (String name : resourceNames(cpu)) {
            if (JbigiLoader.class.getResource("/" + name) != null)
                return "; the jar's " + name + " cannot be loaded beside it: remove the old library"
                        + " or set -Djbigi.libraryPath=false";
        }
        return "";
    }

    private static Result notLoaded(String status, CpuInfo cpu) {
        debug(status);
        if (cpu == null)
            cpu = CpuInfo.none();
        return new Result(false, status, null, 0, null, cpu, false, null);
    }

    /**
     * I2P's names for bundled libraries, best first: libjbigi-linux-zen2_64.so
     * ... -none_64.so on Linux, jbigi-windows-zen2_64.dll ... on Windows.
     */
    static List<String> resourceNames(CpuInfo cpu) {
        List<String> names = new ArrayList<String>();
        String os = osName();
        if (os == null)
            return names;
        for (String type : cpu.compatibleTypes())
            names.add(resourceName(os, type));
        return names;
    }

    /**
     * I2P's name: libjbigi-linux-zen2_64.so for a 64-bit JVM,
     * libjbigi-linux-armv7.so for a 32-bit one; on Windows
     * jbigi-windows-zen2_64.dll (no "lib", I2P's own spelling there).
     */
    static String resourceName(String os, String type) {
        boolean is64 = "64".equals(JbigiProperties.get("sun.arch.data.model", "64"));
        boolean windows = os.equals("windows");
        return (windows ? "" : "lib") + "jbigi-" + os + "-" + type + (is64 ? "_64" : "") + (windows ? ".dll" : ".so");
    }

    private static String osName() {
        String os = JbigiProperties.get("os.name", "").toLowerCase(Locale.US);
        if (os.contains("linux"))
            return "linux";
        if (os.startsWith("windows"))
            return "windows";
        if (os.contains("kfreebsd"))
            return "kfreebsd";
        if (os.contains("freebsd"))
            return "freebsd";
        return null;
    }

    /**
     * Where libraries are extracted: -Djbigi.tmpdir, else java.io.tmpdir.
     * Refused up front when that file system is mounted noexec, where no
     * library can be loaded from.
     */
    static Path extractionDirectory() throws IOException {
        String configured = JbigiProperties.get("jbigi.tmpdir", null);
        Path dir = Paths.get(configured != null ? configured : JbigiProperties.get("java.io.tmpdir", "/tmp"));
        if (!Files.isDirectory(dir))
            throw new IOException((configured != null ? "-Djbigi.tmpdir=" : "java.io.tmpdir ") + dir
                    + " is not a directory");
        if (mountedNoexec(dir))
            throw new IOException((configured != null ? "-Djbigi.tmpdir=" : "java.io.tmpdir ") + dir
                    + " is on a file system mounted noexec, from which no library can be loaded:"
                    + " set -Djbigi.tmpdir to a directory on one that is not");
        return dir;
    }

    /** Whether dir's mount (the longest mount point above it in /proc/self/mountinfo) has noexec. */
    static boolean mountedNoexec(Path dir) {
        Path real;
        List<String> lines;
        try {
            real = dir.toRealPath();
            lines = Files.readAllLines(Paths.get("/proc/self/mountinfo"), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return false; // not Linux: System.load will say
        }
        int best = -1;
        boolean noexec = false;
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f.length < 6)
                continue;
            // Mount points escape blanks as \040.
            Path point = Paths.get(f[4].replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\"));
            int depth = point.getNameCount();
            if (real.startsWith(point) && depth >= best) {
                best = depth;
                noexec = Arrays.asList(f[5].split(",")).contains("noexec");
            }
        }
        return noexec;
    }

    /**
     * Copies the resource to a new file in a new directory under base that
     * only this user can read (names chosen by the JDK, not guessable), and
     * loads it.  On POSIX systems the file and its directory are deleted
     * right after loading, whether it worked or not: the mapping stays, and
     * a JVM killed with kill -9 leaves nothing behind.  Elsewhere (Windows
     * cannot delete a loaded DLL) they are deleted when the JVM exits.
     * Returns false if the jar has no such resource.
     */
    private static boolean loadResource(String name, Path base) throws IOException {
        InputStream in = JbigiLoader.class.getResourceAsStream("/" + name);
        if (in == null)
            return false;
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        Path dir;
        Path file;
        try {
            if (posix) {
                FileAttribute<?> ownerDir = PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------"));
                FileAttribute<?> ownerFile = PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-------"));
                dir = Files.createTempDirectory(base, "jbigi", ownerDir);
                file = Files.createTempFile(dir, "libjbigi", ".so", ownerFile);
            } else {
                // Windows: java.io.tmpdir is the user's own (%TEMP% in the
                // profile), the directory's name is the JDK's random one, and a
                // loaded DLL cannot be deleted while the JVM runs: copies left
                // by earlier JVMs are removed here, where no longer in use.
                removeStaleCopies(base);
                dir = Files.createTempDirectory(base, COPY_PREFIX);
                file = Files.createTempFile(dir, "jbigi", name.endsWith(".dll") ? ".dll" : ".so");
                // Registered in this order, deleted in the reverse: file, then directory.
                dir.toFile().deleteOnExit();
                file.toFile().deleteOnExit();
            }
            try {
                // Into the file just made, keeping its owner-only permissions
                // (Files.copy with REPLACE_EXISTING would make a new file with the umask's).
                try (OutputStream out = Files.newOutputStream(file)) {
                    byte[] buffer = new byte[8192];
                    for (int n; (n = in.read(buffer)) > 0;)
                        out.write(buffer, 0, n);
                }
            } catch (IOException | RuntimeException e) {
                deleteQuietly(file, dir);
                throw e;
            }
        } finally {
            in.close();
        }
        try {
            System.load(file.toAbsolutePath().toString());
        } finally {
            if (posix)
                deleteQuietly(file, dir);
        }
        return true;
    }

    /** The directories of copies that outlive their JVM (Windows). */
    static final String COPY_PREFIX = "jbigi-copy-";
    /** Copies younger than this may still be on their way to System.load. */
    private static final long STALE_MILLIS = 10 * 60 * 1000L;

    /**
     * Deletes the copies earlier JVMs left in base (directories named
     * COPY_PREFIX..., older than STALE_MILLIS).  A copy another running JVM
     * has loaded cannot be deleted on Windows and stays; nothing else in
     * base is touched.  Best effort: never throws.
     */
    static void removeStaleCopies(Path base) {
        long now = System.currentTimeMillis();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, COPY_PREFIX + "*")) {
            for (Path dir : dirs) {
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                        || now - Files.getLastModifiedTime(dir).toMillis() < STALE_MILLIS)
                    continue;
                try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                    for (Path f : files)
                        Files.deleteIfExists(f);
                    Files.deleteIfExists(dir);
                } catch (IOException | RuntimeException e) {
                    debug("kept " + dir + " (in use?): " + e);
                }
            }
        } catch (IOException | RuntimeException e) {
            debug("could not look for old copies in " + base + ": " + e);
        }
    }

    private static void deleteQuietly(Path file, Path dir) {
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        } catch (IOException | RuntimeException e) {
            debug("could not delete " + file + ": " + e);
        }
    }

    /** Best effort: never throws, as it also reports errors while loading. */
    private static void debug(String message) {
        try {
            if (JbigiProperties.getBoolean("jbigi.debug", false))
                System.err.println("jbigi: " + message);
        } catch (Throwable e) { // an Error while printing: the status still says it
        }
    }
}
