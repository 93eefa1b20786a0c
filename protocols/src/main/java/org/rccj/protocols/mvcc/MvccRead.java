package org.rccj.protocols.mvcc;

import java.util.Arrays;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.DoubleRead;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stats.EventCounts;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * READ stage of the read set (writes are locked at access by {@link MvccLock}): (1) read the whole tuple; (2) raise rts to the transaction's timestamp; (3) re-read the header
 * ({@link DoubleRead}), then {@link MvccTuple#acceptRead} on what they saw. One-sided, (2) is a CAS on rts in
 * the doorbell batch of (3); a CAS that lost to another reader is retried with the value it found. RPC: the
 * handler raises rts between its two reads.
 */
final class MvccRead extends DoubleRead {
    static final class Rpc extends DoubleRead.Rpc {
        private final MvccTuple tuple;

        Rpc(ClusterView c, MvccTuple tuple) {
            super(c, "mvcc.read", tuple.headerBytes);
            this.tuple = tuple;
        }

        @Override protected void between(RpcWorker w, Table t, long off, long ts) { tuple.raiseRts(w.memory, t.region(), off, ts); }

        @Override
        protected boolean stable(byte[] image, int imageOff, byte[] header, int headerOff) {
            return tuple.stable(image, imageOff, header, headerOff);
        }
    }

    private final MvccTuple tuple;
    private final MvccClock clock;
    private final EventCounts<MvccCounters> counters;
    private long ts;
    // per access of the current range: the rts the next CAS expects, the CAS in flight
    private long[] expectRts = new long[8];
    private Op[] casOp = new Op[8];

    MvccRead(CoroutineContext ctx, MvccTuple tuple, Rpc rpc, TupleFetch fetch, MvccClock clock, EventCounts<MvccCounters> counters) {
        super(ctx, rpc, fetch, tuple.headerBytes, MvccTuple.NOT_FOUND, MvccTuple.READ_UNSTABLE);
        this.tuple = tuple;
        this.clock = clock;
        this.counters = counters;
    }

    /** Reads accesses {@code [from, to)} at timestamp {@code ts}. */
    void run(Tx tx, int from, int to, long ts, boolean oneSided) {
        this.ts = ts;
        run(tx, from, to, oneSided);
    }

    @Override protected long rpcArg() { return ts; }

    @Override
    protected void capacity(int n) {
        if (expectRts.length < n) {
            int m = Math.max(n, expectRts.length * 2);
            expectRts = Arrays.copyOf(expectRts, m);
            casOp = Arrays.copyOf(casOp, m);
        }
    }

    @Override protected void tupleRead(int k, Access a) { expectRts[k] = Bytes.getLong(a.image, tuple.rts); }

    @Override
    protected void beforeHeaderRead(int k, Access a) {
        casOp[k] = null;
        if (tuple.needsRtsRaise(expectRts[k], ts)) {
            casOp[k] = ctx.op().cas(a.node, a.table.region(), a.offset + tuple.rts, expectRts[k], ts).unsignaled();
            ctx.add(casOp[k]);
        }
    }

    @Override
    protected boolean headerStepDone(int k, Access a) {
        Op cas = casOp[k];
        if (cas != null && !MvccTuple.rtsCovered(expectRts[k], cas.result, ts)) {
            expectRts[k] = cas.result;                                      // another reader raised rts: CAS again
            counters.inc(MvccCounters.RTS_CAS_RETRIES);
            return false;
        }
        return true;
    }

    @Override
    protected boolean accept(Access a, byte[] header) {
        clock.observe(tuple.maxTimestamp(header, 0));
        int r = tuple.acceptRead(a, ts, a.image, header);
        if (r == MvccTuple.READ_UNSTABLE_RETRY) return false;
        if ((r & MvccTuple.READ_OLDER) != 0) counters.inc(MvccCounters.READS_OLDER_VERSION);
        if ((r & MvccTuple.READ_PAST_LOCK) != 0) counters.inc(MvccCounters.READS_PAST_LOCK);
        return true;
    }

    @Override protected void countRetries(int n) { counters.add(MvccCounters.READ_RETRIES, n); }
}
