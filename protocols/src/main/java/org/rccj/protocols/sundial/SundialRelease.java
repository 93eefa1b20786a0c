package org.rccj.protocols.sundial;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.stage.ReleaseWord;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;

/**
 * RELEASE stage: store an unlocked rts word in every tuple this attempt locked: after a commit the new
 * version's lease end (the commit timestamp, see {@link #committed}), after an abort the rts frozen at the
 * lock ({@link Leases#rtsWord}).
 */
final class SundialRelease extends ReleaseWord {
    private final Leases leases;
    /** The commit timestamp of the attempt being released, 0 after an abort. */
    private long cts;

    SundialRelease(CoroutineContext ctx, ReleaseWord.Rpc rpc, Leases leases) {
        super(ctx, rpc, SundialTuple.RTS);
        this.leases = leases;
    }

    /** The next run releases a commit at {@code cts}: every tuple it locked holds the new version, lease [cts, cts]. */
    void committed(long cts) { this.cts = cts; }

    @Override
    public void run(Tx tx, boolean oneSided, boolean passiveAck) {
        super.run(tx, oneSided, passiveAck);
        cts = 0;
    }

    @Override protected long valueAfter(Access a) { return cts != 0 ? cts : leases.rtsWord(a); }
}
