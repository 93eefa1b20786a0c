package org.rccj.protocols.drtm;

import java.lang.invoke.VarHandle;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * COMMIT stage: for every tuple this attempt holds exclusively, write back the new version and record,
 * then free the lock word (after an abort: only free it). One-sided: an unsignaled WRITE of the
 * version+record and a WRITE of the lock word in one doorbell batch (same queue pair, so the unlock lands
 * after the data). RPC: the handler writes the same bytes in the same order.
 */
final class DrtmCommit {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "drtm.commit"); }

        @Override protected int requestPayload(Table t) { return DrtmTuple.commitBytes(t); }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long a0, long a1, byte[] req, int rp, byte[] reply, int r) {
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + DrtmTuple.COMMIT_SPAN, req, rp, DrtmTuple.commitBytes(t));
            w.memory.putLongVolatile(t.region(), off + DrtmTuple.LOCK, DrtmLockWord.FREE);
        }
    }

    static final class UnlockRpc extends TupleRpc {
        UnlockRpc(Cluster c) { super(c, "drtm.unlock"); }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long a0, long a1, byte[] req, int rp, byte[] reply, int r) {
            w.memory.putLongVolatile(t.region(), off + DrtmTuple.LOCK, DrtmLockWord.FREE);
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final UnlockRpc unlockRpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private final TupleRpc.Items commitItems = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.locked; }
        @Override public void payload(Access a, byte[] dst, int off) { DrtmTuple.commitImage(a, ctx.tx.id, dst, off); }
        @Override public void result(Access a, long r0, long r1, byte[] reply, int p) { a.locked = false; }
    };
    private final TupleRpc.Items unlockItems = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.locked; }
        @Override public void result(Access a, long r0, long r1, byte[] reply, int p) { a.locked = false; }
    };

    DrtmCommit(CoroutineContext ctx, Rpc rpc, UnlockRpc unlockRpc) {
        this.ctx = ctx;
        this.rpc = rpc;
        this.unlockRpc = unlockRpc;
    }

    /** Writes back and unlocks every locked access. */
    void commit(Tx tx, boolean oneSided) { run(tx, oneSided, true); }

    /** Unlocks every locked access without writing (abort). */
    void release(Tx tx, boolean oneSided) { run(tx, oneSided, false); }

    private void run(Tx tx, boolean oneSided, boolean writeBack) {
        if (!oneSided) {
            unlockOrCommitRpc(tx, writeBack);
            return;
        }
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!a.locked) continue;
            if (writeBack) {
                Op w = ctx.op().write(a.node, a.table.region(), a.offset + DrtmTuple.COMMIT_SPAN, DrtmTuple.commitBytes(a.table));
                DrtmTuple.commitImage(a, tx.id, w.data, 0);
                ctx.add(w.unsignaled());
            }
            ctx.add(ctx.op().writeLong(a.node, a.table.region(), a.offset + DrtmTuple.LOCK, DrtmLockWord.FREE));
            a.locked = false;
        }
        ctx.flushAndWait();
        ctx.release();
    }

    private void unlockOrCommitRpc(Tx tx, boolean writeBack) {
        if (writeBack) rpc.call(ctx, caller, tx, 0, tx.size(), commitItems);
        else unlockRpc.call(ctx, caller, tx, 0, tx.size(), unlockItems);
        ctx.release();
    }
}
