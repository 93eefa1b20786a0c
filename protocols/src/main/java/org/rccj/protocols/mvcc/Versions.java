package org.rccj.protocols.mvcc;

import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.AccessLongs;
import org.rccj.framework.txn.Tx;

/** What one attempt knows per write access about versions (one per coroutine): the slot LOCK chose for COMMIT to overwrite. */
final class Versions {
    private final AccessLongs victim;

    Versions(Tx tx) { this.victim = new AccessLongs(tx); }

    void victim(Access a, int slot) { victim.set(a, slot); }

    /** The slot COMMIT overwrites. */
    int victim(Access a) { return (int) victim.get(a); }
}
