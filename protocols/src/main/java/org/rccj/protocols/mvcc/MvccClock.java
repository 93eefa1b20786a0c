package org.rccj.protocols.mvcc;

/**
 * A coroutine's timestamp source: {@code clock << ID_BITS | coroutine id}, so timestamps are unique
 * across the cluster. The clock follows the worker's clock (virtual time on sim) and is pushed past
 * every timestamp seen in a tuple, so a transaction that lost a conflict retries with a later one.
 */
final class MvccClock {
    static final int ID_BITS = 20;
    static final long MAX_CLOCK = (1L << (63 - ID_BITS)) - 1;

    private final long id;
    private long clock;

    MvccClock(int coroutineId) {
        if (coroutineId <= 0 || coroutineId >= 1 << ID_BITS) {
            throw new IllegalArgumentException("coroutine id " + coroutineId + " does not fit in " + ID_BITS + " bits");
        }
        this.id = coroutineId;
    }

    /** A new timestamp, larger than every one this coroutine issued or saw. */
    long next(long physical) {
        clock = Math.max(clock + 1, physical);
        if (clock > MAX_CLOCK) throw new IllegalStateException("MVCC clock overflow");
        return clock << ID_BITS | id;
    }

    /** Moves the clock past a timestamp seen in a tuple. */
    void observe(long ts) {
        long c = ts >>> ID_BITS;
        if (c > clock) clock = c;
    }
}
