package net.i2p.util;

import java.util.Locale;

/**
 * Every system property jbigi reads goes through here, and nothing here
 * throws: a property that cannot be read (a security manager that denies it)
 * or that does not parse reads as its default.  Class initialisation reads
 * properties, and an exception there would leave the class unusable for the
 * rest of the JVM's life instead of falling back to pure Java.
 */
final class JbigiProperties {
    private JbigiProperties() {
    }

    /** The property's value, or defaultValue when it is unset or cannot be read. */
    static String get(String name, String defaultValue) {
        try {
            String value = System.getProperty(name);
            return value != null ? value : defaultValue;
        } catch (RuntimeException e) { // SecurityException, or a bad name
            return defaultValue;
        }
    }

    /** "true" (any case) is true, anything else false; defaultValue when unset or unreadable. */
    static boolean getBoolean(String name, boolean defaultValue) {
        String value = get(name, null);
        return value == null ? defaultValue : Boolean.parseBoolean(value.trim());
    }

    /** A decimal int; defaultValue when unset, unreadable or not a number. */
    static int getInt(String name, int defaultValue) {
        String value = get(name, null);
        if (value == null)
            return defaultValue;
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return defaultValue;
        }
    }

    /**
     * A size in bytes: plain, or with a k, m or g suffix (any case);
     * defaultBytes when unset, unreadable, negative or not a number.
     */
    static long getBytes(String name, long defaultBytes) {
        String value = get(name, null);
        if (value == null || value.trim().isEmpty())
            return defaultBytes;
        String v = value.trim().toLowerCase(Locale.US);
        long unit = 1;
        char last = v.charAt(v.length() - 1);
        if (last == 'k' || last == 'm' || last == 'g') {
            unit = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n < 0 || n > Long.MAX_VALUE / unit)
                return defaultBytes;
            return n * unit;
        } catch (NumberFormatException e) {
            return defaultBytes;
        }
    }
}
