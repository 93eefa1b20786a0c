package org.rccj.protocols.waitdie;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Tx;
import org.rccj.protocols.locking.LockingExecutor;

/**
 * One coroutine's WAITDIE: a timestamp per transaction (kept across its retries), lock at access time with
 * the wait-die rule, then LOG, COMMIT, RELEASE.
 */
final class WaitDieExecutor extends LockingExecutor {
    final Attempt attempt;
    private final Timestamps clock;
    private final WaitDieLock lock;

    private WaitDieExecutor(CoroutineContext ctx, WaitDieProtocol p, Attempt attempt) {
        super(ctx, p.hybrid, WaitDieTuple.WORDS, p.commitRpc, new WaitDieRelease(ctx, p.releaseRpc, attempt, p.readLocks));
        this.attempt = attempt;
        this.clock = new Timestamps(ctx);
        this.lock = new WaitDieLock(ctx, p.lockRpc, new TupleFetch(ctx, p.fetchRpc), attempt, p.marksWaiters(), p.retryNs, p.readLocks);
    }

    WaitDieExecutor(CoroutineContext ctx, WaitDieProtocol p) { this(ctx, p, new Attempt(ctx.tx)); }

    @Override
    public void begin(Tx tx) {
        if (!attempt.retrying) attempt.ts = clock.next();
        attempt.retrying = false;
    }

    @Override
    protected void lock(Tx tx, int from, int to, boolean oneSided) {
        try {
            lock.run(tx, from, to, oneSided);
        } catch (AbortException e) {
            attempt.retrying = true;
            throw e;
        }
    }
}
