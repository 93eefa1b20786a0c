package org.rccj.protocols.mvcc;

import java.lang.invoke.VarHandle;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.protocols.locking.LockWords;

/**
 * LOCK stage, run when write-set tuples are accessed (RCC; the artifact's {@code remote_write} locks at
 * access too): CAS tts from 0 to the transaction's timestamp, then read the whole tuple behind the CAS and
 * check W1 on it ({@link MvccTuple#acceptLock}). One-sided: the accesses are located, then CAS + tuple READ
 * in one doorbell batch (executed in order; only the READ signaled); RPC: the handler looks the key up,
 * does both on its memory and returns the image. Abort after all replies are in, so every lock taken is
 * known and released.
 */
final class MvccLock extends TupleStage {
    static final class Rpc extends MvccRpc {
        Rpc(ClusterView c, MvccTuple tuple) { super(c, "mvcc.lock", tuple); }

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        /** Reply: R0 = tuple offset (-1: no such key), R1 = what the tts CAS found; payload = tuple image. */
        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long key = q.key(), ts = q.arg0();
            long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            out.r0(off);
            if (off < 0) return;
            out.r1(w.memory.cas(t.region(), off + tuple.tts, 0, ts));
            w.memory.read(t.region(), off, out.data(), out.payload(), t.tupleBytes);
            VarHandle.acquireFence();
        }
    }

    private final MvccTuple tuple;
    private final TupleFetch locator;
    private final Versions versions;
    private final MvccClock clock;

    MvccLock(CoroutineContext ctx, MvccTuple tuple, Rpc rpc, TupleFetch locator, Versions versions, MvccClock clock) {
        super(ctx, rpc);
        this.tuple = tuple;
        this.locator = locator;
        this.versions = versions;
        this.clock = clock;
    }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override protected void prepare(Tx tx, int from, int to) { locator.locate(tx, from, to); }

    @Override
    protected void post(Access a, int i) {
        if (a.absent) return;
        add(ctx.op().cas(a.node, a.table.region(), a.offset + tuple.tts, 0, arg()).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op image) {
        if (a.absent) throw MvccTuple.NOT_FOUND;
        LockWords.takeImage(a, image.data);
        decide(a, cas.result);
        return false;
    }

    @Override protected long arg0(Access a) { return arg(); }

    @Override
    protected void replied(Access a, long offset, long found, byte[] reply, int p) {
        TupleFetch.located(ctx, a, offset, reply, p);
        if (a.absent) throw MvccTuple.NOT_FOUND;
        decide(a, found);
    }

    private void decide(Access a, long found) {
        clock.observe(tuple.maxTimestamp(a.image, 0));
        tuple.acceptLock(a, versions, arg(), found, a.image);
    }
}
