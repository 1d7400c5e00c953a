package net.i2p.util;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * What an operation did: its value, or the class of what it threw.  Two
 * outcomes are equal when both returned equal values with the same
 * canonical bytes, or both threw the same exception class.
 */
final class Outcome {
    final BigInteger value;
    final Class<? extends Throwable> thrown;
    final String message;

    private Outcome(BigInteger value, Throwable thrown) {
        this.value = value;
        this.thrown = thrown == null ? null : thrown.getClass();
        this.message = thrown == null ? null : thrown.getMessage();
    }

    static Outcome of(Callable<BigInteger> operation) {
        try {
            return new Outcome(operation.call(), null);
        } catch (RuntimeException e) {
            return new Outcome(null, e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    boolean sameAs(Outcome other) {
        if (thrown != null || other.thrown != null)
            return thrown == other.thrown;
        return value.equals(other.value) && Arrays.equals(value.toByteArray(), other.value.toByteArray());
    }

    @Override
    public String toString() {
        return thrown != null ? thrown.getSimpleName() + "(" + message + ")" : value.toString(16);
    }
}
