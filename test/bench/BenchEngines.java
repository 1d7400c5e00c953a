package net.i2p.util;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The engines a benchmark forces beside the library's own choice (Engine.nativeForce, -Djbigi.engine). */
final class BenchEngines {
    private BenchEngines() {
    }

    /**
     * The engines to time forced at this size beside the per-call choice:
     * GMP where the choice may be another engine (ADX from 256 bits, IFMA
     * from 512), and each other engine this CPU runs ("adx", "ifma"),
     * except the one chosen.
     */
    static List<String> forcedEngines(int bits) {
        String chosen = NativeBigInteger.engine();
        List<String> engines = new ArrayList<>();
        if (bits >= 256 && !"gmp".equals(chosen))
            engines.add("gmp");
        for (String engine : new String[] {"adx", "ifma"}) {
            if (!chosen.startsWith(engine.equals("ifma") ? "avx512-ifma" : engine) && engineRuns(engine))
                engines.add(engine);
        }
        return engines;
    }

    /** Whether this CPU runs the engine (forcing it is accepted); the choice goes back to auto. */
    static boolean engineRuns(String engine) {
        try {
            return Engine.nativeForce(engine);
        } catch (UnsatisfiedLinkError e) {
            return false;
        } finally {
            restoreEngine();
        }
    }

    /** The engine choice as -Djbigi.engine asked for it, auto when it did not. */
    static void restoreEngine() {
        Engine.nativeForce(System.getProperty("jbigi.engine", "auto"));
    }

    /** op with the engine forced, then the choice restored. */
    static <T> T withEngine(String engine, Supplier<T> op) {
        Engine.nativeForce(engine);
        try {
            return op.get();
        } finally {
            restoreEngine();
        }
    }
}
