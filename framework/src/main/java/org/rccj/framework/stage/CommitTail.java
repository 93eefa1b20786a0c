package org.rccj.framework.stage;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Stage;
import org.rccj.framework.txn.Tx;

/**
 * The tail shared by protocols that end the same way: LOG (the coordinator log), COMMIT (install the writes)
 * and RELEASE, each on the transport its hybrid bit names; COMMIT's one-sided writes go unsignaled when the
 * RELEASE after them is one-sided too (passive ACK). And the abort path: RELEASE alone.
 */
public final class CommitTail {
    private CommitTail() {}

    /** Runs {@code stage} as stage {@code s} on the transport its hybrid bit names; returns when the next stage starts. */
    public static long step(CoroutineContext ctx, Tx tx, HybridCode code, Stage s, TupleStage stage, long t) {
        stage.run(tx, code.oneSided(s));
        return ctx.stageNext(s, t);
    }

    /**
     * LOG and COMMIT if {@code writes}, then RELEASE; each stage's time is recorded.
     * @param t when the tail starts (the previous stage's end)
     */
    public static void run(CoroutineContext ctx, Tx tx, HybridCode code, long t, boolean writes, WriteStage commit, TupleStage release) {
        boolean oneSidedRelease = code.oneSided(Stage.RELEASE);
        if (writes) {
            ctx.cluster.log.append(ctx, tx, code.oneSided(Stage.LOG));
            t = ctx.stageNext(Stage.LOG, t);
            boolean oneSidedCommit = code.oneSided(Stage.COMMIT);
            commit.run(tx, oneSidedCommit, oneSidedCommit && oneSidedRelease);
            t = ctx.stageNext(Stage.COMMIT, t);
        }
        release.run(tx, oneSidedRelease);
        ctx.stageEnd(Stage.RELEASE, t);
    }

    /** After an abort: RELEASE whatever the attempt holds. */
    public static void abort(CoroutineContext ctx, Tx tx, HybridCode code, TupleStage release) {
        long t = ctx.stageStart();
        release.run(tx, code.oneSided(Stage.RELEASE));
        ctx.stageEnd(Stage.RELEASE, t);
    }
}
