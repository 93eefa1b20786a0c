package org.rccj.protocols.nowait;

import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.protocols.locking.LockWords;

/**
 * NOWAIT's LOCK stage: every access (read or write) takes the tuple's exclusive lock when it is fetched.
 * One-sided: the accesses are located, then each gets a CAS of its lock word and a READ of the whole tuple
 * in one doorbell batch (executed in order, so the READ sees the tuple after the CAS; only the READ is
 * signaled). RPC: the handler does the same CAS and copies the image. Both end in
 * {@link NowaitTuple#acceptLock}; the stage throws after every reply is in, so every lock the attempt took
 * is known to the RELEASE that follows the abort.
 */
final class NowaitLock extends TupleStage {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "nowait.lock"); }

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long txnId, long a1, byte[] req, int rp, byte[] reply, int r) {
            Bytes.putLong(reply, r + REPLY_R1, NowaitTuple.WORDS.serveLock(w, t, key, txnId, reply, r));
        }
    }

    private final TupleFetch locator;

    NowaitLock(CoroutineContext ctx, Rpc rpc, TupleFetch locator) {
        super(ctx, rpc);
        this.locator = locator;
    }

    @Override protected boolean selected(Access a) { return true; }

    @Override protected void prepare(Tx tx, int from, int to) { locator.locate(tx, from, to); }

    @Override
    protected void post(Access a, int i) {
        if (a.absent) return;
        add(ctx.op().cas(a.node, a.table.region(), a.offset + NowaitTuple.WORDS.lock, 0, ctx.tx.id).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op read) {
        if (a.absent) throw NowaitTuple.NOT_FOUND;
        LockWords.takeImage(a, read.data);
        NowaitTuple.acceptLock(a, cas.result);
        return false;
    }

    @Override protected long arg0(Access a) { return ctx.tx.id; }

    @Override
    protected void replied(Access a, long offset, long found, byte[] reply, int p) {
        TupleFetch.located(ctx, a, offset, reply, p);
        NowaitTuple.acceptLock(a, found);
    }
}
