package net.i2p.util;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The byte form of one operand for one native call ({@code toByteArray()}
 * form), and who owns it, decided when the form is obtained and never
 * inferred afterwards.
 *
 * <p>Either the call owns the array (a plain {@code BigInteger}'s, or a
 * secret NativeBigInteger's, made for this call alone), and
 * {@link #release()} zeroes it; or the array is a NativeBigInteger's cached
 * form, which other calls may be reading at the same moment: this call is
 * then counted as one of its readers, and no call ever writes it.
 *
 * <p>When a NativeBigInteger is marked secret ({@link #markSecret}, as it
 * becomes a constant-time exponent), its cached form is dropped: no call
 * obtains it any more (each gets a copy of its own), and it is zeroed as
 * soon as the last call that was reading it releases it (at once if none
 * was).  So a secret's value stays in the heap no longer than a call in
 * flight needs it, and an array another call is reading is never written.
 *
 * <p>Every {@link #of} is matched by exactly one {@link #release()}, in a
 * {@code finally}.
 */
final class OperandBytes {
    /** The array to hand to the native call; written by nobody while shared. */
    final byte[] bytes;
    /** The cached form this call reads, or null if the call owns bytes. */
    private final Shared shared;

    private OperandBytes(byte[] bytes, Shared shared) {
        this.bytes = bytes;
        this.shared = shared;
    }

    /**
     * The byte form of value for one call: a NativeBigInteger's cached form
     * (made and cached now if it has none) unless the value is secret, else
     * a new array that this call owns.
     *
     * @throws NullPointerException if value is null
     */
    static OperandBytes of(BigInteger value) {
        if (value instanceof NativeBigInteger) {
            NativeBigInteger n = (NativeBigInteger) value;
            Shared form = readCached(n);
            if (form != null)
                return new OperandBytes(form.bytes, form);
            return new OperandBytes(n.ownBytes(), null);
        }
        return new OperandBytes(value.toByteArray(), null);
    }

    /** Ends this call's use of the array: zeroes it if the call owns it, else stops reading the cached form. */
    void release() {
        if (shared == null)
            Arrays.fill(bytes, (byte) 0);
        else
            shared.release();
    }

    /** Releases each operand that is not null (those obtained before a failure). */
    static void release(OperandBytes a, OperandBytes b, OperandBytes c) {
        if (a != null)
            a.release();
        if (b != null)
            b.release();
        if (c != null)
            c.release();
    }

    /**
     * A copy of the bytes that the caller owns (for toByteArray()): the array
     * itself if this call owns it, else a copy of the cached form.  This
     * OperandBytes is released.
     */
    byte[] take() {
        if (shared == null)
            return bytes;
        try {
            return bytes.clone();
        } finally {
            shared.release();
        }
    }

    /** Whether this call reads a cached form (for tests). */
    boolean isShared() {
        return shared != null;
    }

    // ---- the cached form of a NativeBigInteger ----

    private static final AtomicReferenceFieldUpdater<NativeBigInteger, Shared> CACHED =
            AtomicReferenceFieldUpdater.newUpdater(NativeBigInteger.class, Shared.class, "cachedForm");

    /** A cached form for a value whose bytes nothing else holds (a native result): no reader yet. */
    static Shared cacheOf(byte[] canonicalBytes) {
        return new Shared(canonicalBytes, 0);
    }

    /**
     * n's cached form with this call counted as a reader, made and
     * published now if n has none; null if n is secret.
     */
    private static Shared readCached(NativeBigInteger n) {
        while (!n.secret) {
            Shared form = n.cachedForm;
            if (form == null) {
                form = new Shared(n.ownBytes(), 1); // born with this call as its reader
                if (!CACHED.compareAndSet(n, null, form))
                    continue; // another call cached one first: read that
                if (n.secret) // marked meanwhile, perhaps before the form was there to drop
                    retire(n, form);
                return form;
            }
            if (form.acquire())
                return form;
            // Dropped: n has been marked secret, and the loop ends.
        }
        return null;
    }

    /**
     * Marks value, about to be used as a constant-time exponent, as secret:
     * a NativeBigInteger keeps no cached form from now on, and the one it
     * had is zeroed as its last reader releases it.  Other values: nothing.
     */
    static void markSecret(BigInteger value) {
        if (value instanceof NativeBigInteger) {
            NativeBigInteger n = (NativeBigInteger) value;
            n.secret = true;
            Shared form = CACHED.getAndSet(n, null);
            if (form != null)
                form.drop();
        }
    }

    private static void retire(NativeBigInteger n, Shared form) {
        CACHED.compareAndSet(n, form, null);
        form.drop();
    }

    /**
     * A cached byte form and the calls reading it: state counts the
     * readers, and its top bit says the form was dropped (no new readers).
     * Exactly one party zeroes a dropped form: drop() if no call was
     * reading it, else the release() that ends the last reading.
     */
    static final class Shared {
        private static final int DROPPED = Integer.MIN_VALUE;
        private static final AtomicIntegerFieldUpdater<Shared> STATE =
                AtomicIntegerFieldUpdater.newUpdater(Shared.class, "state");

        final byte[] bytes;
        private volatile int state;

        Shared(byte[] bytes, int readers) {
            this.bytes = bytes;
            this.state = readers;
        }

        /** Counts one more reader; false if the form was dropped. */
        boolean acquire() {
            for (;;) {
                int s = state;
                if (s < 0)
                    return false;
                if (STATE.compareAndSet(this, s, s + 1))
                    return true;
            }
        }

        void release() {
            if (STATE.decrementAndGet(this) == DROPPED)
                Arrays.fill(bytes, (byte) 0);
        }

        /** No new readers from now on; zeroed now if none is reading. Dropping twice does nothing more. */
        void drop() {
            for (;;) {
                int s = state;
                if (s < 0)
                    return;
                if (STATE.compareAndSet(this, s, s | DROPPED)) {
                    if (s == 0)
                        Arrays.fill(bytes, (byte) 0);
                    return;
                }
            }
        }
    }
}
