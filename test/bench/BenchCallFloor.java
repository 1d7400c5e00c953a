package net.i2p.util;

/**
 * The natives of call_floor.c (build/bench/libjbigibenchfloor.so, its path
 * in the system property jbigi.bench.floor, set by run-bench.sh): the
 * floor under the section small's exponent-3 row.  Not loaded, the row
 * goes without those cases.
 */
final class BenchCallFloor {
    /** Whether the library loaded. */
    static final boolean LOADED = load();

    private BenchCallFloor() {
    }

    /** The three arrays read, a copy of the first returned: JNI's work alone. */
    static native byte[] arraysOnly(byte[] first, byte[] second, byte[] third);

    /** b^3 mod m by GMP's mpn functions and nothing else; null for any other exponent or operands it does not take. */
    static native byte[] cube(byte[] base, byte[] exponent, byte[] modulus);

    private static boolean load() {
        String path = System.getProperty("jbigi.bench.floor");
        if (path == null || path.isEmpty())
            return false;
        try {
            System.load(path);
            return true;
        } catch (UnsatisfiedLinkError e) {
            System.err.println("# " + path + " did not load (" + e.getMessage() + "): no floor cases");
            return false;
        }
    }
}
