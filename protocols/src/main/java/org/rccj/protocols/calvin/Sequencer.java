package org.rccj.protocols.calvin;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;

/**
 * A node's sequencer (a service coroutine). Per epoch it seals the requests its node's coordinators submitted,
 * replicates the batch to the backups (LOG: an RPC broadcast it does not wait for, as the artifact), broadcasts it
 * to every node (DISPATCH, empty batches included, so every scheduler knows when it has the whole epoch), and then
 * passes the epoch barrier (EPOCH_SYNC): once its own node executed every part of the epoch, it tells the other
 * sequencers and waits for all of them. The next epoch is sealed one epoch length after this one, or at once when
 * the barrier took longer. The first batch sealed at or after the run's end time closes the node (later
 * submissions are refused) and is marked final; a sequencer keeps taking part in the barriers until every node sent
 * its final batch.
 */
final class Sequencer implements Runnable {
    private final CoroutineContext ctx;
    private final CalvinProtocol p;
    private final SubmitBuffer submit;
    private final InputLog.Appender log;
    private final Dispatch.Sender dispatch;
    private final EpochSync.Barrier barrier;
    private final EpochProgress progress;
    private final Poller poller;
    private final byte[] image;
    long epochs, txns, nonEmpty, syncNs;

    Sequencer(CoroutineContext ctx, CalvinProtocol p) {
        this.ctx = ctx;
        this.p = p;
        this.submit = p.submitBuffer(ctx.node);
        this.log = p.inputLog.new Appender(ctx);
        this.dispatch = p.dispatch.new Sender(ctx);
        this.barrier = p.epochSync.new Barrier(ctx);
        this.progress = p.progress(ctx.node);
        this.poller = new Poller(ctx, p.pollNs);
        this.image = new byte[Batch.PAYLOAD + p.batchBytes];
    }

    @Override
    public void run() {
        boolean dispatchOneSided = p.hybrid.oneSided(Stage.DISPATCH), syncOneSided = p.hybrid.oneSided(Stage.EPOCH_SYNC);
        long deadline = ctx.runStart() + p.epochNs;   // epochs count from the run's start, the same instant on every worker
        long syncFrom = 0, syncTo = 0;
        boolean sentFinal = false;
        long finalEpoch = -1;
        for (long epoch = 0; ; epoch++) {
            if (!sentFinal) {
                long now = ctx.now();
                if (now < deadline) ctx.sleep(deadline - now);
                now = ctx.now();
                boolean over = now >= ctx.endTime();
                int bytes = submit.seal(image, Batch.PAYLOAD, p.batchBytes, over);
                int count = submit.sealedCount();
                sentFinal = over && submit.closed();
                if (sentFinal) finalEpoch = epoch;
                ctx.charge(Batch.copyNs(ctx.cost.localOpNs, bytes));
                long sealedAt = ctx.now();
                deadline = sealedAt + p.epochNs;
                Batch.header(image, epoch, count, bytes, sealedAt, syncFrom, syncTo);
                int imageBytes = Batch.PAYLOAD + bytes;
                if (count > 0) {
                    log.append(image, imageBytes);
                    nonEmpty++;
                }
                dispatch.send(epoch, image, imageBytes, sentFinal ? Dispatch.FINAL : Dispatch.READY, dispatchOneSided);
                epochs++;
                txns += count;
            }
            // EPOCH_SYNC: this node executed the epoch, then every node did
            long start = ctx.now();
            poller.reset();
            while (!progress.done(epoch)) idle("its node to finish epoch " + epoch);
            barrier.announce(epoch, finalEpoch, syncOneSided);
            poller.reset();
            while (!barrier.reached(epoch)) idle("every node to finish epoch " + epoch);
            long end = ctx.now();
            syncNs += end - start;
            // what the barrier held the next batch back by: the part of it after the next epoch was due
            syncFrom = Math.max(start, deadline);
            syncTo = Math.max(syncFrom, end);
            if (barrier.allFinalBy(epoch)) break;
        }
        ctx.await();
        ctx.release();
    }

    private void idle(String what) {
        if (p.drainOverdue(ctx)) throw new IllegalStateException("CALVIN sequencer of node " + ctx.node + " still waits for " + what + " long after the run ended");
        poller.idle();
    }
}
