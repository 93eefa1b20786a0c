package org.rccj.protocols.waitdie;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.Verdict;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.protocols.locking.OneSidedLockRound;
import org.rccj.protocols.locking.ReadLocks;

/**
 * WAITDIE's LOCK stage: every access takes the tuple's exclusive lock when it is fetched; on a conflict
 * the older transaction waits and the younger dies ({@link WaitDieTuple#decide}).
 * <ul>
 * <li>One-sided: rounds of CAS + READ ({@link OneSidedLockRound}) for the accesses still waiting, with a
 * sleep of {@code retryNs} between rounds. A waiting access puts its timestamp in the waiter word (an
 * unsignaled CAS posted before the sleep) so younger transactions stop taking the lock from it.</li>
 * <li>RPC: one request per node; the handler decides what it can and parks the rest in the node's
 * {@link WaitTable}, replying when every item is decided.</li>
 * </ul>
 * The stage throws after every reply is in, so RELEASE knows every lock and mark the attempt holds.
 */
final class WaitDieLock {
    /** The RPC half: its reply may be deferred, so it replaces {@link TupleRpc}'s immediate handler. */
    static final class Rpc extends TupleRpc {
        private final WaitTable[] tables;

        Rpc(ClusterView c, WaitTable[] tables) {
            super(c, "waitdie.lock");
            this.tables = tables;
        }

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            throw new UnsupportedOperationException("waitdie.lock items are served by its WaitTable");
        }

        @Override
        protected void handle(RpcWorker w, Op call) {
            Wire x = wire(w);
            call.replyBuffer(replyBytes(x.request, call.data));
            if (tables[w.node].lock(w, call, x.request.wrap(call.data), x.reply.wrap(call.reply))) w.reply(call);
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final OneSidedLockRound round;
    private final Attempt attempt;
    private final boolean marks;
    private final long retryNs;
    private final ReadLocks readLocks;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private final Verdict verdict = new Verdict();
    private int[] pending = new int[8];
    private long[] waiterSeen = new long[8];
    /** Shared mode, per pending attempt: the reader count a read's next CAS expects (-1: a write). */
    private long[] count = new long[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return true; }
        @Override public long arg0(Access a) { return attempt.ts; }
        @Override public long arg1(Access a) { return WaitDieTuple.mode(readLocks, a.write); }

        @Override
        public void result(Access a, long offset, long r1, byte[] reply, int p) {
            TupleFetch.located(ctx, a, offset, reply, p);
            if ((r1 & WaitDieTuple.MARKED_FLAG) != 0) attempt.marks.setBits(a, WaitDieTuple.MARKED);
            int o = (int) (r1 & WaitDieTuple.OUTCOME_MASK);
            if (o == WaitDieTuple.GRANTED) {
                a.locked = true;
                WaitDieTuple.WORDS.acceptImage(a);
            } else if (o != WaitDieTuple.CANCELLED) {
                fail(o);
            }
        }
    };

    WaitDieLock(CoroutineContext ctx, Rpc rpc, TupleFetch locator, Attempt attempt, boolean marks, long retryNs, ReadLocks readLocks) {
        this.readLocks = readLocks;
        this.ctx = ctx;
        this.rpc = rpc;
        this.round = new OneSidedLockRound(ctx, WaitDieTuple.WORDS, locator);
        this.attempt = attempt;
        this.marks = marks;
        this.retryNs = retryNs;
    }

    /** Figures count what happens in the measured interval, like the run's other statistics. */
    private boolean measuring() {
        long now = ctx.now();
        return now >= ctx.measureStart() && now < ctx.endTime();
    }

    private void fail(int outcome) {
        if (measuring()) attempt.count(outcome);
        verdict.fail(WaitDieTuple.abortFor(outcome));
    }

    void run(Tx tx, int from, int to, boolean oneSided) {
        verdict.reset();
        if (!oneSided) {
            rpc.call(ctx, caller, tx, from, to, items);
            ctx.release();
            verdict.check();
            for (int i = from; i < to; i++) {
                // an item is cancelled only when another item of its request failed
                if (!tx.access(i).locked) throw new IllegalStateException("waitdie.lock: item cancelled without a failed sibling");
            }
            return;
        }
        int n = to - from;
        if (n > pending.length) {
            pending = new int[Math.max(n, pending.length * 2)];
            waiterSeen = new long[pending.length];
            count = new long[pending.length];
        }
        boolean shared = readLocks == ReadLocks.SHARED;
        for (int k = 0; k < n; k++) {
            pending[k] = from + k;
            count[k] = readLocks.shared(tx.access(from + k).write) ? 0 : -1;
        }
        long waitStart = -1;
        long ts = attempt.ts;
        while (true) {
            round.run(tx, from, to, pending, n, shared ? count : null, readLocks.exclusiveValue(ts));
            boolean ended = ctx.now() >= ctx.endTime();
            int m = 0;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(pending[k]);
                long found = round.found(k);
                if (a.absent) {
                    fail(WaitDieTuple.ABSENT);
                    continue;
                }
                long waiter = Bytes.getLong(a.image, WaitDieTuple.WAITER);
                int o = shared ? WaitDieTuple.decideShared(a.write, ts, Math.max(count[k], 0), found, waiter, ended)
                        : WaitDieTuple.decide(ts, found, waiter, ended);
                switch (o) {
                    case WaitDieTuple.GRANTED -> {
                        a.locked = true;
                        WaitDieTuple.WORDS.acceptImage(a);
                    }
                    case WaitDieTuple.WAIT -> {
                        if (waitStart < 0) waitStart = ctx.now();
                        if (!attempt.marks.has(a, WaitDieTuple.WAITED)) {
                            attempt.marks.setBits(a, WaitDieTuple.WAITED);
                            if (measuring()) attempt.waits++;
                        }
                        waiterSeen[m] = waiter;
                        count[m] = count[k];
                        pending[m++] = pending[k];
                    }
                    case WaitDieTuple.RETRY -> {             // shared: other readers came first, count again
                        waiterSeen[m] = -1;                  // (no mark: it does not wait for a holder)
                        count[m] = found;
                        pending[m++] = pending[k];
                    }
                    case WaitDieTuple.YIELD -> {
                        a.locked = true;     // taken, to be given back by the abort's RELEASE
                        fail(o);
                    }
                    default -> fail(o);
                }
            }
            if (verdict.failed() || m == 0) {
                if (waitStart >= 0 && measuring()) attempt.maxWaitNs = Math.max(attempt.maxWaitNs, ctx.now() - waitStart);
                verdict.check();
                return;
            }
            if (marks) {
                for (int k = 0; k < m; k++) {
                    Access a = tx.access(pending[k]);
                    if (!WaitDieTuple.shouldMark(ts, waiterSeen[k])) continue;
                    ctx.add(ctx.op().cas(a.node, a.table.region(), a.offset + WaitDieTuple.WAITER, waiterSeen[k], ts).unsignaled());
                    attempt.marks.setBits(a, WaitDieTuple.MARKED);
                }
                ctx.flush();
                ctx.release();
            }
            n = m;
            ctx.sleep(retryNs);
        }
    }
}
