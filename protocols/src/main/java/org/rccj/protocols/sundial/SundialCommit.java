package org.rccj.protocols.sundial;

import java.lang.invoke.VarHandle;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.WriteStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * COMMIT stage: install each write at the commit timestamp while the lock is held and release it, in one
 * round trip (the artifact's {@code try_update}): mark the rts word COMMITTING, store the record, then
 * (wts = cts, wid = txn id), then the rts word = cts, unlocked (the new version's lease [cts, cts]) — the
 * order the READ stage's double-read check relies on. One-sided: four WRITEs on the same queue pair
 * (executed in order) in one doorbell, only the last (the unlock) signaled. RPC: the handler stores the
 * same words in the same order.
 */
final class SundialCommit extends WriteStage {
    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "sundial.commit"); }

        @Override protected int requestPayload(Table t) { return SundialTuple.COMMIT_RECORD + t.recordBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset(), cts = q.arg0(), committingWord = q.arg1();
            w.memory.putLongVolatile(t.region(), off + SundialTuple.RTS, committingWord);
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + t.recordOffset, q.data(), q.payload() + SundialTuple.COMMIT_RECORD, t.recordBytes);
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + SundialTuple.WTS, q.data(), q.payload() + SundialTuple.COMMIT_WTS, SundialTuple.COMMIT_VERSION_BYTES);
            VarHandle.releaseFence();
            w.memory.putLongVolatile(t.region(), off + SundialTuple.RTS, SundialTuple.committedWord(cts));
        }
    }

    private final Leases leases;
    private long cts;

    SundialCommit(CoroutineContext ctx, Rpc rpc, Leases leases) {
        super(ctx, rpc);
        this.leases = leases;
    }

    /** The commit timestamp the next run installs its versions at. */
    void timestamp(long cts) { this.cts = cts; }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        int region = a.table.region();
        install(ctx.op().writeLong(a.node, region, a.offset + SundialTuple.RTS, SundialTuple.committingWord(leases.rtsWord(a))));
        Op record = ctx.op().write(a.node, region, a.offset + a.table.recordOffset, a.table.recordBytes);
        System.arraycopy(a.update, 0, record.data, 0, a.table.recordBytes);
        install(record);
        Op version = ctx.op().write(a.node, region, a.offset + SundialTuple.WTS, SundialTuple.COMMIT_VERSION_BYTES);
        SundialTuple.versionImage(cts, ctx.tx.id, version.data, 0);
        install(version);
        add(ctx.op().writeLong(a.node, region, a.offset + SundialTuple.RTS, SundialTuple.committedWord(cts)));
    }

    @Override protected long arg0(Access a) { return cts; }
    @Override protected long arg1(Access a) { return SundialTuple.committingWord(leases.rtsWord(a)); }
    @Override protected void payload(Access a, byte[] dst, int off) { SundialTuple.commitImage(a, cts, ctx.tx.id, dst, off); }

    @Override protected void done(Access a) { a.locked = false; }
}
