package org.rccj.protocols.nowait;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.Tx;
import org.rccj.protocols.locking.LockRelease;
import org.rccj.protocols.locking.LockingExecutor;

/** One coroutine's NOWAIT: lock at access time, abort on any conflict; LOG, COMMIT (writes, unlocking them), RELEASE (read locks). */
final class NowaitExecutor extends LockingExecutor {
    private final NowaitLock lock;

    NowaitExecutor(CoroutineContext ctx, NowaitProtocol p) {
        super(ctx, p.hybrid, NowaitTuple.WORDS, p.commitRpc, new LockRelease(ctx, NowaitTuple.WORDS, p.releaseRpc, p.readLocks));
        this.lock = new NowaitLock(ctx, p.lockRpc, new TupleFetch(ctx, p.fetchRpc), p.readLocks);
    }

    @Override
    protected void lock(Tx tx, int from, int to, boolean oneSided) { lock.run(tx, from, to, oneSided); }
}
