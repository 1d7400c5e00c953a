package net.i2p.util;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Shared by the bad-input tests: what a native call owes for its arguments,
 * and the comparison of that with what it did.
 *
 * The natives check each array before GMP sees it: null is a
 * NullPointerException naming the argument, empty a NumberFormatException
 * (as new BigInteger(new byte[0])), longer than the limit an
 * ArithmeticException naming the argument.  When several arguments are bad,
 * which one is reported is not part of the contract, so any of them counts.
 */
final class BadInputs {
    /** NativeBigInteger.NATIVE_MAX_BYTES, the C side's JBIGI_MAX_OPERAND_BYTES (src/jni/jni_util.h). */
    static final int LIMIT = 16 * 1024 * 1024;

    private BadInputs() {
    }

    /** An exception a bad argument warrants: its class and a word its message must contain. */
    static final class Warrant {
        final Class<? extends Throwable> type;
        final String mention;

        Warrant(Class<? extends Throwable> type, String mention) {
            this.type = type;
            this.mention = mention;
        }

        boolean covers(Throwable t) {
            return t.getClass() == type && String.valueOf(t.getMessage()).contains(mention);
        }

        @Override
        public String toString() {
            return type.getSimpleName() + "(\"" + mention + "\")";
        }
    }

    /**
     * Adds what array, the argument called name, warrants to warrants and
     * returns null; or returns its value when the natives must accept it.
     */
    static BigInteger operand(byte[] array, String name, List<Warrant> warrants) {
        if (array == null)
            warrants.add(new Warrant(NullPointerException.class, name));
        else if (array.length == 0)
            warrants.add(new Warrant(NumberFormatException.class, "Zero length"));
        else if (array.length > LIMIT)
            warrants.add(new Warrant(ArithmeticException.class, name));
        else
            return new BigInteger(array);
        return null;
    }

    /**
     * Runs call and returns what is wrong with its outcome, or null.  With
     * warrants, it must throw one of them.  Otherwise it must throw
     * wantThrown if that is set, else return exactly the bytes want, or,
     * with want null, any number (a result nobody can predict, such as one
     * from a garbled table, as long as nothing crashes).
     */
    static String verify(String what, List<Warrant> warrants, Class<? extends Throwable> wantThrown, byte[] want,
                         Callable<byte[]> call) {
        byte[] got;
        try {
            got = call.call();
        } catch (Throwable t) {
            for (Warrant w : warrants) {
                if (w.covers(t))
                    return null;
            }
            if (warrants.isEmpty() && wantThrown != null && t.getClass() == wantThrown)
                return null;
            return what + " threw " + t + ", expected " + expectation(warrants, wantThrown, want);
        }
        if (!warrants.isEmpty() || wantThrown != null)
            return what + " returned " + show(got) + ", expected " + expectation(warrants, wantThrown, want);
        if (got == null || got.length == 0)
            return what + " returned " + show(got) + ", not a number";
        if (want != null && !Arrays.equals(want, got))
            return what + " returned " + show(got) + ", expected " + show(want);
        return null;
    }

    private static String expectation(List<Warrant> warrants, Class<? extends Throwable> wantThrown, byte[] want) {
        if (!warrants.isEmpty())
            return "one of " + warrants;
        if (wantThrown != null)
            return wantThrown.getSimpleName();
        return want == null ? "a number" : show(want);
    }

    /** An array as its bytes, or its length when long. */
    static String show(byte[] a) {
        return a == null ? "null" : a.length > 16 ? a.length + " bytes" : Arrays.toString(a);
    }
}
