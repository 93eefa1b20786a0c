package org.rccj.protocols.waitdie;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Op;
import org.rccj.protocols.locking.LockRelease;
import org.rccj.protocols.locking.ReadLocks;

/**
 * WAITDIE's RELEASE: besides clearing the lock word, it takes the attempt's timestamp out of the waiter
 * word of every tuple it marked (CAS from its timestamp to 0, before the unlock so no younger transaction
 * yields to a finished one). The RPC handler clears the lock and lets the node's parked waiters of the tuple
 * try again in one step under the wait table's monitor, so a parked request never misses an RPC release.
 */
final class WaitDieRelease extends LockRelease {
    static final class Rpc extends LockRelease.Rpc {
        private final WaitTable[] tables;

        Rpc(ClusterView c, WaitTable[] tables) {
            super(c, "waitdie.release", WaitDieTuple.WORDS);
            this.tables = tables;
        }

        @Override
        protected void beforeUnlock(RpcWorker w, Table t, long off, long ts) {
            w.memory.cas(t.region(), off + WaitDieTuple.WAITER, ts, 0);
        }

        @Override
        protected void unlock(RpcWorker w, Table t, long off) {
            WaitTable q = tables[w.node];
            q.release(w, t, off);
            q.sendReplies(w);
        }

        @Override
        protected void unlockShared(RpcWorker w, Table t, long off) {
            WaitTable q = tables[w.node];
            q.releaseShared(w, t, off);
            q.sendReplies(w);
        }
    }

    private final Attempt attempt;

    WaitDieRelease(CoroutineContext ctx, Rpc rpc, Attempt attempt, ReadLocks readLocks) {
        super(ctx, WaitDieTuple.WORDS, rpc, readLocks);
        this.attempt = attempt;
    }

    @Override protected long owner() { return attempt.ts; }

    @Override protected boolean hasExtra(Access a) { return attempt.marks.has(a, WaitDieTuple.MARKED); }

    @Override
    protected Op extraOp(Access a, boolean last) {
        Op op = ctx.op().cas(a.node, a.table.region(), a.offset + WaitDieTuple.WAITER, attempt.ts, 0);
        return last ? op : op.unsignaled();
    }

    @Override protected void clearExtra(Access a) { attempt.marks.clearBits(a, WaitDieTuple.MARKED); }
}
