package net.i2p.util;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Run in a fresh JVM by LoaderSafetyTest, with the jar on the class path and
 * no library on java.library.path, so that the library is extracted from the
 * jar.  While still alive it reports where the library it has mapped lives
 * and who may read that file and its directory.
 *
 * With a file name as argument it first prints "ready" and waits until that
 * file exists, so that several JVMs can be made to load at the same moment.
 * With "hold" as argument it prints "holding" at the end and waits to be
 * killed.
 *
 * The loader deletes the extracted file right after loading it, so the
 * file's permissions are read through /proc/self/map_files (the mapping's
 * own link to the deleted file), where the system allows that.
 */
public final class ExtractionProbe {
    public static void main(String[] args) throws Exception {
        boolean hold = args.length > 0 && args[0].equals("hold");
        if (args.length > 0 && !hold)
            waitFor(Paths.get(args[0]));
        System.out.println("native=" + NativeBigInteger.isNative());
        System.out.println("status=" + NativeBigInteger.loadStatus());
        String[] mapping = mappedLibrary();
        Path library = mapping == null ? null : Paths.get(mapping[1]);
        System.out.println("mapped=" + library);
        if (library != null) {
            Path dir = library.getParent();
            System.out.println("file-exists=" + Files.exists(library));
            System.out.println("dir-exists=" + Files.exists(dir));
            if (Files.exists(dir))
                System.out.println("dir-entries=" + count(dir));
            Path link = Paths.get("/proc/self/map_files/" + mapping[0]);
            try {
                System.out.println("file-perms=" + PosixFilePermissions.toString(Files.getPosixFilePermissions(link)));
                System.out.println("file-owner=" + Files.getOwner(link).getName());
            } catch (IOException | SecurityException e) {
                System.out.println("file-perms=unavailable (" + e + ")");
            }
        }
        System.out.println("results=" + LoadProbe.digest());
        if (hold) {
            System.out.println("holding");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }

    private static void waitFor(Path gate) throws InterruptedException {
        System.out.println("ready");
        System.out.flush();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(gate)) {
            if (System.nanoTime() > deadline)
                throw new IllegalStateException("no " + gate + " after a minute");
            Thread.sleep(1);
        }
    }

    /**
     * The address range and file of the jbigi mapping in /proc/self/maps:
     * what the dynamic linker actually loaded.
     */
    private static String[] mappedLibrary() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/maps"), StandardCharsets.UTF_8)) {
            int slash = line.indexOf('/');
            if (slash < 0 || !line.contains("libjbigi"))
                continue;
            String path = line.substring(slash);
            if (path.endsWith(" (deleted)"))
                path = path.substring(0, path.length() - " (deleted)".length());
            return new String[] {line.substring(0, line.indexOf(' ')), path};
        }
        return null;
    }

    private static int count(Path dir) throws IOException {
        int n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path ignored : entries)
                n++;
        }
        return n;
    }
}
