package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tables NativeBigInteger makes by itself for a repeated base: right
 * under a race, bounded in memory, fast for the base that matters, and never
 * a reason for the garbage collector to wait.  Each check runs in a fresh
 * JVM (FixedBaseProbe), with the policy and heap it needs.
 */
class TransparentTablesTest {
    private static Subprocess probe(List<String> options, String... args) throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<String>(options);
        jvm.add("-Djava.library.path=" + System.getProperty("java.library.path"));
        Subprocess p = Subprocess.run(Subprocess.mainClasses() + java.io.File.pathSeparator + Subprocess.testClasses(),
                jvm, "net.i2p.util.FixedBaseProbe", args);
        assertEquals(0, p.exitCode, p.output);
        assertTrue(p.output.contains("done"), p.output);
        return p;
    }

    private static long field(String output, String key) {
        for (String line : output.split("\n")) {
            if (line.startsWith(key + "="))
                return Long.parseLong(line.substring(key.length() + 1).trim());
        }
        throw new AssertionError("no " + key + " in:\n" + output);
    }

    /**
     * One base shared by 16 threads, each call with one of three moduli in
     * turn, so the base's use record changes under the threads' feet: at
     * after = 1 every switch of modulus makes a table.  Every result must be
     * BigInteger's.
     */
    @Test
    void sharedBaseOverSeveralModuliFromManyThreads() throws Exception {
        assumeTrue(NativeBigInteger.hasFixedBase(), "no fixed-base natives: " + NativeBigInteger.loadStatus());
        for (int after : new int[] {1, 2, 3}) {
            Subprocess p = probe(Arrays.asList("-Djbigi.fixedBase.after=" + after), "race", "16", "1500");
            assertEquals(16 * 1500, field(p.output, "calls"), p.output);
            assertEquals(0, field(p.output, "wrong"), "after=" + after + ":\n" + p.output);
        }
    }

    /**
     * 400 bases kept alive, each used four times with one 2048-bit modulus,
     * in a 32 MiB heap with a 4 MiB table bound: without a bound their
     * tables (128 KiB each) would take 50 MiB.  The bound holds, the native
     * memory of the tables is exactly what is accounted (evicted tables were
     * freed, with no collection needed), and the hot base (used between
     * every two calls) keeps the one table it got.
     */
    @Test
    void manyReusedBasesStayWithinTheBound() throws Exception {
        assumeTrue(NativeBigInteger.hasFixedBase(), "no fixed-base natives: " + NativeBigInteger.loadStatus());
        long bound = 4L << 20;
        Subprocess p = probe(Arrays.asList("-Xmx32m", "-Djbigi.fixedBase.cacheBytes=4m"), "heap", "400", "2048");
        assertEquals(0, field(p.output, "wrong"), p.output);
        assertEquals(bound, field(p.output, "bound"), p.output);
        assertTrue(field(p.output, "most-held") <= bound, p.output);
        assertTrue(field(p.output, "tables-admitted") > 100, "bases did get tables:\n" + p.output);
        assertTrue(field(p.output, "live-table-bytes") <= bound, p.output);
        assertEquals(field(p.output, "held-bytes"), field(p.output, "live-table-bytes"), p.output);
        assertTrue(p.output.contains("hot-kept=true"), p.output);
    }

    /**
     * Fixed-base exponentiations in two threads while a third allocates:
     * the collector must not wait for native code, which it did, at nearly
     * every collection, while tables were read inside a JNI critical region
     * for the whole exponentiation (G1 then logs "GCLocker Initiated GC").
     * What is left is the copy of an operand (a JNI critical region of a
     * few hundred bytes, read by a loop over the modulus' width so that the
     * exponent's length reaches no branch): a collection that falls into it
     * waits that long, about one in a hundred here.  So: at most one
     * collection in ten may have waited, over at least ten.
     */
    @Test
    void fixedBaseCallsDoNotHoldUpTheCollector() throws Exception {
        assumeTrue(NativeBigInteger.hasFixedBase(), "no fixed-base natives: " + NativeBigInteger.loadStatus());
        Subprocess p = probe(Arrays.asList("-Xmx128m", "-XX:+UseG1GC", "-Xlog:gc"), "gclocker", "3");
        int young = count(p.output, "Pause Young");
        int waited = count(p.output, "GCLocker Initiated GC");
        assertTrue(young >= 10, "fewer than ten young collections seen, so too little was tested:\n" + p.output);
        assertTrue(waited * 10 <= young, waited + " of " + young + " collections waited for native code:\n" + p.output);
    }

    /** The lines of output that contain what. */
    private static int count(String output, String what) {
        int lines = 0;
        for (String line : output.split("\n")) {
            if (line.contains(what))
                lines++;
        }
        return lines;
    }
}
