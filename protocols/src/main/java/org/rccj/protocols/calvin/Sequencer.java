package org.rccj.protocols.calvin;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.Stage;
import org.rccj.primitives.Bytes;

/**
 * A node's sequencer (a service coroutine): at every epoch boundary (the same instants on every node)
 * it seals the requests its node's coordinators submitted, replicates the batch to the backups (LOG, awaited:
 * inputs are durable before they run) and broadcasts it to every node (DISPATCH, not awaited: it overlaps the next
 * epoch's LOG),
 * empty batches included, so every scheduler knows when it has the whole epoch. The first batch
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

    /**
     * When epoch {@code epoch} closes. Epoch n is [run start + n E, run start + (n + 1) E) on every node: the
     * schedulers wait for every node's batch of an epoch, so a node whose epochs ran late would delay them all.
     */
    private long boundary(long epoch) { return p.runStart(ctx) + (epoch + 1) * p.epochNs; }

    @Override
    public void run() {
        long epoch = 0;
        boolean logOneSided = p.hybrid.oneSided(Stage.LOG), dispatchOneSided = p.hybrid.oneSided(Stage.DISPATCH);
        while (true) {
            long now = ctx.now(), deadline = boundary(epoch);
            if (now < deadline) ctx.sleep(deadline - now);
            dispatch.harvest();
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
                log.append(image, imageBytes, logOneSided);     // waits for the backups (and any dispatch still in flight)
                nonEmpty++;
            }
            Bytes.putLong(image, Batch.LOGGED_AT, ctx.now());
            dispatch.send(epoch, image, imageBytes, last ? Dispatch.FINAL : Dispatch.READY, dispatchOneSided);
            epochs++;
            txns += count;
            if (last) {
                dispatch.drain();
                return;
            }
            // a sequencer that is late (its worker was busy, its thread descheduled) seals the overdue epochs at
            // once, back to back; flow control bounds how far ahead of the schedulers that runs
            epoch++;
        }
    }
}
