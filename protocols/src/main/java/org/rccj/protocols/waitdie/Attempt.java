package org.rccj.protocols.waitdie;

import org.rccj.framework.txn.AccessLongs;
import org.rccj.framework.txn.Tx;

/**
 * The current transaction of one coroutine as WAITDIE's stages see it: its timestamp (kept across the
 * retries of an aborted transaction, so the transaction ages until it is the oldest), what it did per
 * access, and this coroutine's wait-die figures.
 */
final class Attempt {
    long ts;
    /** Per access: {@link WaitDieTuple#MARKED} and {@link WaitDieTuple#WAITED} bits. */
    final AccessLongs marks;
    /** The last attempt was aborted by a lock conflict: the next begin is its retry and keeps {@link #ts}. */
    boolean retrying;
    // figures of this coroutine
    long waits, dies, yields, runEnds, maxWaitNs;

    Attempt(Tx tx) { this.marks = new AccessLongs(tx); }

    void count(int outcome) {
        switch (outcome) {
            case WaitDieTuple.DIE -> dies++;
            case WaitDieTuple.YIELD -> yields++;
            case WaitDieTuple.RUN_END -> runEnds++;
            default -> { }
        }
    }
}
