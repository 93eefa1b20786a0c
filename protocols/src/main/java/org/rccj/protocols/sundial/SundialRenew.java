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
 * its version was replaced or a writer holds it. One-sided, {@code protocol_options.renew: batched}: a CAS of
 * the rts word from the value read to the commit timestamp, then a READ of wts (after the CAS, same doorbell
 * batch); a CAS lost to another renewal is repeated with the value it found. RPC: the handler repeats the same
 * CAS and read locally. Both decide with {@link SundialTuple#renewStep}. The commit timestamp is the run's
 * stage-wide argument.
 *
 * <p>One-sided, {@code renew: artifact} (the default), the cost structure of the artifact's
 * {@code SUNDIAL::try_renew_all_lease_rdma} (src/rtx/sundial_rdma.cc:210-270): one READ of the header (rts word,
 * wts) of every read-only access in one doorbell batch, awaited; then, for each access whose lease ends before
 * the commit timestamp, a CAS of the rts word from the value read to the commit timestamp, awaited before the
 * next access's (the artifact WRITEs rts there, which can lower an rts a concurrent renewal raised in between:
 * decision 0133). A lost CAS re-reads the header and decides again. The RPC half is the same in both modes.
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
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset(), expected = q.arg0(), wts = q.arg1();
            long cts = Bytes.getLong(q.data(), q.payload() + REQ_CTS);
            long step = SundialTuple.BUSY;
            for (int round = 0; round < MAX_ROUNDS; round++) {
                long found = w.memory.cas(t.region(), off + SundialTuple.RTS, expected, cts);
                step = SundialTuple.renewStep(wts, expected, cts, found, w.memory.getLongVolatile(t.region(), off + SundialTuple.WTS));
                if (step < 0) break;
                expected = step;
                step = SundialTuple.BUSY;
            }
            out.r0(step);
        }
    }

    private final SundialTuple tuple;
    private final Leases leases;
    private final EventCounts<SundialCounters> counters;
    /** Per access (by index): the rts word the next CAS expects. */
    private long[] expected = new long[8];

    private final boolean artifact;
    /** Header READs and per-access CAS of an artifact-mode renewal. */
    private Op[] headers = new Op[8];
    private int[] headerAccess = new int[8];

    SundialRenew(CoroutineContext ctx, SundialTuple tuple, Rpc rpc, Leases leases, EventCounts<SundialCounters> counters, boolean artifact) {
        super(ctx, rpc, true);
        this.tuple = tuple;
        this.leases = leases;
        this.counters = counters;
        this.artifact = artifact;
    }

    /** Renews the leases {@code tx} relies on up to {@code cts}, one-sided or by RPC. */
    void renew(Tx tx, long cts, boolean oneSided) {
        if (oneSided && artifact) renewAsArtifact(tx, cts);
        else run(tx, cts, oneSided);
    }

    private void renewAsArtifact(Tx tx, long cts) {
        int n = 0;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.write) continue;
            if (n == headers.length) {
                headers = Arrays.copyOf(headers, 2 * n);
                headerAccess = Arrays.copyOf(headerAccess, 2 * n);
            }
            headers[n] = readHeader(a);
            ctx.add(headers[n]);
            headerAccess[n++] = i;
        }
        if (n == 0) return;
        ctx.flushAndWait();
        try {
            for (int k = 0; k < n; k++) {
                Access a = tx.access(headerAccess[k]);
                if (!tuple.needsRenewal(a, leases.rtsWord(a), cts)) continue;
                decided(renewOne(a, cts, Bytes.getLong(headers[k].data, 0), Bytes.getLong(headers[k].data, SundialTuple.WTS - SundialTuple.RTS)));
            }
        } finally {
            ctx.release();
        }
    }

    /** One access: CAS (awaited) from the rts word read to cts; a lost CAS re-reads the header. Returns DONE, BUSY or CHANGED. */
    private long renewOne(Access a, long cts, long word, long wts) {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            if (wts != leases.wts(a)) return SundialTuple.CHANGED;
            if (SundialTuple.rtsOf(word) >= cts) return SundialTuple.DONE;
            if (SundialTuple.held(word)) return SundialTuple.BUSY;
            Op cas = ctx.op().cas(a.node, a.table.region(), a.offset + SundialTuple.RTS, word, cts);
            ctx.add(cas);
            ctx.flushAndWait();
            if (cas.result == word) return SundialTuple.DONE;
            counters.inc(SundialCounters.CAS_RETRIES);
            Op h = readHeader(a);
            ctx.add(h);
            ctx.flushAndWait();
            word = Bytes.getLong(h.data, 0);
            wts = Bytes.getLong(h.data, SundialTuple.WTS - SundialTuple.RTS);
        }
        return SundialTuple.BUSY;
    }

    private Op readHeader(Access a) {
        return ctx.op().read(a.node, a.table.region(), a.offset + SundialTuple.RTS, SundialTuple.WTS + 8 - SundialTuple.RTS);
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
