package org.rccj.protocols.waitdie;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.AbortException;
import org.rccj.protocols.locking.LockWords;
import org.rccj.protocols.locking.ReadLocks;

/**
 * WAITDIE's tuple header and the decisions both halves of its stages take.
 * <ul>
 * <li>{@code lock}: the owner's timestamp, 0 = free. A smaller timestamp is an older transaction.</li>
 * <li>{@code waiter}: the starvation fix, the timestamp of the oldest transaction waiting for this tuple
 * (0 = none). A waiter lowers it with CAS while it waits and its RELEASE clears it (CAS back to 0). A
 * transaction that takes the free lock while an older transaction is marked gives the lock back and dies,
 * so one-sided CAS races cannot starve the oldest waiter.</li>
 * <li>{@code version}: id of the transaction whose write installed the record (for the history).</li>
 * </ul>
 */
final class WaitDieTuple {
    static final String WAITER_WORD = "waiter";
    static final HeaderLayout LAYOUT = HeaderLayout.of(LockWords.LOCK_WORD, WAITER_WORD, LockWords.VERSION_WORD);
    static final LockWords WORDS = new LockWords(LAYOUT);
    static final int LOCK = WORDS.lock;
    static final int WAITER = LAYOUT.offset(WAITER_WORD);

    /** Outcomes of one lock attempt (also the low byte of an RPC lock reply's R1). */
    static final int GRANTED = 1, WAIT = 2, DIE = 3, YIELD = 4, RUN_END = 5, CANCELLED = 6, ABSENT = 7, RETRY = 8;
    static final long OUTCOME_MASK = 0xff;
    /** RPC LOCK item ARG1: how the item locks (exclusive mode; shared mode, a read; shared mode, a write). */
    static final long MODE_EXCLUSIVE = 0, MODE_SHARED_READ = 1, MODE_SHARED_WRITE = 2;

    static long mode(ReadLocks readLocks, boolean write) {
        return readLocks == ReadLocks.EXCLUSIVE ? MODE_EXCLUSIVE : write ? MODE_SHARED_WRITE : MODE_SHARED_READ;
    }

    /** RPC lock reply flag: the handler left this transaction's mark in the waiter word (RELEASE clears it). */
    static final long MARKED_FLAG = 1 << 8;
    /** {@link Attempt#marks} bits: this attempt may have marked the tuple's waiter word; it waited for the tuple. */
    static final long MARKED = 1, WAITED = 2;

    static final AbortException DIED = AbortException.conflict("wait_die");
    static final AbortException YIELDED = AbortException.conflict("yield_to_older_waiter");
    static final AbortException ENDED = AbortException.conflict("wait_at_run_end");
    static final AbortException NOT_FOUND = AbortException.conflict("not_found");

    private WaitDieTuple() {}

    /**
     * The wait-die rule for one attempt: the CAS of the lock word from 0 to {@code ts} found {@code found};
     * the waiter word read behind it is {@code waiter}.
     * @param runEnded the run is over: waiting is pointless, the attempt gives up instead
     */
    static int decide(long ts, long found, long waiter, boolean runEnded) {
        if (found == 0) return waiter != 0 && waiter < ts ? YIELD : GRANTED;
        if (found == ts) throw new IllegalStateException("lock already held by its own transaction " + ts);
        if (found < ts) return DIE;                 // the holder is older: the younger requester dies
        return runEnded ? RUN_END : WAIT;           // the holder is younger: the older requester waits
    }

    /**
     * The wait-die rule with shared read locks ({@link ReadLocks}; a writer's word is {@code WRITER | ts}): the
     * CAS expected {@code expected} (a reader: the reader count; a writer: 0) and found {@code found}. A tuple
     * held by a writer is decided by age as above. A tuple held by readers: a reader tries again with the
     * count it found ({@link #RETRY}); a writer dies, because the readers' ages are not in the word and waiting
     * for an older one could close a cycle (waits still only go from older to younger).
     */
    static int decideShared(boolean write, long ts, long expected, long found, long waiter, boolean runEnded) {
        if (found == expected) return waiter != 0 && waiter < ts ? YIELD : GRANTED;
        if ((found & ReadLocks.WRITER) == 0) return write ? DIE : runEnded ? RUN_END : RETRY;
        long holder = found & ~ReadLocks.WRITER;
        if (holder == ts) throw new IllegalStateException("lock already held by its own transaction " + ts);
        if (holder < ts) return DIE;
        return runEnded ? RUN_END : WAIT;
    }

    /** Whether a waiter with timestamp {@code ts} should put itself in a waiter word holding {@code waiter}. */
    static boolean shouldMark(long ts, long waiter) { return waiter == 0 || ts < waiter; }

    /** The abort of an attempt that ended with {@code outcome} (not GRANTED or WAIT). */
    static AbortException abortFor(int outcome) {
        return switch (outcome) {
            case DIE, CANCELLED -> DIED;
            case YIELD -> YIELDED;
            case RUN_END -> ENDED;
            case ABSENT -> NOT_FOUND;
            default -> throw new IllegalArgumentException("outcome " + outcome + " is not an abort");
        };
    }
}
