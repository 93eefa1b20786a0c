package org.rccj.protocols.nowait;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.protocols.locking.LockWords;

/**
 * NOWAIT's tuple header: a lock word holding the owning attempt's transaction id (0 = free) and the version
 * word (id of the write that installed the record). The lock decision both halves of the LOCK stage take
 * lives here.
 */
final class NowaitTuple {
    static final HeaderLayout LAYOUT = HeaderLayout.of(LockWords.LOCK_WORD, LockWords.VERSION_WORD);
    static final LockWords WORDS = new LockWords(LAYOUT);

    static final AbortException LOCK_CONFLICT = AbortException.conflict("lock_conflict");
    static final AbortException NOT_FOUND = AbortException.conflict("not_found");

    private NowaitTuple() {}

    /**
     * LOCK: the lock attempt found {@code found} (0 = taken); on success the image read behind it is the
     * tuple as this transaction reads it. Any conflict aborts at once: nobody waits.
     */
    static void acceptLock(Access a, long found) {
        if (a.absent) throw NOT_FOUND;
        if (found != 0) throw LOCK_CONFLICT;
        a.locked = true;
        WORDS.acceptImage(a);
    }
}
