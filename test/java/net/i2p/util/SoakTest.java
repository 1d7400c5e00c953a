package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A million native calls in one JVM - modPow, modPowCT, modInverse, the
 * fixed-base table build and powers, and every error path (exceptions
 * thrown from native code) - and the process must not grow: a leak of a
 * few bytes per call (an mpz_t not cleared on an error path, a local
 * reference kept, a copy not freed) adds up to megabytes here.  A router
 * calls these for months.  Operands are up to 512 bits and every result is
 * checked against one BigInteger computed before the soak.
 *
 * The calls run in a JVM of their own whose Java heap is fixed and touched
 * up front (-Xms = -Xmx, AlwaysPreTouch, serial GC), so that resident size
 * can only grow through native memory, not through the heap expanding.
 * Resident size is read after a warm-up and after the soak, each after
 * System.gc(), and may grow by at most 16 MiB.
 *
 * It takes 15 to 30 seconds, so it runs only with -Djbigi.soak=true (tag
 * "soak").  -Djbigi.soak.calls=N changes the number of calls.
 */
@Tag("soak")
@EnabledIfSystemProperty(named = "jbigi.soak", matches = "true")
class SoakTest {
    static final int DEFAULT_CALLS = 1000000;
    static final long ALLOWED_GROWTH_KB = 16 * 1024;

