package org.rccj.protocols.waitdie;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.AbortException;
import org.rccj.protocols.locking.LockWords;

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
    static final int GRANTED = 1, WAIT = 2, DIE = 3, YIELD = 4, RUN_END = 5, CANCELLED = 6, ABSENT = 7;
    static final long OUTCOME_MASK = 0xff;
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
