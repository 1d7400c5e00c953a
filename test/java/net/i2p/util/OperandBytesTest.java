package net.i2p.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * Who owns an operand's byte form: a NativeBigInteger's cached form is
 * shared and never written while a call reads it; once the value is marked
 * secret, that form is zeroed as its last reader releases it, and calls get
 * copies of their own, zeroed after them.  The races themselves are
 * OwnershipRaceTest's.
 */
class OperandBytesTest {
    private static final BigInteger VALUE = new BigInteger("123456789abcdef0123456789abcdef", 16);
    private static final BigInteger P = new BigInteger("340282366920938463463374607431768211297"); // 2^128 - 159
    private static final BigInteger C = BigInteger.valueOf(5);

    private static NativeBigInteger fresh() {
        return new NativeBigInteger(VALUE.toByteArray());
    }

    private static boolean allZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0)
                return false;
        }
        return true;
    }

    @Test
    void aNativeBigIntegersFormIsSharedAndNeverWrittenByItsReaders() {
        NativeBigInteger n = fresh();
        OperandBytes first = OperandBytes.of(n);
        OperandBytes second = OperandBytes.of(n);
        assertTrue(first.isShared());
        assertSame(first.bytes, second.bytes, "one cached form for both calls");
        first.release();
        second.release();
        assertArrayEquals(VALUE.toByteArray(), first.bytes, "released, but still cached: left as it was");
        assertSame(first.bytes, OperandBytes.of(n).bytes);
    }

    @Test
    void aPlainBigIntegersFormIsTheCallsOwnAndZeroedOnRelease() {
        OperandBytes form = OperandBytes.of(VALUE);
        assertFalse(form.isShared());
        assertArrayEquals(VALUE.toByteArray(), form.bytes);
        form.release();
        assertTrue(allZero(form.bytes));
    }

    @Test
    void aCachedFormMarkedSecretWhileReadIsZeroedWhenTheLastReaderIsDone() {
        NativeBigInteger n = fresh();
        OperandBytes first = OperandBytes.of(n);
        OperandBytes second = OperandBytes.of(n);
        OperandBytes.markSecret(n);
        assertArrayEquals(VALUE.toByteArray(), first.bytes, "zeroed under its readers");
        first.release();
        assertArrayEquals(VALUE.toByteArray(), second.bytes, "zeroed under its last reader");
        second.release();
        assertTrue(allZero(second.bytes), "the secret's cached form was kept after its last reader");
        assertEquals(VALUE, n, "the value itself is BigInteger's, untouched");
    }

    @Test
    void aCachedFormMarkedSecretWithNoReaderIsZeroedAtOnce() {
        NativeBigInteger n = fresh();
        OperandBytes form = OperandBytes.of(n);
        form.release();
        OperandBytes.markSecret(n);
        assertTrue(allZero(form.bytes));
        assertNull(n.cachedForm);
    }

    @Test
    void aSecretValueGetsACopyForEachCallZeroedAfterIt() {
        NativeBigInteger n = fresh();
        OperandBytes.markSecret(n);
        OperandBytes first = OperandBytes.of(n);
        OperandBytes second = OperandBytes.of(n);
        assertFalse(first.isShared());
        assertNotSame(first.bytes, second.bytes);
        assertArrayEquals(VALUE.toByteArray(), first.bytes);
        first.release();
        assertTrue(allZero(first.bytes));
        assertArrayEquals(VALUE.toByteArray(), second.bytes);
        second.release();
        assertNull(n.cachedForm, "a secret value cached a form again");
        assertArrayEquals(VALUE.toByteArray(), n.toByteArray());
    }

    @Test
    void toByteArrayCopiesAsAReaderAndNeverHandsOutTheCachedForm() {
        NativeBigInteger n = fresh();
        OperandBytes reader = OperandBytes.of(n);
        byte[] copy = n.toByteArray();
        assertNotSame(reader.bytes, copy);
        assertArrayEquals(VALUE.toByteArray(), copy);
        copy[0] ^= 1;
        assertArrayEquals(VALUE.toByteArray(), reader.bytes, "a copy handed out wrote the cached form");
        OperandBytes.markSecret(n);
        assertArrayEquals(VALUE.toByteArray(), n.toByteArray(), "a secret's toByteArray()");
        reader.release();
        assertTrue(allZero(reader.bytes));
        assertArrayEquals(VALUE.toByteArray(), n.toByteArray());
    }

    @Test
    void aValueMadeFromANativeBigIntegerHasAFormOfItsOwn() {
        NativeBigInteger n = fresh();
        OperandBytes nForm = OperandBytes.of(n);
        NativeBigInteger copy = new NativeBigInteger(n);
        OperandBytes copyForm = OperandBytes.of(copy);
        assertNotSame(nForm.bytes, copyForm.bytes);
        OperandBytes.markSecret(n);
        nForm.release();
        assertTrue(allZero(nForm.bytes));
        assertArrayEquals(VALUE.toByteArray(), copyForm.bytes, "another value's marking zeroed this one's form");
        copyForm.release();
        assertEquals(VALUE, copy);
    }

    @Test
    void modPowCTWipesTheExponentsCachedFormAfterItsLastReader() {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        NativeBigInteger e = fresh();
        assertEquals(C.modPow(VALUE, P), NativeBigInteger.modPow(C, e, P)); // caches e's form
        OperandBytes inFlight = OperandBytes.of(e); // a call still reading it
        byte[] cached = inFlight.bytes;
        assertEquals(C.modPow(VALUE, P), NativeBigInteger.modPowCT(C, e, P));
        assertArrayEquals(VALUE.toByteArray(), cached, "zeroed under a call reading it");
        inFlight.release();
        assertTrue(allZero(cached), "the secret exponent's cached form stays in the heap");
        assertEquals(C.modPow(VALUE, P), NativeBigInteger.modPow(C, e, P));
    }

    @Test
    void aCallThatThrowsStopsReadingTheForm() {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        NativeBigInteger n = fresh();
        OperandBytes form = OperandBytes.of(n);
        form.release();
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.modPow(n, C, BigInteger.ZERO));
        assertThrows(ArithmeticException.class, () -> NativeBigInteger.modInverse(n, BigInteger.ZERO));
        OperandBytes.markSecret(n);
        assertTrue(allZero(form.bytes), "a failed call still counts as reading the form");
    }

    @Test
    void aNativeResultsFormIsCachedAndZeroedWhenMarked() {
        assumeTrue(NativeBigInteger.isNative(), "the library is not loaded");
        BigInteger r = NativeBigInteger.modPow(C, VALUE, P);
        assertTrue(r instanceof NativeBigInteger);
        NativeBigInteger result = (NativeBigInteger) r;
        OperandBytes form = OperandBytes.of(result);
        assertTrue(form.isShared());
        form.release();
        OperandBytes.markSecret(result);
        assertTrue(allZero(form.bytes));
        assertEquals(C.modPow(VALUE, P), result);
    }
}
