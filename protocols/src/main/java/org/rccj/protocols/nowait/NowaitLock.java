package org.rccj.protocols.nowait;

import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.protocols.locking.LockWords;
import org.rccj.protocols.locking.OneSidedLockRound;

/**
 * NOWAIT's LOCK stage: every access (read or write) takes the tuple's exclusive lock when it is fetched.
 * One-sided: CAS + READ in one doorbell batch ({@link OneSidedLockRound}). RPC: the handler does the same CAS
 * and copies the image. Both end in {@link NowaitTuple#acceptLock}; the stage throws after every reply is
 * in, so every lock the attempt took is known to the RELEASE that follows the abort.
 */
final class NowaitLock {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "nowait.lock"); }

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long txnId, long a1, byte[] req, int rp, byte[] reply, int r) {
            Bytes.putLong(reply, r + REPLY_R1, NowaitTuple.WORDS.serveLock(w, t, key, txnId, reply, r));
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final OneSidedLockRound round;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private RuntimeException failure;
    private int[] pending = new int[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return true; }
        @Override public long arg0(Access a) { return ctx.tx.id; }

        @Override
        public void result(Access a, long offset, long found, byte[] reply, int p) {
            LockWords.takeReplyImage(ctx, a, offset, reply, p);
            decide(a, found);
        }
    };

    NowaitLock(CoroutineContext ctx, Rpc rpc, TupleFetch locator) {
        this.ctx = ctx;
        this.rpc = rpc;
        this.round = new OneSidedLockRound(ctx, NowaitTuple.WORDS, locator);
    }

    private void decide(Access a, long found) {
        try {
            NowaitTuple.acceptLock(a, found);
        } catch (RuntimeException e) {
            if (failure == null) failure = e;
        }
    }

    void run(Tx tx, int from, int to, boolean oneSided) {
        failure = null;
        if (oneSided) {
            int n = to - from;
            if (n > pending.length) pending = new int[Math.max(n, pending.length * 2)];
            for (int k = 0; k < n; k++) pending[k] = from + k;
            round.run(tx, from, to, pending, n, tx.id);
            for (int k = 0; k < n; k++) decide(tx.access(pending[k]), round.found(k));
        } else {
            rpc.call(ctx, caller, tx, from, to, items);
            ctx.release();
        }
        if (failure != null) throw failure;
    }
}
