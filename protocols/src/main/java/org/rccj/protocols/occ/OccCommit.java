package org.rccj.protocols.occ;

import java.lang.invoke.VarHandle;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.WriteStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Op;

/**
 * COMMIT stage: install each write (new version word, then the record) and release its lock, in one round
 * trip. One-sided: an unsignaled WRITE of version and record, then a signaled WRITE clearing the lock word,
 * in one doorbell batch on the same queue pair (executed in order). RPC: the handler writes the same bytes,
 * then clears the lock (the artifact's commit handler, {@code inplace_write_op} with {@code lock = 0}); one
 * message per written record, as the artifact's {@code write_back_oneshot} sends them.
 */
final class OccCommit extends WriteStage {
    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "occ.commit"); }

        /** One message per written record, flushed together ({@code write_back_oneshot}, occ.cc:337-363). */
        @Override protected boolean onePerItem() { return true; }

        @Override protected int requestPayload(Table t) { return 8 + t.recordBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset();
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + OccTuple.COMMIT_SPAN, q.data(), q.payload(), 8 + t.recordBytes);
            VarHandle.releaseFence();
            w.memory.putLongVolatile(t.region(), off + OccTuple.LOCK, 0);
        }
    }

    OccCommit(CoroutineContext ctx, Rpc rpc) { super(ctx, rpc); }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        Op op = ctx.op().write(a.node, a.table.region(), a.offset + OccTuple.COMMIT_SPAN, 8 + a.table.recordBytes);
        OccTuple.commitImage(a, ctx.tx.id, op.data, 0);
        install(op);
        add(ctx.op().writeLong(a.node, a.table.region(), a.offset + OccTuple.LOCK, 0));
    }

    @Override protected void payload(Access a, byte[] dst, int off) { OccTuple.commitImage(a, ctx.tx.id, dst, off); }

    @Override protected void done(Access a) { a.locked = false; }
}
