package org.rccj.protocols.drtm;

import java.lang.invoke.VarHandle;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.WriteStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * COMMIT stage: for every tuple this attempt holds exclusively, write back the new version and record,
 * then free the lock word (after an abort: only free it). One-sided: an unsignaled WRITE of the
 * version+record and a WRITE of the lock word in one doorbell batch (same queue pair, so the unlock lands
 * after the data). RPC: the handler writes the same bytes in the same order; a commit's RPCs are passive (no
 * reply awaited, as in CommitTail), an abort's unlock RPCs are not.
 */
final class DrtmCommit extends WriteStage {
    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "drtm.commit"); }

        @Override protected int requestPayload(Table t) { return DrtmTuple.commitBytes(t); }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset();
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + DrtmTuple.COMMIT_SPAN, q.data(), q.payload(), DrtmTuple.commitBytes(t));
            w.memory.putLongVolatile(t.region(), off + DrtmTuple.LOCK, DrtmLockWord.FREE);
        }
    }

    static final class UnlockRpc extends TupleRpc {
        UnlockRpc(ClusterView c) { super(c, "drtm.unlock"); }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset();
            w.memory.putLongVolatile(t.region(), off + DrtmTuple.LOCK, DrtmLockWord.FREE);
        }
    }

    private final UnlockRpc unlockRpc;
    private boolean writeBack;

    DrtmCommit(CoroutineContext ctx, Rpc rpc, UnlockRpc unlockRpc) {
        super(ctx, rpc);
        this.unlockRpc = unlockRpc;
    }

    /** Writes back and unlocks every locked access; after the decision, so the RPC half is passive (runPassive). */
    void commit(Tx tx, boolean oneSided) {
        writeBack = true;
        runPassive(tx, oneSided);
    }

    /** Unlocks every locked access without writing (abort). */
    void release(Tx tx, boolean oneSided) {
        writeBack = false;
        run(tx, oneSided);
    }

    @Override protected TupleRpc rpc() { return writeBack ? super.rpc() : unlockRpc; }

    @Override protected boolean selected(Access a) { return a.locked; }

    @Override
    protected void post(Access a, int i) {
        if (writeBack) {
            Op w = ctx.op().write(a.node, a.table.region(), a.offset + DrtmTuple.COMMIT_SPAN, DrtmTuple.commitBytes(a.table));
            DrtmTuple.commitImage(a, ctx.tx.id, w.data, 0);
            add(w.unsignaled());
        }
        add(ctx.op().writeLong(a.node, a.table.region(), a.offset + DrtmTuple.LOCK, DrtmLockWord.FREE));
    }

    @Override
    protected void payload(Access a, byte[] dst, int off) {
        if (writeBack) DrtmTuple.commitImage(a, ctx.tx.id, dst, off);
    }

    @Override protected void done(Access a) { a.locked = false; }
}
