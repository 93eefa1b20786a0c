package org.rccj.protocols.locking;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.txn.AbortException;
import org.rccj.primitives.RegisteredMemory;

/**
 * How a two-phase-locking protocol locks its read set ({@code protocol_options.read_locks}): {@code exclusive}
 * (the default, as the artifact does: "READ lock is implemented the same as WRITE lock") or {@code shared}.
 *
 * <p>Shared lock word: 0 = free; {@link #WRITER} | owner = held exclusively (a write); n &gt; 0 without
 * {@link #WRITER} = held by n readers. A reader takes it with a CAS from the reader count it expects to that
 * count + 1 (a CAS lost to another reader is repeated with the count it found, {@link #readStep}; one that
 * finds {@link #WRITER} is a conflict) and releases it with an FAA of -1; a writer CASes 0 to
 * {@link #WRITER} | owner and releases by storing 0. The one-sided and RPC halves use the same atomics on the
 * same word, so they interoperate. In exclusive mode the word holds the owner alone, as before.
 */
public enum ReadLocks {
    EXCLUSIVE, SHARED;

    public static final String NAME = "read_locks";
    public static final Param PARAM = Param.ofChoice(NAME, "exclusive", List.of("exclusive", "shared"),
            "how reads are locked: exclusive (like writes, the artifact's choice) or shared (reader count + writer bit in the lock word)");

    /** Bit of a lock word held by a writer (shared mode). */
    public static final long WRITER = 1L << 63;
    /** Results of {@link #readStep} that are not a new expectation (those are &gt;= 0). */
    public static final long GRANTED = -1, CONFLICT = -2;
    /** Bounds the CAS rounds of one shared-lock attempt (each lost to another reader). */
    public static final int MAX_ROUNDS = 32;

    public static ReadLocks of(String s) { return s.equals("shared") ? SHARED : EXCLUSIVE; }

    /** The mode in a protocol's {@code protocol_options} (resolved or partial: missing means the default). */
    public static ReadLocks of(java.util.Map<String, Object> options) { return of(String.valueOf(options.getOrDefault(NAME, "exclusive"))); }

    /** Whether access of this kind takes a shared lock. */
    public boolean shared(boolean write) { return this == SHARED && !write; }

    /** The value an exclusive lock stores for owner {@code owner}. */
    public long exclusiveValue(long owner) { return this == SHARED ? WRITER | owner : owner; }

    /** A shared-lock CAS expecting {@code expected} readers found {@code found}: granted, conflict or the count to expect next. */
    public static long readStep(long expected, long found) {
        if (found == expected) return GRANTED;
        if ((found & WRITER) != 0) return CONFLICT;
        return found;
    }

    /**
     * Server half of a shared lock on the owner node: CAS the reader count up, starting from the current word.
     * @return 0 if taken, the writer word if a writer holds the tuple, else (every CAS lost to another reader,
     *         {@link #MAX_ROUNDS} times) the last reader count seen, see {@link #gaveUp}
     */
    public static long serveShared(RegisteredMemory m, int region, long lockOff) {
        long expected = m.getLongVolatile(region, lockOff);
        for (int round = 0; round < MAX_ROUNDS; round++) {
            if ((expected & WRITER) != 0) return expected;
            long step = readStep(expected, m.cas(region, lockOff, expected, expected + 1));
            if (step == GRANTED) return 0;
            expected = step;
        }
        return expected;
    }

    /** Whether a non-zero lock attempt result means the shared CAS lost too often (no writer holds the tuple). */
    public static boolean gaveUp(long found) { return found != 0 && (found & WRITER) == 0; }

    /** Abort of a shared lock attempt whose CASes all lost to other readers. */
    public static final AbortException BUSY = AbortException.conflict("read_lock_busy");
}
