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
 */
public final class ExtractionProbe {
    public static void main(String[] args) throws Exception {
        if (args.length > 0)
            waitFor(Paths.get(args[0]));
        System.out.println("native=" + NativeBigInteger.isNative());
        System.out.println("status=" + NativeBigInteger.loadStatus());
        Path library = mappedLibrary();
        System.out.println("mapped=" + library);
        if (library != null && Files.exists(library)) {
            Path dir = library.getParent();
            System.out.println("file-perms=" + PosixFilePermissions.toString(Files.getPosixFilePermissions(library)));
            System.out.println("dir-perms=" + PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            System.out.println("file-owner=" + Files.getOwner(library).getName());
            System.out.println("dir-entries=" + count(dir));
        }
        System.out.println("results=" + LoadProbe.digest());
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

    /** The file of the jbigi mapping in /proc/self/maps: what the dynamic linker actually loaded. */
    private static Path mappedLibrary() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/maps"), StandardCharsets.UTF_8)) {
            int slash = line.indexOf('/');
            if (slash < 0 || !line.contains("libjbigi"))
                continue;
            String path = line.substring(slash);
            if (path.endsWith(" (deleted)"))
                path = path.substring(0, path.length() - " (deleted)".length());
            return Paths.get(path);
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
