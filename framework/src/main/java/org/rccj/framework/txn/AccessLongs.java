package org.rccj.framework.txn;

import java.util.Arrays;

/**
 * One long of protocol state per access of a transaction, by the access's {@link Access#index}: a protocol
 * names each piece of per-access state it keeps (SUNDIAL's lease, MVCC's victim slot, ...) as one of these,
 * held by its per-coroutine executor or stages. Every value is 0 for an access just added. Allocation-free
 * once grown to the largest transaction.
 */
public final class AccessLongs {
    private long[] values = new long[16];

    /** Registers with {@code tx}, which zeroes the value of every access it adds. */
    public AccessLongs(Tx tx) { tx.keep(this); }

    public long get(Access a) { return values[a.index]; }

    public void set(Access a, long v) { values[a.index] = v; }

    /** Sets the bits {@code bits} of the access's value. */
    public void setBits(Access a, long bits) { values[a.index] |= bits; }

    /** Clears the bits {@code bits} of the access's value. */
    public void clearBits(Access a, long bits) { values[a.index] &= ~bits; }

    public boolean has(Access a, long bits) { return (values[a.index] & bits) != 0; }

    void added(int index) {
        if (index >= values.length) values = Arrays.copyOf(values, Math.max(index + 1, values.length * 2));
        values[index] = 0;
    }
}
