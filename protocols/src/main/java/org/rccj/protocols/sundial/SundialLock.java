package org.rccj.protocols.sundial;

import java.util.Arrays;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
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
final class SundialLock extends TupleStage {
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

    private final Leases leases;
    private final SundialCounters counters;
    /** Per access (by index): the unlocked rts word the next CAS expects. */
    private long[] expected = new long[8];

    SundialLock(CoroutineContext ctx, Rpc rpc, Leases leases, SundialCounters counters) {
        super(ctx, rpc, true);
        this.leases = leases;
        this.counters = counters;
    }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        if (round() == 0) {
            if (i >= expected.length) expected = Arrays.copyOf(expected, Math.max(i + 1, expected.length * 2));
            expected[i] = leases.expectedWord(a);
        }
        add(ctx.op().cas(a.node, a.table.region(), a.offset + SundialTuple.RTS, expected[i], expected[i] | SundialTuple.LOCKED).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset + SundialTuple.WTS, SundialTuple.COMMIT_VERSION_BYTES));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op version) {
        long step = SundialTuple.lockStep(expected[i], cas.result);
        if (step >= 0 && round() + 1 < MAX_ROUNDS) {
            expected[i] = step;
            counters.casRetries++;
            return true;
        }
        if (step != SundialTuple.DONE) throw SundialTuple.LOCK_CONFLICT;
        byte[] d = version.data;
        SundialTuple.acceptLock(a, leases, expected[i], Bytes.getLong(d, 0), Bytes.getLong(d, SundialTuple.WID - SundialTuple.WTS));
        return false;
    }

    @Override protected long arg0(Access a) { return leases.expectedWord(a); }

    @Override
    protected void replied(Access a, long status, long wts, byte[] reply, int p) {
        if (status == SundialTuple.BUSY) throw SundialTuple.LOCK_CONFLICT;
        SundialTuple.acceptLock(a, leases, status, wts, Bytes.getLong(reply, p + REPLY_WID));
    }
}
