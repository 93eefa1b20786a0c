package org.rccj.framework.stage;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.txn.Tx;

/**
 * The tail shared by protocols that end the same way: LOG (the coordinator log), COMMIT (install the writes
 * and unlock them, in one round trip on either transport) and RELEASE of what is still held (read locks),
 * each on the transport its hybrid bit names. And the abort path: RELEASE alone. A RELEASE with nothing to
 * release is neither run nor timed. COMMIT follows the run's {@code passive_ack} ({@link WriteStage#runPassive});
 * RELEASE is awaited in both modes, after a commit and after an abort, as the artifact's RELEASE is whatever PA
 * says (nowait_rdma.cc:450-453, occ_rdma.cc:216-217, MVCC/SUNDIAL {@code RDMAFAUnlockReq(cid, 0)}).
 */
public final class CommitTail {
    private CommitTail() {}

    /** Runs {@code stage} as stage {@code s} on the transport its hybrid bit names; returns when the next stage starts. */
    public static long step(CoroutineContext ctx, Tx tx, HybridCode code, Stage s, TupleStage stage, long t) {
        stage.run(tx, code.oneSided(s));
        return ctx.stageNext(s, t);
    }

    /**
     * LOG and COMMIT if {@code writes}, then RELEASE if the attempt still holds something; each stage's time
     * is recorded.
     * @param t when the tail starts (the previous stage's end)
     */
    public static void run(CoroutineContext ctx, Tx tx, HybridCode code, long t, boolean writes, WriteStage commit, WriteStage release) {
        if (writes) {
            ctx.cluster().log().append(ctx, tx, code.oneSided(Stage.LOG));
            t = ctx.stageNext(Stage.LOG, t);
            commit.runPassive(tx, code.oneSided(Stage.COMMIT));
            if (!release.selectsAny(tx)) {
                ctx.stageEnd(Stage.COMMIT, t);
                return;
            }
            t = ctx.stageNext(Stage.COMMIT, t);
        } else if (!release.selectsAny(tx)) {
            return;
        }
        release.run(tx, code.oneSided(Stage.RELEASE));
        ctx.stageEnd(Stage.RELEASE, t);
    }

    /** After an abort: RELEASE whatever the attempt holds (nothing held: no stage). */
    public static void abort(CoroutineContext ctx, Tx tx, HybridCode code, TupleStage release) {
        if (!release.selectsAny(tx)) return;
        long t = ctx.stageStart();
        release.run(tx, code.oneSided(Stage.RELEASE));
        ctx.stageEnd(Stage.RELEASE, t);
    }
}
