package org.rccj.framework.stage;

import java.util.Arrays;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * A stage that works tuple by tuple, with both halves supplied: {@link #run} posts one-sided ops or calls
 * the stage's {@link TupleRpc} depending on the hybrid bit, and a protocol supplies only what differs:
 * <ul>
 * <li>which accesses: {@link #selected};</li>
 * <li>one-sided, the ops it posts per access ({@link #post}, each op through {@link #add}) and
 * what it makes of them once completed ({@link #completed}, which may ask for another round);</li>
 * <li>RPC, the arguments it sends ({@link #arg0}, {@link #arg1}, {@link #payload}), the handler that serves
 * them (the {@link TupleRpc} subclass) and what it makes of each reply ({@link #replied}).</li>
 * </ul>
 * Decisions throw an {@link AbortException} to fail an access; the kit keeps the first one (a
 * {@link Verdict}) and throws it once every reply is in.
 *
 * <p>One-sided: all selected accesses' ops go out in one flush (one doorbell batch per node), then each
 * access gets its completed ops in selection order. An access whose decision asks for another round is
 * posted again in the next flush; finished ones leave the pending range either keeping the order of the
 * rest or, with {@code swapOut}, by moving the last pending access into their place (the order SUNDIAL's
 * CAS rounds have always used; it decides which of two failures is reported). The ops are released after
 * every round. One instance per coroutine; allocation-free once its arrays have grown.
 */
public abstract class TupleStage {
    protected final CoroutineContext ctx;
    private final TupleRpc rpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private final Verdict verdict = new Verdict();
    private long arg;
    // one-sided: the pending accesses (indices into the transaction) and the first two ops of each
    private final boolean swapOut;
    private int[] idx = new int[8];
    private Op[] ops = new Op[16];
    private int slot, added, round;
    /** One-sided half of a passive run under {@code passive_ack}: every op goes unsignaled (see {@link #add}). */
    private boolean unsignaledAll;

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return TupleStage.this.selected(a); }
        @Override public long arg0(Access a) { return TupleStage.this.arg0(a); }
        @Override public long arg1(Access a) { return TupleStage.this.arg1(a); }
        @Override public void payload(Access a, byte[] dst, int off) { TupleStage.this.payload(a, dst, off); }

        @Override
        public void result(Access a, long r0, long r1, byte[] reply, int p) {
            try {
                replied(a, r0, r1, reply, p);
            } catch (AbortException e) {
                verdict.fail(e);
            }
        }
    };

    protected TupleStage(CoroutineContext ctx, TupleRpc rpc) { this(ctx, rpc, false); }

    /** @param swapOut finished accesses leave the pending range by swapping (see the class comment) */
    protected TupleStage(CoroutineContext ctx, TupleRpc rpc, boolean swapOut) {
        this.ctx = ctx;
        this.rpc = rpc;
        this.swapOut = swapOut;
    }

    /** Which accesses this stage acts on. */
    protected abstract boolean selected(Access a);

    /** One-sided, before the first round: e.g. locate the range's tuples (absent keys are then flagged). */
    protected void prepare(Tx tx, int from, int to) {}

    /** One-sided: builds access {@code a}'s ops for this {@link #round()} and queues each with {@link #add}. */
    protected abstract void post(Access a, int i);

    /**
     * One-sided: decides access {@code a} (index {@code i} in the transaction) from its completed ops, in the
     * order they were added ({@code second} is null if only one was). Throw to fail the access.
     * @return true to post the access again in the next round
     */
    protected abstract boolean completed(Access a, int i, Op first, Op second);

    /** RPC: decides access {@code a} from its reply words and payload. Throw to fail the access. */
    protected abstract void replied(Access a, long r0, long r1, byte[] reply, int payload);

    /** RPC: the request words and payload of access {@code a}. */
    protected long arg0(Access a) { return 0; }
    protected long arg1(Access a) { return 0; }
    protected void payload(Access a, byte[] dst, int off) {}

    /** RPC: the stage's handler (a stage with two, like DrTM's commit and unlock, picks one per run). */
    protected TupleRpc rpc() { return rpc; }

    /** One-sided: the current round, from 0. */
    protected final int round() { return round; }

    /**
     * One-sided, from {@link #post}: queues {@code op} for the round's flush; the first two an access adds are
     * handed back to {@link #completed}.
     */
    protected final Op add(Op op) {
        if (unsignaledAll) op.unsignaled();
        ctx.add(op);
        if (added < 2) ops[2 * slot + added++] = op;
        return op;
    }

    /** Runs the stage over the whole transaction with a stage-wide argument (a timestamp) for {@link #arg()}. */
    public final void run(Tx tx, long arg, boolean oneSided) {
        this.arg = arg;
        run(tx, 0, tx.size(), oneSided);
    }

    /** Runs the stage over accesses {@code [from, to)} with a stage-wide argument for {@link #arg()}. */
    public final void run(Tx tx, int from, int to, long arg, boolean oneSided) {
        this.arg = arg;
        run(tx, from, to, oneSided);
    }

    /** The stage-wide argument of the current run (see {@link #run(Tx, long, boolean)}). */
    protected final long arg() { return arg; }

    /** Whether the stage selects any access of {@code tx} (a stage with nothing to do is neither run nor timed). */
    public final boolean selectsAny(Tx tx) {
        for (int i = 0; i < tx.size(); i++) if (selected(tx.access(i))) return true;
        return false;
    }

    /** Runs the stage over the whole transaction. */
    public void run(Tx tx, boolean oneSided) { run(tx, 0, tx.size(), oneSided); }

    /** Runs the stage over accesses {@code [from, to)}; throws the first failure once every reply is in. */
    public final void run(Tx tx, int from, int to, boolean oneSided) { run(tx, from, to, oneSided, false); }

    /**
     * As {@link #run(Tx, int, int, boolean)}; {@code passive} and the run's {@code passive_ack}: nothing is awaited
     * (see {@link WriteStage#runPassive}).
     */
    final void run(Tx tx, int from, int to, boolean oneSided, boolean passive) {
        verdict.reset();
        passive &= ctx.cluster().shape.passiveAck();
        if (oneSided) {
            unsignaledAll = passive;
            try {
                postAll(tx, from, to);
            } finally {
                unsignaledAll = false;
            }
        } else {
            rpc().call(ctx, caller, tx, from, to, items, passive);
        }
        ctx.release();
        verdict.check();
    }

    private void postAll(Tx tx, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (!selected(tx.access(i))) continue;
            if (n == idx.length) {
                idx = Arrays.copyOf(idx, n * 2);
                ops = Arrays.copyOf(ops, n * 4);
            }
            idx[n++] = i;
        }
        prepare(tx, from, to);
        for (round = 0; n > 0; round++) {
            for (int k = 0; k < n; k++) {
                slot = k;
                added = 0;
                ops[2 * k + 1] = null;
                post(tx.access(idx[k]), idx[k]);
            }
            ctx.flushAndWait();
            int again = 0;
            for (int k = 0; k < n; ) {
                int i = idx[k];
                boolean retry;
                try {
                    retry = completed(tx.access(i), i, ops[2 * k], ops[2 * k + 1]);
                } catch (AbortException e) {
                    verdict.fail(e);
                    retry = false;
                }
                if (swapOut) {
                    if (retry) {
                        k++;
                        continue;
                    }
                    n--;
                    idx[k] = idx[n];
                    ops[2 * k] = ops[2 * n];
                    ops[2 * k + 1] = ops[2 * n + 1];
                } else {
                    if (retry) idx[again++] = i;
                    k++;
                }
            }
            if (!swapOut) n = again;
            ctx.release();
        }
    }
}
