package org.rccj.protocols.locking;

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
 * COMMIT stage of a locking protocol: install each write (version word = the transaction id, then the
 * record) and release its lock, in one round trip (the artifact's {@code write_back}: "commit release").
 * One-sided: an unsignaled WRITE of version and record, the protocol's extra undo op if any (WAITDIE's
 * waiter mark, unsignaled), then the signaled unlock WRITE, in one doorbell batch on the same queue pair
 * ("update, then unlock, only the second signaled"). RPC: the handler writes the same bytes, then releases
 * the item exactly as the RELEASE handler does (WAITDIE hands the lock on to a parked waiter there).
 * RPC item: ARG0, ARG1 as in {@link LockRelease}.
 */
public final class LockCommit extends WriteStage {
    public static final class Rpc extends TupleRpc {
        private final LockWords words;
        private final LockRelease.Rpc release;

        /** @param release the protocol's RELEASE handler, whose per-item release ends each commit item */
        public Rpc(ClusterView c, String name, LockWords words, LockRelease.Rpc release) {
            super(c, name);
            this.words = words;
            this.release = release;
        }

        @Override protected int requestPayload(Table t) { return words.commitBytes(t); }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset(), owner = q.arg0(), flags = q.arg1();
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + words.commitSpan, q.data(), q.payload(), words.commitBytes(t));
            VarHandle.releaseFence();
            release.release(w, t, off, owner, flags);
        }
    }

    private final LockWords words;
    private final LockRelease release;

    /** @param release the protocol's RELEASE stage: its owner value and extra per-tuple state */
    public LockCommit(CoroutineContext ctx, LockWords words, Rpc rpc, LockRelease release) {
        super(ctx, rpc);
        this.words = words;
        this.release = release;
    }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        if (!a.locked) throw new IllegalStateException("commit of " + a.table.name + "#" + a.key + " without its lock");
        Op op = ctx.op().write(a.node, a.table.region(), a.offset + words.commitSpan, words.commitBytes(a.table));
        words.commitImage(a, ctx.tx.id, op.data, 0);
        install(op);
        if (release.hasExtra(a)) add(release.extraOp(a, false));
        add(ctx.op().writeLong(a.node, a.table.region(), a.offset + words.lock, 0));
    }

    @Override protected long arg0(Access a) { return release.owner(); }
    @Override protected long arg1(Access a) { return release.arg1(a); }
    @Override protected void payload(Access a, byte[] dst, int off) { words.commitImage(a, ctx.tx.id, dst, off); }

    @Override
    protected void done(Access a) { release.done(a); }
}
