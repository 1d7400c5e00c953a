package net.i2p.util;

/**
 * Which code the loaded library raises to powers with: GMP everywhere, or an
 * AVX-512 IFMA Montgomery engine for the moduli where it beats GMP (odd, from
 * 576 bits up, 512 on AMD Zen 4) on CPUs that have it.  Results are identical either
 * way.  {@code -Djbigi.engine=gmp} forces GMP, {@code auto} (the default)
 * lets the library choose per call; the environment variable
 * {@code JBIGI_ENGINE=gmp} does the same for C programs.
 */
final class Engine {
    static final String GMP = "gmp";

    private Engine() {
    }

    /** Forces GMP for every call, or lets the library choose per call. */
    static native void nativeForceGmp(boolean force);

    /** "avx512-ifma" when the engine runs for large moduli here, else "gmp". */
    static native String nativeName();

    /**
     * Why an engine this CPU has is not used (its known-answer self-test
     * failed), or "" when there is nothing to say.
     */
    static native String nativeNote();

    /** nativeNote() as a clause for loadStatus(): "; " and the note, or "" (also for I2P's library). */
    static String note() {
        try {
            String note = nativeNote();
            return note == null || note.isEmpty() ? "" : "; " + note;
        } catch (UnsatisfiedLinkError e) {
            return "";
        }
    }

    /**
     * The engine new work is given to now: "gmp" while GMP is forced (or for a
     * library without engines), else nativeName().  Fixed-base tables take
     * its format when they are built.
     */
    static String current() {
        try {
            return nativeName();
        } catch (UnsatisfiedLinkError e) {
            return GMP;
        }
    }

    /**
     * Applies -Djbigi.engine to the library just loaded and returns the
     * engine's name; "gmp" for a library without engines (I2P's).
     */
    static String select() {
        String wanted = JbigiProperties.get("jbigi.engine", "auto").trim();
        try {
            nativeForceGmp(wanted.equalsIgnoreCase(GMP));
            return nativeName();
        } catch (UnsatisfiedLinkError e) {
            return GMP;
        }
    }
}
