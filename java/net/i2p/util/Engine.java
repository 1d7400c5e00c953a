package net.i2p.util;

/**
 * Which code the loaded library raises to powers with: GMP, or on CPUs that
 * have their instructions an AVX-512 IFMA or a MULX/ADX Montgomery engine,
 * each for the odd moduli where it beats GMP (the sizes are the rules of
 * src/engines/registry.c).  Results are identical either way.  Why the IFMA
 * engine's sizes:
 * doc/measurements.md: "Where the IFMA engine takes over from GMP (2026-11-30 to 2026-12-01)"
 *
 * <p>The modulus 2^255 - 19 (Elligator2's field) goes to an engine of its
 * own, p25519, which reduces by the modulus' form, wherever the library has
 * 64-bit limbs and 128-bit products.
 *
 * <p>{@code -Djbigi.engine=gmp}, {@code adx}, {@code ifma} or {@code p25519}
 * (that one for its modulus only) forces an engine
 * (one the CPU cannot run leaves the choice on auto, and loadStatus() says
 * so), {@code auto} (the default) lets the library choose per call; the
 * environment variable {@code JBIGI_ENGINE} does the same for C programs.
 */
final class Engine {
    static final String GMP = "gmp";

    private Engine() {
    }

    /** Forces GMP for every call, or lets the library choose per call. */
    static native void nativeForceGmp(boolean force);

    /**
     * Forces the engine named ("gmp", "adx", "ifma", "p25519"), or lets the library
     * choose per call ("auto"); false when the name is unknown or the CPU
     * cannot run it (the choice is then auto).  Older builds of this library
     * have only nativeForceGmp.
     */
    static native boolean nativeForce(String name);

    /** The engine for 2048-bit moduli here: "avx512-ifma", "adx" or "gmp"; "p25519" when forced. */
    static native String nativeName();

    /**
     * Why an engine this CPU has is not used (its known-answer self-test
     * failed), or "" when there is nothing to say.
     */
    static native String nativeNote();

    /**
     * The row of src/cpu/variants.tsv the loaded library was built for ("zen2",
     * "none", ...): its JNI_OnLoad found this CPU able to run it.
     */
    static native String nativeVariant();

    /** nativeVariant(), or null for a library without it (I2P's). */
    static String variant() {
        try {
            return nativeVariant();
        } catch (UnsatisfiedLinkError e) {
            return null;
        }
    }

    /** The CPU features behind an engine's choice, as " (...)"; "" for GMP. */
    static String features(String engine) {
        if ("avx512-ifma".equals(engine))
            return " (AVX-512 IFMA)";
        if ("adx".equals(engine))
            return " (BMI2, ADX)";
        if ("p25519".equals(engine))
            return " (the modulus 2^255 - 19; others chosen per call)";
        return "";
    }

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
        // Unset: the library's own choice stands (auto, or JBIGI_ENGINE from the environment).
        String wanted = JbigiProperties.get("jbigi.engine", "").trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (!wanted.isEmpty()) {
                try {
                    nativeForce(wanted);
                } catch (UnsatisfiedLinkError older) {
                    nativeForceGmp(wanted.equals(GMP));
                }
            }
            return nativeName();
        } catch (UnsatisfiedLinkError e) {
            return GMP;
        }
    }
}
