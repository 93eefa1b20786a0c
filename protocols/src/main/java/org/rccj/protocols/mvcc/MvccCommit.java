package org.rccj.protocols.mvcc;

import java.lang.invoke.VarHandle;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.WriteStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Op;

/**
 * COMMIT stage: install each write as a new version in the victim slot chosen at LOCK ({@link Versions#victim}),
 * while tts is still held: first the record, then the slot's (wts, wid) — the order the READ stage's
 * double-read check relies on — then release tts, in one round trip (the artifact's {@code try_update}).
 * One-sided: two unsignaled WRITEs and a signaled WRITE of tts = 0 on the same queue pair (executed in
 * order). RPC: the handler stores the same words in the same order.
 */
final class MvccCommit extends WriteStage {
    static final class Rpc extends MvccRpc {
        Rpc(ClusterView c, MvccTuple tuple) { super(c, "mvcc.commit", tuple); }

        @Override protected int requestPayload(Table t) { return MvccTuple.COMMIT_RECORD + t.recordBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset(), slot = q.arg1();
            int s = (int) slot;
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + t.recordOffset(s), q.data(), q.payload() + MvccTuple.COMMIT_RECORD, t.recordBytes);
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + tuple.wts[s], q.data(), q.payload() + MvccTuple.COMMIT_WTS, MvccTuple.COMMIT_VERSION_BYTES);
            VarHandle.releaseFence();
            w.memory.putLongVolatile(t.region(), off + tuple.tts, 0);
        }
    }

    private final MvccTuple tuple;
    private final Versions versions;
    private long ts;

    MvccCommit(CoroutineContext ctx, MvccTuple tuple, Rpc rpc, Versions versions) {
        super(ctx, rpc);
        this.tuple = tuple;
        this.versions = versions;
    }

    /** The timestamp the next run installs its versions at. */
    void timestamp(long ts) { this.ts = ts; }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        int s = versions.victim(a);
        int bytes = a.table.recordBytes;
        Op record = ctx.op().write(a.node, a.table.region(), a.offset + a.table.recordOffset(s), bytes);
        System.arraycopy(a.update, 0, record.data, 0, bytes);
        install(record);
        Op version = ctx.op().write(a.node, a.table.region(), a.offset + tuple.wts[s], MvccTuple.COMMIT_VERSION_BYTES);
        MvccTuple.versionImage(ts, ctx.tx.id, version.data, 0);
        install(version);
        add(ctx.op().writeLong(a.node, a.table.region(), a.offset + tuple.tts, 0));
    }

    @Override protected long arg0(Access a) { return ts; }
    @Override protected long arg1(Access a) { return versions.victim(a); }
    @Override protected void payload(Access a, byte[] dst, int off) { MvccTuple.commitImage(a, ts, ctx.tx.id, dst, off); }

    @Override protected void done(Access a) { a.locked = false; }
}
