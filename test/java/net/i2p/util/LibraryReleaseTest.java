package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The release mark read from a library's bytes, and releases compared. */
class LibraryReleaseTest {
    private static String read(String text) throws IOException {
        return LibraryRelease.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void theMarkIsFoundAmongOtherBytes() throws IOException {
        assertEquals("5.0.0", read("\u0000\u007fELF jbigi-rel\u0000jjbigi-release: 5.0.0\u0000more"));
        assertEquals("12.3", read("jbigi-release: 12.3"));
        assertEquals("5.1.0", read("jbigi-release: x\u0000jbigi-release: 5.1.0\u0000"));
    }

    @Test
    void noMarkIsNull() throws IOException {
        assertNull(read(""));
        assertNull(read("jbigi-release"));
        assertNull(read("jbigi-release: \u0000"));
        assertNull(read("jbigi-release: .5\u0000"));
    }

    @Test
    void releasesCompareAsNumbers() {
        assertTrue(LibraryRelease.compare("5.10.0", "5.9.9") > 0);
        assertTrue(LibraryRelease.compare("4.99", "5.0.0") < 0);
        assertEquals(0, LibraryRelease.compare("5.0", "5.0.0"));
        assertEquals(0, LibraryRelease.compare("5.0.0", "5.0.0"));
    }

    /** The library under test carries the release in VERSION. */
    @Test
    void theBuiltLibraryIsMarkedWithVersion() throws IOException {
        Path lib = Paths.get(System.getProperty("jbigi.test.library", "lib/libjbigi.so"));
        Path version = Paths.get("VERSION");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(lib) && Files.isRegularFile(version),
                "no " + lib + " or VERSION here: skipped");
        assertEquals(new String(Files.readAllBytes(version), StandardCharsets.US_ASCII).trim(),
                LibraryRelease.read(lib));
    }
}
