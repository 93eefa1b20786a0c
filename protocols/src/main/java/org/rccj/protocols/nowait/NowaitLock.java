package org.rccj.protocols.nowait;

import java.util.Arrays;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.protocols.locking.LockWords;
import org.rccj.protocols.locking.ReadLocks;

/**
 * NOWAIT's LOCK stage: every access (read or write) takes the tuple's lock when it is fetched — exclusive,
 * or for reads with shared read locks a reader count ({@link ReadLocks}). One-sided: the accesses are
 * located, then each gets a CAS of its lock word and a READ of the whole tuple in one doorbell batch
 * (executed in order, so the READ sees the tuple after the CAS; only the READ is signaled); a shared CAS
 * lost to another reader is posted again with the count it found. RPC: the handler does the same CAS
 * (shared: repeated locally) and copies the image. Both end in {@link NowaitTuple#acceptLock}; the stage
 * throws after every reply is in, so every lock the attempt took is known to the RELEASE that follows the abort.
 */
final class NowaitLock extends TupleStage {
    /** RPC item ARG1: the access asks for a shared read lock. */
    static final long SHARED = 1;

    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "nowait.lock"); }

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long key = q.key(), value = q.arg0(), mode = q.arg1();
            long found = mode == SHARED ? NowaitTuple.WORDS.serveShared(w, t, key, out.data(), out.at()) : NowaitTuple.WORDS.serveLock(w, t, key, value, out.data(), out.at());
            out.r1(found);
        }
    }

    private final TupleFetch locator;
    private final ReadLocks readLocks;
    /** Per access (by index), shared locks: the reader count the next CAS expects. */
    private long[] expected = new long[8];

    NowaitLock(CoroutineContext ctx, Rpc rpc, TupleFetch locator, ReadLocks readLocks) {
        super(ctx, rpc);
        this.locator = locator;
        this.readLocks = readLocks;
    }

    @Override protected boolean selected(Access a) { return true; }

    @Override protected void prepare(Tx tx, int from, int to) { locator.locate(tx, from, to); }

    @Override
    protected void post(Access a, int i) {
        if (a.absent) return;
        long expect = 0, value = readLocks.exclusiveValue(ctx.tx.id);
        if (readLocks.shared(a.write)) {
            if (round() == 0) {
                if (i >= expected.length) expected = Arrays.copyOf(expected, Math.max(i + 1, expected.length * 2));
                expected[i] = 0;
            }
            expect = expected[i];
            value = expect + 1;
        }
        add(ctx.op().cas(a.node, a.table.region(), a.offset + NowaitTuple.WORDS.lock, expect, value).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op read) {
        if (a.absent) throw NowaitTuple.NOT_FOUND;
        long found = cas.result;
        if (readLocks.shared(a.write)) {
            long step = ReadLocks.readStep(expected[i], found);
            if (step >= 0 && round() + 1 < ReadLocks.MAX_ROUNDS) {
                expected[i] = step;                                         // another reader came first: count again
                return true;
            }
            if (step >= 0) throw ReadLocks.BUSY;
            found = step == ReadLocks.GRANTED ? 0 : ReadLocks.WRITER;
        }
        LockWords.takeImage(a, read.data);
        NowaitTuple.acceptLock(a, found);
        return false;
    }

    @Override protected long arg0(Access a) { return readLocks.exclusiveValue(ctx.tx.id); }
    @Override protected long arg1(Access a) { return readLocks.shared(a.write) ? SHARED : 0; }

    @Override
    protected void replied(Access a, long offset, long found, byte[] reply, int p) {
        TupleFetch.located(ctx, a, offset, reply, p);
        if (readLocks.shared(a.write) && !a.absent && ReadLocks.gaveUp(found)) throw ReadLocks.BUSY;
        NowaitTuple.acceptLock(a, found);
    }
}
