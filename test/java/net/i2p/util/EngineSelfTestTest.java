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
 * The IFMA engine's known-answer self-test, seen from Java, in fresh JVMs
 * with the library from java.library.path: it passes on a CPU with the
 * engine (engine "avx512-ifma", nothing said), and a wrong answer
 * (JBIGI_IFMA_SELFTEST_FAULT=1 corrupts one) switches the engine off for
 * the process: another engine (MULX/ADX or GMP), the status says why, every
 * result still right.
 * On a CPU without the engine there is nothing to switch off, and nothing
 * is said either way.
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
