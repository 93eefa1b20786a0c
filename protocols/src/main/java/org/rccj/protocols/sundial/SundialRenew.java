package org.rccj.protocols.sundial;

import java.util.Arrays;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.stats.EventCounts;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * RENEW stage: extend the lease of every read-only access whose rts is below the commit timestamp, unless
 * its version was replaced or a writer holds it. One-sided: a CAS of the rts word from the value read to
 * the commit timestamp, then a READ of wts (after the CAS, same doorbell batch); a CAS lost to another
 * renewal is repeated with the value it found. RPC: the handler repeats the same CAS and read locally.
 * Both decide with {@link SundialTuple#renewStep}. The commit timestamp is the run's stage-wide argument.
 */
final class SundialRenew extends TupleStage {
    /** Bounds the CAS rounds (each lost to another renewal of the same tuple). */
    static final int MAX_ROUNDS = 32;
    /** RPC request payload: the commit timestamp. */
    static final int REQ_CTS = 0, REQ_PAYLOAD_BYTES = 8;

    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "sundial.renew"); }

        @Override protected int requestPayload(Table t) { return REQ_PAYLOAD_BYTES; }

        @Override
        protected void serve(RpcWorker w, Table t, long key, long off, long expected, long wts, byte[] req, int rp, byte[] reply, int r) {
            long cts = Bytes.getLong(req, rp + REQ_CTS);
            long step = SundialTuple.BUSY;
            for (int round = 0; round < MAX_ROUNDS; round++) {
                long found = w.memory.cas(t.region(), off + SundialTuple.RTS, expected, cts);
                step = SundialTuple.renewStep(wts, expected, cts, found, w.memory.getLongVolatile(t.region(), off + SundialTuple.WTS));
                if (step < 0) break;
                expected = step;
                step = SundialTuple.BUSY;
            }
            Bytes.putLong(reply, r + REPLY_R0, step);
        }
    }

    private final SundialTuple tuple;
    private final Leases leases;
    private final EventCounts<SundialCounters> counters;
    /** Per access (by index): the rts word the next CAS expects. */
    private long[] expected = new long[8];

    SundialRenew(CoroutineContext ctx, SundialTuple tuple, Rpc rpc, Leases leases, EventCounts<SundialCounters> counters) {
        super(ctx, rpc, true);
        this.tuple = tuple;
        this.leases = leases;
        this.counters = counters;
    }

    @Override protected boolean selected(Access a) { return tuple.needsRenewal(a, leases.rtsWord(a), arg()); }

    @Override
    protected void post(Access a, int i) {
        if (round() == 0) {
            if (i >= expected.length) expected = Arrays.copyOf(expected, Math.max(i + 1, expected.length * 2));
            expected[i] = leases.expectedWord(a);
        }
        add(ctx.op().cas(a.node, a.table.region(), a.offset + SundialTuple.RTS, expected[i], arg()).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset + SundialTuple.WTS, 8));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op wts) {
        long step = SundialTuple.renewStep(leases.wts(a), expected[i], arg(), cas.result, Bytes.getLong(wts.data, 0));
        if (step >= 0) {
            counters.inc(SundialCounters.CAS_RETRIES);
            if (round() + 1 < MAX_ROUNDS) {
                expected[i] = step;
                return true;
            }
            step = SundialTuple.BUSY;
        }
        decided(step);
        return false;
    }

    @Override protected long arg0(Access a) { return leases.expectedWord(a); }
    @Override protected long arg1(Access a) { return leases.wts(a); }
    @Override protected void payload(Access a, byte[] dst, int off) { Bytes.putLong(dst, off + REQ_CTS, arg()); }
    @Override protected void replied(Access a, long step, long r1, byte[] reply, int p) { decided(step); }

    private void decided(long step) {
        if (step == SundialTuple.DONE) {
            counters.inc(SundialCounters.RENEWALS_OK);
            return;
        }
        counters.inc(SundialCounters.RENEWALS_FAILED);
        throw SundialTuple.renewFailure(step);
    }
}
