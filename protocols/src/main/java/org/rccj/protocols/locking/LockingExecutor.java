package org.rccj.protocols.locking;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.stage.CommitTail;
import org.rccj.framework.txn.Tx;

/**
 * One coroutine's two-phase locking: every access is locked when it is fetched (the LOCK stage brings the
 * tuple in behind its lock), then LOG, COMMIT (installs and unlocks the writes) and RELEASE (the read
 * locks); an abort releases what the attempt holds. Subclasses supply the LOCK stage (what happens on a conflict) and their RELEASE.
 */
public abstract class LockingExecutor extends TxnExecutor {
    protected final HybridCode code;
    private final LockCommit commit;
    private final LockRelease release;

    protected LockingExecutor(CoroutineContext ctx, HybridCode code, LockWords words, LockCommit.Rpc commitRpc, LockRelease release) {
        super(ctx);
        this.code = code;
        this.commit = new LockCommit(ctx, words, commitRpc, release);
        this.release = release;
    }

    /** LOCK stage for accesses {@code [from, to)}: on return each is locked and its image accepted; else throws. */
    protected abstract void lock(Tx tx, int from, int to, boolean oneSided);

    @Override
    public final void fetch(Tx tx, int from, int to) {
        long t = ctx.stageStart();
        lock(tx, from, to, code.oneSided(Stage.LOCK));
        ctx.stageEnd(Stage.LOCK, t);
    }

    @Override
    public final void commit(Tx tx) {
        CommitTail.run(ctx, tx, code, ctx.stageStart(), !tx.readOnly(), commit, release);
    }


    @Override
    public final void abort(Tx tx) { CommitTail.abort(ctx, tx, code, release); }
}
