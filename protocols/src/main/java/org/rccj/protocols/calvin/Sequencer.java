package org.rccj.protocols.calvin;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.Stage;
import org.rccj.primitives.Bytes;

/**
 * A node's sequencer (a service coroutine on worker 0): at every epoch boundary it seals the requests its
 * node's coordinators submitted, replicates the batch to the backups (LOG) and broadcasts it to every node
 * (DISPATCH), empty batches included, so every scheduler knows when it has the whole epoch. The first batch
 * sealed at or after the run's end time closes the node (later submissions are refused) and is marked final.
 */
final class Sequencer implements Runnable {
    private final CoroutineContext ctx;
    private final CalvinProtocol p;
    private final SubmitBuffer submit;
    private final InputLog.Appender log;
    private final Dispatch.Sender dispatch;
    private final byte[] image;
    long epochs, txns, nonEmpty;

    Sequencer(CoroutineContext ctx, CalvinProtocol p) {
        this.ctx = ctx;
        this.p = p;
        this.submit = p.submitBuffer(ctx.node);
        this.log = p.inputLog.new Appender(ctx);
        this.dispatch = p.dispatch.new Sender(ctx);
        this.image = new byte[Batch.PAYLOAD + p.batchBytes];
    }

    long flowControlWaits() { return dispatch.flowControlWaits; }

    @Override
    public void run() {
        long epoch = 0;
        long deadline = ctx.now() + p.epochNs;
        boolean logOneSided = p.hybrid.oneSided(Stage.LOG), dispatchOneSided = p.hybrid.oneSided(Stage.DISPATCH);
        while (true) {
            long now = ctx.now();
            if (now < deadline) ctx.sleep(deadline - now);
            now = ctx.now();
            boolean over = now >= ctx.endTime();
            int bytes = submit.seal(image, Batch.PAYLOAD, p.batchBytes, over);
            int count = submit.sealedCount();
            boolean last = over && submit.closed();
            ctx.charge(Batch.copyNs(ctx.cost.localOpNs, bytes));
            // sealed once copied: the LOG stage starts here
            Batch.header(image, epoch, count, bytes, ctx.now());
            int imageBytes = Batch.PAYLOAD + bytes;
            if (count > 0) {
                log.append(image, imageBytes, logOneSided);
                nonEmpty++;
            }
            Bytes.putLong(image, Batch.LOGGED_AT, ctx.now());
            dispatch.send(epoch, image, imageBytes, last ? Dispatch.FINAL : Dispatch.READY, dispatchOneSided);
            epochs++;
            txns += count;
            if (last) return;
            epoch++;
            // an epoch that overran its length is followed at once by the next (no catch-up burst beyond that)
            deadline = Math.max(deadline + p.epochNs, ctx.now());
        }
    }
}
