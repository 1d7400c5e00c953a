package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Each engine forced in turn, in fresh JVMs with the library from
 * java.library.path: -Djbigi.engine=gmp, adx, ifma, p25519, auto and an
 * unknown name, and JBIGI_ENGINE=adx and p25519 from the environment.  Every
 * result must equal BigInteger's (EngineProbe: modPow with positive and
 * negative exponents and modPowCT, 64 to 4096 bits, and under 2^255 - 19);
 * the engine named must be the one asked for
 * where this CPU runs it, and otherwise the status must say the request was
 * not followed.
 */
class EngineChoiceTest {
    private static String field(Subprocess p, String name) {
        for (String line : p.output.split("\n")) {
            if (line.startsWith(name + "="))
                return line.substring(name.length() + 1);
        }
        throw new AssertionError("no " + name + "= line in:\n" + p.output);
    }

    private static Subprocess probe(Map<String, String> environment, String... options) throws Exception {
        List<String> jvm = new ArrayList<>(Arrays.asList("-Xcheck:jni",
                "-Djava.library.path=" + System.getProperty("java.library.path")));
        jvm.addAll(Arrays.asList(options));
        Subprocess p = Subprocess.runWithEnvironment(environment,
                Subprocess.mainClasses() + java.io.File.pathSeparator + Subprocess.testClasses(), jvm,
                "net.i2p.util.EngineProbe");
        assertEquals(0, p.exitCode, p.output);
        assertEquals("true", field(p, "native"), p.output);
        assertEquals("0", field(p, "wrong"), p.output);
        return p;
    }

    /** The CPU's features as the library's own check reads them (CPUID, build/cpu-probe). */
    private static Set<String> cpuFlags() throws Exception {
        return HostCpu.features();
    }

    private static final String REFUSED = "the engine asked for is not known or this CPU cannot run it";

    @Test
    void gmpForcedIsGmp() throws Exception {
        Subprocess p = probe(Collections.<String, String>emptyMap(), "-Djbigi.engine=gmp");
        assertEquals("gmp", field(p, "engine"), p.output);
        assertFalse(field(p, "status").contains(REFUSED), p.output);
    }

    @Test
    void adxForcedRunsWhereTheCpuHasIt() throws Exception {
        boolean adxHere = cpuFlags().containsAll(Arrays.asList("adx", "bmi2"));
        for (Subprocess p : Arrays.asList(probe(Collections.<String, String>emptyMap(), "-Djbigi.engine=adx"),
                probe(Collections.singletonMap("JBIGI_ENGINE", "adx")))) {
            if (adxHere) {
                assertEquals("adx", field(p, "engine"), p.output);
            } else {
                assertFalse("adx".equals(field(p, "engine")), p.output);
                assertTrue(field(p, "status").contains(REFUSED), p.output);
            }
        }
    }

    @Test
    void ifmaForcedRunsWhereTheCpuHasIt() throws Exception {
        Subprocess p = probe(Collections.<String, String>emptyMap(), "-Djbigi.engine=ifma");
        // The engine's needs: IFMA, and BW for its mask arithmetic (every IFMA CPU has it).
        if (cpuFlags().contains("avx512ifma") && cpuFlags().contains("avx512bw"))
            assertEquals("avx512-ifma", field(p, "engine"), p.output);
        else
            assertTrue(field(p, "status").contains(REFUSED), p.output);
    }

    /** The special-form field needs only 64-bit limbs and 128-bit products: every x86-64 and aarch64 library. */
    @Test
    void p25519ForcedRunsOnSixtyFourBitLibraries() throws Exception {
        boolean sixtyFour = System.getProperty("os.arch").matches("amd64|x86_64|aarch64");
        for (Subprocess p : Arrays.asList(probe(Collections.<String, String>emptyMap(), "-Djbigi.engine=p25519"),
                probe(Collections.singletonMap("JBIGI_ENGINE", "p25519")))) {
            if (sixtyFour) {
                assertEquals("p25519", field(p, "engine"), p.output);
                assertFalse(field(p, "status").contains(REFUSED), p.output);
                assertTrue(field(p, "status").contains("2^255 - 19"), p.output);
            } else {
                assertTrue(field(p, "status").contains(REFUSED), p.output);
            }
        }
    }

    @Test
    void autoAndUnknownNamesChoosePerCall() throws Exception {
        Subprocess auto = probe(Collections.<String, String>emptyMap(), "-Djbigi.engine=auto");
        assertFalse(field(auto, "status").contains(REFUSED), auto.output);
        Subprocess unknown = probe(Collections.<String, String>emptyMap(), "-Djbigi.engine=fastest");
        assertEquals(field(auto, "engine"), field(unknown, "engine"), unknown.output);
        assertTrue(field(unknown, "status").contains(REFUSED), unknown.output);
    }
}
