package net.i2p.util;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The release a jbigi library comes from, read from the file without loading
 * it: every library since 5.0.0 carries the text "jbigi-release: VERSION"
 * (src/jni/onload.c).  A JVM holds one jbigi only, and Debian's OpenJDK has
 * /usr/lib/jni, where the jbigi-jni package installs one, on its default
 * java.library.path: so before it loads the library on that path, the
 * loader compares it with the one its jar carries and passes over an older
 * one (a library without the mark is older than every library with one).
 */
final class LibraryRelease {
    static final String MARK = "jbigi-release: ";
    /** Longer than any jbigi: a file beyond it is not read (and counts as unmarked). */
    private static final long MAX_BYTES = 64L << 20;
    private static final Pattern VERSION = Pattern.compile("[0-9]+(\\.[0-9]+)*");

    private LibraryRelease() {
    }

    /**
     * The release marked in the stream, read to the mark (the first) or to
     * the end, or null when it has none.  The mark's first byte occurs in it
     * once, so a failed partial match restarts at that byte.
     */
    static String read(InputStream in) throws IOException {
        byte[] mark = MARK.getBytes(StandardCharsets.US_ASCII);
        byte[] buffer = new byte[65536];
        int matched = 0;
        StringBuilder version = null;
        long total = 0;
        for (int n; (n = in.read(buffer)) > 0 && total < MAX_BYTES;) {
            total += n;
            for (int i = 0; i < n; i++) {
                byte b = buffer[i];
                if (version != null) {
                    if ((b >= '0' && b <= '9' || b == '.') && version.length() < 64) {
                        version.append((char) b);
                        continue;
                    }
                    String v = version.toString();
                    if (VERSION.matcher(v).matches())
                        return v;
                    version = null;
                    matched = 0;
                }
                if (b == mark[matched]) {
                    if (++matched == mark.length)
                        version = new StringBuilder();
                } else {
                    matched = b == mark[0] ? 1 : 0;
                }
            }
        }
        return version != null && VERSION.matcher(version).matches() ? version.toString() : null;
    }

    /** The release marked in a file, or null when it has none. */
    static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    /** Compares two dotted versions, part by part as numbers ("5.10" is after "5.9"). */
    static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            long p = i < x.length ? Long.parseLong(x[i]) : 0;
            long q = i < y.length ? Long.parseLong(y[i]) : 0;
            if (p != q)
                return p < q ? -1 : 1;
        }
        return 0;
    }

    /**
     * The file System.loadLibrary("jbigi") would load: the first
     * libjbigi.so (jbigi.dll, ...) in sun.boot.library.path, then
     * java.library.path, an empty entry meaning the current directory, as
     * the JDK searches them; null when there is none or it cannot be told.
     */
    static Path onLibraryPath() {
        try {
            String name = System.mapLibraryName("jbigi");
            for (String property : new String[] {"sun.boot.library.path", "java.library.path"}) {
                String value = JbigiProperties.get(property, null);
                if (value == null)
                    continue;
                for (String dir : value.split(Pattern.quote(File.pathSeparator), -1)) {
                    File file = new File(dir.isEmpty() ? "." : dir, name);
                    if (file.isFile())
                        return file.toPath();
                }
            }
        } catch (RuntimeException e) { // a security manager: loadLibrary will say
        }
        return null;
    }

    /**
     * Why the library on java.library.path is passed over: it is older than
     * the first of the jar's candidates (resource names, best first) that
     * the jar carries.  Null when it is not older, or either release cannot
     * be read (then the library on the path is loaded, as always).
     */
    static String olderThanBundled(Path onPath, List<String> candidates) {
        try {
            for (String name : candidates) {
                InputStream in = LibraryRelease.class.getResourceAsStream("/" + name);
                if (in == null)
                    continue;
                String bundled;
                try {
                    bundled = read(in);
                } finally {
                    in.close();
                }
                if (bundled == null)
                    return null;
                String installed = read(onPath);
                if (installed != null && compare(installed, bundled) >= 0)
                    return null;
                return onPath + " on java.library.path is "
                        + (installed == null ? "from before release " + bundled + " (no release mark)"
                                : "release " + installed)
                        + ", older than the jar's " + name + " (release " + bundled + "), tried first";
            }
        } catch (IOException | RuntimeException e) { // unreadable: the path's library is tried as always
        }
        return null;
    }
}
