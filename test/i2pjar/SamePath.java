import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Loads the libraries named on the command line from one file, in turn,
 * until one loads, as I2P's loader does: it writes every candidate of its
 * walk over the same file in its temporary directory and calls System.load
 * on it.  A library whose JNI_OnLoad refuses this CPU must leave nothing
 * behind, so that the next candidate, written over the same file, is the
 * one the JVM loads.
 *
 *   java SamePath DIR LIBRARY...
 *
 * prints, for each LIBRARY tried, "loaded LIBRARY" or "refused LIBRARY: why".
 */
public final class SamePath {
    private SamePath() {
    }

    public static void main(String[] args) throws IOException {
        String target = new java.io.File(args[0], "libjbigi.so").getAbsolutePath();
        for (int i = 1; i < args.length; i++) {
            copy(args[i], target);
            try {
                System.load(target);
                System.out.println("loaded " + args[i]);
                return;
            } catch (UnsatisfiedLinkError e) {
                System.out.println("refused " + args[i] + ": " + e.getMessage());
            }
        }
    }

    /** Overwrites target in place (the same file, as I2P's FileOutputStream does). */
    private static void copy(String from, String target) throws IOException {
        byte[] buffer = new byte[65536];
        try (InputStream in = new FileInputStream(from); OutputStream out = new FileOutputStream(target)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
            }
        }
    }
}
