package org.rccj.protocols.sundial;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.stage.ReleaseWord;
import org.rccj.framework.txn.Access;

/**
 * RELEASE stage (abort path only: a commit unlocks its writes itself, see {@link SundialCommit}): store the
 * rts frozen at the lock ({@link Leases#rtsWord}), unlocked, in every tuple this attempt locked.
 */
final class SundialRelease extends ReleaseWord {
    private final Leases leases;

    SundialRelease(CoroutineContext ctx, ReleaseWord.Rpc rpc, Leases leases) {
        super(ctx, rpc, SundialTuple.RTS);
        this.leases = leases;
    }

    @Override protected long valueAfter(Access a) { return leases.rtsWord(a); }
}