    @Test
    void residentSizeStaysFlatOverAMillionCalls() throws Exception {
        List<String> options = new ArrayList<String>(Arrays.asList("-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch",
                "-XX:+UseSerialGC", "-Djava.library.path=" + System.getProperty("java.library.path"),
                "-Djbigi.soak.calls=" + Integer.getInteger("jbigi.soak.calls", DEFAULT_CALLS)));
        // A suite run under -Xcheck:jni checks the soak's calls too.
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (option.startsWith("-Xcheck"))
                options.add(option);
        }
        Subprocess soak = Subprocess.run(Subprocess.mainClasses() + java.io.File.pathSeparator + Subprocess.testClasses(),
                options, SoakTest.class.getName());
        System.out.print(soak.output);
        assertEquals(0, soak.exitCode, "the soak failed:\n" + soak.output);
        long before = field(soak.output, "rss-after-warmup-kB");
        long after = field(soak.output, "rss-after-soak-kB");
        assertTrue(after - before <= ALLOWED_GROWTH_KB, "resident size grew from " + before + " kB to " + after
                + " kB over the soak: more than " + ALLOWED_GROWTH_KB + " kB, native memory is leaking");
    }

    private static long field(String output, String name) {
        for (String line : output.split("\n")) {
            if (line.startsWith(name + "="))
                return Long.parseLong(line.substring(name.length() + 1).trim());
        }
        throw new AssertionError("no " + name + "= line in:\n" + output);
    }

    // ---- the soak itself, in its own JVM ----

    /** Prints the resident sizes and "soak ok", or the first wrong results and exits 1. */
    public static void main(String[] args) throws IOException {
        int calls = Integer.getInteger("jbigi.soak.calls", DEFAULT_CALLS);
        if (!NativeBigInteger.isNative()) {
            System.out.println("the library is not loaded: " + NativeBigInteger.loadStatus());
            System.exit(1);
        }
        Calls soak = new Calls(new Random(Long.getLong("jbigi.test.seed", 7L)));
        long start = System.nanoTime();
        soak.run(calls / 10);
        long warm = residentKilobytes();
        soak.run(calls);
        long soaked = residentKilobytes();
        double seconds = (System.nanoTime() - start) / 1e9;

        System.out.println("soak: " + (calls + calls / 10) + " native calls (" + calls / 10 + " warm-up), "
                + soak.errors + " of them exceptions from native code, " + String.format("%.1f", seconds) + " s");
        System.out.println("rss-after-warmup-kB=" + warm);
        System.out.println("rss-after-soak-kB=" + soaked);
        if (!soak.failures.isEmpty()) {
            System.out.println(soak.failures.size() + " wrong results, first ones:");
            for (String f : soak.failures.subList(0, Math.min(10, soak.failures.size())))
                System.out.println("  " + f);
            System.exit(1);
        }
        System.out.println("soak ok");
    }

    /** VmRSS of this process, after a collection so that garbage does not count. */
    static long residentKilobytes() throws IOException {
        System.gc();
        System.gc();
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("VmRSS:"))
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        throw new IOException("no VmRSS line in /proc/self/status");
    }

    /** A pool of operands with their expected results, and a loop over them. */
    static final class Calls {
        private static final int POOL = 4096;
        /** Pool entries 0..TABLES-1 with an odd modulus > 1 also get a fixed-base table. */
        private static final int TABLES = 256;
        private static final byte[] EMPTY = {};
        private static final byte[] ZERO = {0};
        private static final byte[] MINUS_ONE = {-1};
        private static final byte[] EVEN = {0x10, 0};
        private static final byte[] ODD = {0x10, 1};
        /** One byte over JBIGI_MAX_OPERAND_BYTES: refused before any copy. */
        private static final byte[] OVER_LIMIT = new byte[16 * 1024 * 1024 + 1];
        private static final int MOD_POW = 0, MOD_POW_CT = 1, INVERSE = 2, FIXED = 3, FIXED_CT = 4, BUILD = 5;

        private final Random random;
        private final byte[][][] operands = new byte[POOL][][];
        /** Per pool entry, per operation above: the result bytes, or the exception class. */
        private final Object[][] expected = new Object[POOL][];
        private final long[][] tables = new long[TABLES][];
        /** The same tables in direct buffers, as FixedBase keeps them. */
        private final Tables.Block[] buffers = new Tables.Block[TABLES];
        private final Tables.Block brokenBuffer;
        /** A sound table, the same with its magic word broken, and an exponent one bit too long for it. */
        private final long[] someTable;
        private final long[] brokenTable;
        private final byte[] tooLong;
        final List<String> failures = new ArrayList<String>();
        long errors;

        Calls(Random random) {
            this.random = random;
            OVER_LIMIT[OVER_LIMIT.length - 1] = 1;
            for (int i = 0; i < POOL; i++) {
                int bits = 1 + random.nextInt(512);
                BigInteger m = new BigInteger(bits, random).add(BigInteger.ONE);
                if (random.nextInt(4) != 0 || i == 0)
                    m = m.setBit(0).max(BigInteger.valueOf(3));
                BigInteger b = new BigInteger(1 + random.nextInt(bits + 8), random);
                b = random.nextBoolean() ? b.negate() : b;
                BigInteger e = new BigInteger(1 + random.nextInt(bits), random);
                e = random.nextInt(8) == 0 ? e.negate() : e;
                operands[i] = new byte[][] {b.toByteArray(), e.toByteArray(), m.toByteArray()};
                Object power = expect(b, e, m, true);
                boolean ctTakes = m.testBit(0) && e.signum() > 0;
                boolean tableTakes = m.testBit(0) && m.bitLength() > 1;
                Object fixed = ArithmeticException.class;
                if (i < TABLES && tableTakes) {
                    tables[i] = Tables.build(operands[i][0], operands[i][2], rows(i), 2,
                            m.bitLength());
                    if (e.signum() >= 0 && e.bitLength() <= reach(tables[i]))
                        fixed = power;
                }
                expected[i] = new Object[] {power, ctTakes ? power : ArithmeticException.class,
                    expect(b, null, m, false), fixed, fixed, tableTakes ? "table" : ArithmeticException.class};
            }
            someTable = tables[0];
            brokenTable = someTable.clone();
            brokenTable[0] ^= 1;
            for (int i = 0; i < TABLES; i++)
                buffers[i] = Tables.direct(tables[i]);
            brokenBuffer = Tables.direct(brokenTable);
            tooLong = BigInteger.ONE.shiftLeft(reach(someTable)).toByteArray();
        }

        private static int rows(int i) {
            return 4 + i % 3;
        }

        /** Exponent bits a table covers: rows x blocks x block bits (src/core/fixedbase.c). */
        private static int reach(long[] table) {
            return (int) (table[2] * table[3] * table[4]);
        }

        private static Object expect(BigInteger b, BigInteger e, BigInteger m, boolean power) {
            try {
                return (power ? b.modPow(e, m) : b.modInverse(m)).toByteArray();
            } catch (ArithmeticException x) {
                return ArithmeticException.class;
            }
        }

        /** n calls: most on the pool, one in four down an error path. */
        void run(int n) {
            for (int i = 0; i < n; i++) {
                int op = random.nextInt(16);
                if (op < 9)
                    poolCall(random.nextInt(POOL), op % 3);
                else if (op < 11)
                    poolCall(random.nextInt(TABLES), op == 9 ? FIXED : FIXED_CT);
                else if (op < 12)
                    poolCall(random.nextInt(2 * TABLES), BUILD);
                else
                    errorCall(operands[random.nextInt(POOL)]);
            }
        }

        private byte[] call(int which, int op) {
            byte[][] o = operands[which];
            switch (op) {
            case MOD_POW:
                return NativeBigInteger.nativeModPow(o[0], o[1], o[2]);
            case MOD_POW_CT:
                return NativeBigInteger.nativeModPowCT(o[0], o[1], o[2]);
            case INVERSE:
                return NativeBigInteger.nativeModInverse(o[0], o[2]);
            case BUILD:
                // A fresh table must equal the one built at the start: the build is deterministic.
                long[] table = Tables.build(o[0], o[2], rows(which), 2, new BigInteger(o[2]).bitLength());
                return which < TABLES && Arrays.equals(table, tables[which]) ? new byte[0] : new byte[] {1};
            default:
                // Entries without a table take a broken one, an error path of its own.
                Tables.Block t = buffers[which] != null ? buffers[which] : brokenBuffer;
                return t.modPow(o[1], op == FIXED_CT);
            }
        }

        private void poolCall(int which, int op) {
            Object want = expected[which][op];
            if (op == BUILD && want instanceof String)
                want = which < TABLES ? new byte[0] : null; // equal to the first build; past TABLES, any table
            if ((op == FIXED || op == FIXED_CT) && tables[which] == null)
                want = IllegalArgumentException.class;
            try {
                byte[] got = call(which, op);
                if (want == null ? got.length > 1 : !(want instanceof byte[]) || !Arrays.equals((byte[]) want, got))
                    fail("op " + op + " on entry " + which + ": returned " + Arrays.toString(got));
            } catch (RuntimeException x) {
                errors++;
                if (x.getClass() != want)
                    fail("op " + op + " on entry " + which + ": " + x);
            }
        }

        /** An argument the natives must refuse, in each position and for each reason, with real operands around it. */
        private void errorCall(byte[][] o) {
            byte[] b = o[0];
            byte[] e = o[1];
            byte[] m = o[2];
            int kind = random.nextInt(21);
            Class<? extends Throwable> want = kind < 3 || kind == 16 ? NullPointerException.class
                    : kind < 6 ? NumberFormatException.class
                    : kind == 17 || kind == 18 ? IllegalArgumentException.class : ArithmeticException.class;
            try {
                switch (kind) {
                case 0: NativeBigInteger.nativeModPow(null, e, m); break;
                case 1: NativeBigInteger.nativeModPowCT(b, null, m); break;
                case 2: NativeBigInteger.nativeModInverse(b, null); break;
                case 3: NativeBigInteger.nativeModPow(b, EMPTY, m); break;
                case 4: NativeBigInteger.nativeModPowCT(b, e, EMPTY); break;
                case 5: NativeBigInteger.nativeModInverse(EMPTY, m); break;
                case 6: NativeBigInteger.nativeModPow(b, e, ZERO); break;
                case 7: NativeBigInteger.nativeModPow(b, e, MINUS_ONE); break;
                case 8: NativeBigInteger.nativeModPowCT(b, e, EVEN); break;
                case 9: NativeBigInteger.nativeModPowCT(b, MINUS_ONE, ODD); break;
                case 10: NativeBigInteger.nativeModPowCT(b, ZERO, m); break;
                case 11: NativeBigInteger.nativeModInverse(EVEN, EVEN); break;
                case 12: NativeBigInteger.nativeModPow(EVEN, MINUS_ONE, EVEN); break;
                case 13: NativeBigInteger.nativeModInverse(ZERO, m); break;
                case 14: NativeBigInteger.nativeModPow(b, OVER_LIMIT, m); break;
                case 15: NativeBigInteger.nativeModInverse(b, MINUS_ONE); break;
                case 16: Tables.modPow(null, e, false); break;
                case 17: brokenBuffer.modPow(e, true); break;
                case 18: Tables.build(b, ODD, 0, 2, 8); break;
                case 19: buffers[0].modPow(MINUS_ONE, false); break;
                default: buffers[0].modPow(tooLong, true); break;
                }
                // modInverse(0, 1) is 0, as in BigInteger: the only legitimate non-throw.
                if (!(kind == 13 && m.length == 1 && m[0] == 1))
                    fail("error path " + kind + " returned normally");
            } catch (Throwable t) {
                errors++;
                if (t.getClass() != want)
                    fail("error path " + kind + " threw " + t);
            }
        }

        private void fail(String what) {
            if (failures.size() < 100)
                failures.add(what);
        }
    }
}
