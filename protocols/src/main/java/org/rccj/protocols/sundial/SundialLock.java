package org.rccj.protocols.sundial;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.stats.EventCounts;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.protocols.locking.LockWords;

/**
 * LOCK stage, run when write-set tuples are accessed (RCC: "the transaction tries to lock the tuple"; the
 * artifact's {@code remote_write} locks at access too): set LOCKED in the rts word with a CAS from the
 * unlocked value, then read the whole tuple behind the CAS ({@link SundialTuple#acceptLock}). The rts at the
 * CAS is the lease end the commit timestamp must exceed. One-sided: the accesses are located, then CAS +
 * tuple READ in one doorbell batch per round; the first CAS expects 0 (a tuple never written), a lost CAS
 * is repeated with the unlocked value it found ({@link SundialTuple#lockStep}). RPC: the handler reads the
 * word and repeats the CAS locally, then returns the image. Abort after all replies are in, so every lock
 * taken is known and released.
 */
final class SundialLock extends TupleStage {
    /** Bounds the CAS rounds (each lost to a renewal of the same tuple, or the first guess). */
    static final int MAX_ROUNDS = 32;

    /** Reply: R0 = tuple offset (-1: no such key), R1 = rts at the lock or {@link SundialTuple#BUSY}; payload = image. */
    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "sundial.lock"); }

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long key = q.key();
            long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            out.r0(off);
            if (off < 0) return;
            long status = SundialTuple.BUSY;
            long word = w.memory.getLongVolatile(t.region(), off + SundialTuple.RTS);
            long expected = SundialTuple.held(word) ? SundialTuple.BUSY : word;
            for (int round = 0; expected >= 0 && round < MAX_ROUNDS; round++) {
                long found = w.memory.cas(t.region(), off + SundialTuple.RTS, expected, expected | SundialTuple.LOCKED);
                long step = SundialTuple.lockStep(expected, found);
                if (step == SundialTuple.DONE) {
                    status = expected;
                    break;
                }
                expected = step;
            }
            out.r1(status);
            w.memory.read(t.region(), off, out.data(), out.payload(), t.tupleBytes);
            VarHandle.acquireFence();
        }
    }

    private final TupleFetch locator;
    private final Leases leases;
    private final EventCounts<SundialCounters> counters;
    /** Per access (by index): the unlocked rts word the next CAS expects. */
    private long[] expected = new long[8];

    SundialLock(CoroutineContext ctx, Rpc rpc, TupleFetch locator, Leases leases, EventCounts<SundialCounters> counters) {
        super(ctx, rpc, true);
        this.locator = locator;
        this.leases = leases;
        this.counters = counters;
    }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override protected void prepare(Tx tx, int from, int to) { locator.locate(tx, from, to); }

    @Override
    protected void post(Access a, int i) {
        if (a.absent) return;
        if (round() == 0) {
            if (i >= expected.length) expected = Arrays.copyOf(expected, Math.max(i + 1, expected.length * 2));
            expected[i] = 0;
        }
        add(ctx.op().cas(a.node, a.table.region(), a.offset + SundialTuple.RTS, expected[i], expected[i] | SundialTuple.LOCKED).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op image) {
        if (a.absent) throw SundialTuple.NOT_FOUND;
        long step = SundialTuple.lockStep(expected[i], cas.result);
        if (step >= 0 && round() + 1 < MAX_ROUNDS) {
            expected[i] = step;
            if (round() > 0) counters.inc(SundialCounters.CAS_RETRIES);
            return true;
        }
        if (step != SundialTuple.DONE) throw SundialTuple.LOCK_CONFLICT;
        LockWords.takeImage(a, image.data);
        SundialTuple.acceptLock(a, leases, expected[i], a.image);
        return false;
    }

    @Override
    protected void replied(Access a, long offset, long status, byte[] reply, int p) {
        TupleFetch.located(ctx, a, offset, reply, p);
        if (a.absent) throw SundialTuple.NOT_FOUND;
        if (status == SundialTuple.BUSY) throw SundialTuple.LOCK_CONFLICT;
        SundialTuple.acceptLock(a, leases, status, a.image);
    }
}
