package org.rccj.protocols.sundial;

import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.AccessLongs;
import org.rccj.framework.txn.Tx;

/**
 * What one attempt relies on per access (one per coroutine): the version read (its wts) and the rts word —
 * seen at READ, or for a write the unlocked value frozen by LOCK, which RELEASE restores after an abort. The commit
 * timestamp is computed from both; the new version's lease after a commit is the executor's, not kept here.
 */
final class Leases {
    private final AccessLongs wts, rts;

    Leases(Tx tx) {
        this.wts = new AccessLongs(tx);
        this.rts = new AccessLongs(tx);
    }

    /** READ took the version {@code wts} under the rts word {@code rtsWord} (LOCK: the unlocked word it froze). */
    void read(Access a, long wts, long rtsWord) {
        this.wts.set(a, wts);
        this.rts.set(a, rtsWord);
    }

    /** wts of the version read (0 if none was). */
    long wts(Access a) { return wts.get(a); }

    /** The rts word relied on: as read, or as frozen by LOCK. */
    long rtsWord(Access a) { return rts.get(a); }

    /** The rts word a LOCK CAS or RENEW CAS first expects: the lease end read, unlocked. */
    long expectedWord(Access a) { return SundialTuple.rtsOf(rts.get(a)); }
}
