package org.rccj.protocols.mvcc;

import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.AccessLongs;
import org.rccj.framework.txn.Tx;

/**
 * What one attempt knows per access about versions (one per coroutine): the wts of the version READ took
 * (LOCK checks it is still the newest) and the slot LOCK chose for COMMIT to overwrite.
 */
final class Versions {
    private final AccessLongs readWts, victim;

    Versions(Tx tx) {
        this.readWts = new AccessLongs(tx);
        this.victim = new AccessLongs(tx);
    }

    void read(Access a, long wts) { readWts.set(a, wts); }

    /** wts of the version read. */
    long readWts(Access a) { return readWts.get(a); }

    void victim(Access a, int slot) { victim.set(a, slot); }

    /** The slot COMMIT overwrites. */
    int victim(Access a) { return (int) victim.get(a); }
}
