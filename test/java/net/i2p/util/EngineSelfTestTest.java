package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The engines' known-answer self-tests, seen from Java, in fresh JVMs with
 * the library from java.library.path: each passes on a CPU with its engine
 * (nothing said), and a wrong answer (JBIGI_IFMA_SELFTEST_FAULT=1,
 * JBIGI_ADX_SELFTEST_FAULT=1 or JBIGI_P25519_SELFTEST_FAULT=1 corrupts one)
 * switches that engine off for the
 * process: another engine (MULX/ADX or GMP) takes its sizes, the status says
 * why, every result still right.  On a CPU without an engine there is
 * nothing to switch off, and nothing is said either way.
 */
class EngineSelfTestTest {
    private static final List<String> OPTIONS = Arrays.asList("-Xcheck:jni",
            "-Djava.library.path=" + System.getProperty("java.library.path"));

    private static String field(Subprocess p, String name) {
        for (String line : p.output.split("\n")) {
            if (line.startsWith(name + "="))
                return line.substring(name.length() + 1);
        }
        throw new AssertionError("no " + name + "= line in:\n" + p.output);
    }

    private static Subprocess probe(Map<String, String> environment) throws Exception {
        Subprocess p = Subprocess.runWithEnvironment(environment,
                Subprocess.mainClasses() + java.io.File.pathSeparator + Subprocess.testClasses(), OPTIONS,
                "net.i2p.util.EngineProbe");
        assertEquals(0, p.exitCode, p.output);
        assertEquals("true", field(p, "native"), p.output);
        assertEquals("0", field(p, "wrong"), p.output);
        return p;
    }

    private static Map<String, String> environment(String... pairs) {
        Map<String, String> m = new java.util.HashMap<String, String>();
        for (int i = 0; i < pairs.length; i += 2)
            m.put(pairs[i], pairs[i + 1]);
        return m;
    }

    /**
     * The MULX/ADX engine's self-test the same way (JBIGI_ADX_SELFTEST_FAULT=1):
     * with IFMA switched off too, the 2048-bit engine is "adx" where the CPU
     * has BMI2 and ADX; with both self-tests failing it is GMP, and the
     * status names both.
     */
    @Test
    void aWrongAnswerSwitchesTheAdxEngineOff() throws Exception {
        Subprocess ifmaOff = probe(environment("JBIGI_IFMA_SELFTEST_FAULT", "1"));
        boolean adxHere = "adx".equals(field(ifmaOff, "engine"));
        assertFalse(field(ifmaOff, "status").contains("adx switched off"), ifmaOff.output);

        Subprocess adxOff = probe(environment("JBIGI_ADX_SELFTEST_FAULT", "1"));
        assertFalse("adx".equals(field(adxOff, "engine")), adxOff.output);
        assertEquals(adxHere, field(adxOff, "status").contains("adx switched off: its known-answer self-test failed"),
                adxOff.output);

        Subprocess both = probe(environment("JBIGI_ADX_SELFTEST_FAULT", "1", "JBIGI_IFMA_SELFTEST_FAULT", "1"));
        assertEquals("gmp", field(both, "engine"), both.output);
        assertEquals(adxHere, field(both, "status").contains("adx switched off: its known-answer self-test failed"),
                both.output);
    }

    /**
     * The special-form engine's (JBIGI_P25519_SELFTEST_FAULT=1): switched
     * off, so that 2^255 - 19 goes to the engine its size gets (EngineProbe's
     * results under it still BigInteger's), the status names it, and forcing
     * it is refused.  Where it is not built (32-bit ARM) nothing is said.
     */
    @Test
    void aWrongAnswerSwitchesTheFieldEngineOff() throws Exception {
        boolean built = System.getProperty("os.arch").matches("amd64|x86_64|aarch64");
        Subprocess off = probe(environment("JBIGI_P25519_SELFTEST_FAULT", "1"));
        assertEquals(built, field(off, "status").contains("p25519 switched off: its known-answer self-test failed"),
                off.output);
        Subprocess forced = probe(environment("JBIGI_P25519_SELFTEST_FAULT", "1", "JBIGI_ENGINE", "p25519"));
        assertFalse("p25519".equals(field(forced, "engine")), forced.output);
    }

    @Test
    void aWrongAnswerSwitchesTheEngineOff() throws Exception {
        Subprocess plain = probe(Collections.<String, String>emptyMap());
        boolean engineHere = "avx512-ifma".equals(field(plain, "engine"));
        assertFalse(field(plain, "status").contains("self-test"), plain.output);

        Subprocess faulty = probe(Collections.singletonMap("JBIGI_IFMA_SELFTEST_FAULT", "1"));
        assertFalse("avx512-ifma".equals(field(faulty, "engine")), faulty.output);
        if (engineHere)
            assertTrue(field(faulty, "status").contains("avx512-ifma switched off: its known-answer self-test failed"),
                    faulty.output);
        else
            assertFalse(field(faulty, "status").contains("self-test"), faulty.output);
    }
}
