package org.rccj.protocols.sundial;

import java.util.Arrays;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * LOCK stage: set LOCKED in the rts word of every write-set tuple with a CAS from the unlocked value last
 * seen (a concurrent renewal that raised rts only costs another CAS, see {@link SundialTuple#lockStep}),
 * then read (wts, wid) to check the version read is still current. The rts at the CAS is the lease end the
 * commit timestamp must exceed. One-sided: CAS + READ in one doorbell batch per round; RPC: the handler
 * repeats the CAS locally and returns rts, wts, wid. Both end in {@link SundialTuple#acceptLock}; abort
 * after all replies are in, so every lock taken is known and released.
 */
final class SundialLock {
    /** Bounds the CAS rounds (each lost to a renewal of the same tuple). */
    static final int MAX_ROUNDS = 32;
    /** RPC reply: R0 = rts at the lock or {@link SundialTuple#BUSY}, R1 = wts; payload: wid. */
    static final int REPLY_WID = 0, REPLY_PAYLOAD_BYTES = 8;

    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "sundial.lock"); }

        @Override protected int replyPayload(Table t) { return REPLY_PAYLOAD_BYTES; }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long expected, long a1, byte[] req, int rp, byte[] reply, int r) {
            long status = SundialTuple.BUSY;
            for (int round = 0; round < MAX_ROUNDS; round++) {
                long found = w.memory.cas(t.region(), off + SundialTuple.RTS, expected, expected | SundialTuple.LOCKED);
                long step = SundialTuple.lockStep(expected, found);
                if (step == SundialTuple.DONE) {
                    status = expected;
                    break;
                }
                if (step == SundialTuple.BUSY) break;
                expected = step;
            }
            Bytes.putLong(reply, r + REPLY_R0, status);
            Bytes.putLong(reply, r + REPLY_R1, w.memory.getLongVolatile(t.region(), off + SundialTuple.WTS));
            Bytes.putLong(reply, r + REPLY_BYTES + REPLY_WID, w.memory.getLongVolatile(t.region(), off + SundialTuple.WID));
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final SundialCounters counters;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private RuntimeException failure;
    private Op[] cas = new Op[8], version = new Op[8];
    private int[] idx = new int[8];
    private long[] expected = new long[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.write; }
        @Override public long arg0(Access a) { return SundialTuple.expectedWord(a); }

        @Override
        public void result(Access a, long status, long wts, byte[] reply, int p) {
            if (status == SundialTuple.BUSY) fail(SundialTuple.LOCK_CONFLICT);
            else accept(a, status, wts, Bytes.getLong(reply, p + REPLY_WID));
        }
    };

    SundialLock(CoroutineContext ctx, Rpc rpc, SundialCounters counters) {
        this.ctx = ctx;
        this.rpc = rpc;
        this.counters = counters;
    }

    private void fail(RuntimeException e) {
        if (failure == null) failure = e;
    }

    private void accept(Access a, long rtsAtLock, long wts, long wid) {
        try {
            SundialTuple.acceptLock(a, rtsAtLock, wts, wid);
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    void run(Tx tx, boolean oneSided) {
        failure = null;
        if (!oneSided) {
            rpc.call(ctx, caller, tx, 0, tx.size(), items);
            ctx.release();
            if (failure != null) throw failure;
            return;
        }
        int n = 0;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!a.write) continue;
            if (n == idx.length) {
                idx = Arrays.copyOf(idx, n * 2);
                expected = Arrays.copyOf(expected, n * 2);
                cas = Arrays.copyOf(cas, n * 2);
                version = Arrays.copyOf(version, n * 2);
            }
            expected[n] = SundialTuple.expectedWord(a);
            idx[n++] = i;
        }
        // pending entries are [0, n); a finished one is swapped out of the range
        for (int round = 0; n > 0; round++) {
            for (int k = 0; k < n; k++) {
                Access a = tx.access(idx[k]);
                cas[k] = ctx.op().cas(a.node, a.table.region(), a.offset + SundialTuple.RTS, expected[k], expected[k] | SundialTuple.LOCKED).unsignaled();
                version[k] = ctx.op().read(a.node, a.table.region(), a.offset + SundialTuple.WTS, SundialTuple.COMMIT_VERSION_BYTES);
                ctx.add(cas[k]);
                ctx.add(version[k]);
            }
            ctx.flushAndWait();
            for (int k = 0; k < n; ) {
                Access a = tx.access(idx[k]);
                long step = SundialTuple.lockStep(expected[k], cas[k].result);
                if (step >= 0 && round + 1 < MAX_ROUNDS) {
                    expected[k++] = step;
                    counters.casRetries++;
                    continue;
                }
                if (step == SundialTuple.DONE) {
                    byte[] d = version[k].data;
                    accept(a, expected[k], Bytes.getLong(d, 0), Bytes.getLong(d, SundialTuple.WID - SundialTuple.WTS));
                } else {
                    fail(SundialTuple.LOCK_CONFLICT);
                }
                n--;
                idx[k] = idx[n];
                expected[k] = expected[n];
                cas[k] = cas[n];
                version[k] = version[n];
            }
            ctx.release();
        }
        if (failure != null) throw failure;
    }
}
