package org.rccj.protocols.mvcc;

import java.lang.invoke.VarHandle;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * LOCK stage: CAS tts from 0 to the transaction's timestamp on every write-set tuple, then read the header
 * (after the CAS) for the W1 re-check: no later reader (rts), no newer version (wts), and the version read
 * is still the newest. One-sided: CAS + header READ in one doorbell batch; RPC: the handler does both on
 * its memory and returns the header. Both end in {@link MvccTuple#acceptLock}; abort after all replies
 * are in, so every lock taken is known and released.
 */
final class MvccLock extends TupleStage {
    static final class Rpc extends MvccRpc {
        Rpc(Cluster c, MvccTuple tuple) { super(c, "mvcc.lock", tuple); }

        @Override protected int replyPayload(Table t) { return tuple.headerBytes; }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long ts, long a1, byte[] req, int rp, byte[] reply, int r) {
            Bytes.putLong(reply, r + REPLY_R0, w.memory.cas(t.region(), off + tuple.tts, 0, ts));
            w.memory.read(t.region(), off, reply, r + REPLY_BYTES, tuple.headerBytes);
            VarHandle.acquireFence();
        }
    }

    private final MvccTuple tuple;
    private final Versions versions;
    private final MvccClock clock;

    MvccLock(CoroutineContext ctx, MvccTuple tuple, Rpc rpc, Versions versions, MvccClock clock) {
        super(ctx, rpc);
        this.tuple = tuple;
        this.versions = versions;
        this.clock = clock;
    }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        add(ctx.op().cas(a.node, a.table.region(), a.offset + tuple.tts, 0, arg()).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset, tuple.headerBytes));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op header) {
        decide(a, cas.result, header.data, 0);
        return false;
    }

    @Override protected long arg0(Access a) { return arg(); }

    @Override
    protected void replied(Access a, long found, long r1, byte[] reply, int p) { decide(a, found, reply, p); }

    private void decide(Access a, long found, byte[] header, int off) {
        clock.observe(tuple.maxTimestamp(header, off));
        tuple.acceptLock(a, versions, arg(), found, header, off);
    }
}
