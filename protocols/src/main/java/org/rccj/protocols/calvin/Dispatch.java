package org.rccj.protocols.calvin;

import java.util.Arrays;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * DISPATCH stage: a sequencer broadcasts its epoch's batch to every node (itself included). Every node has a
 * request buffer that every node knows: a word with the last epoch its scheduler consumed, then a ring of
 * {@link #DEPTH} slots per sending node. A slot is a status word followed by the batch image ({@link Batch}:
 * epoch, batch size, received bytes, timestamps, requests).
 *
 * <p>One-sided: one WRITE of the image, then one WRITE of the status word (same queue pair, so the status
 * lands last and the scheduler never sees half a batch). RPC: one message per node whose handler stores the
 * same bytes in the same order. A sender writes epoch {@code e} into a slot only once the receiver consumed
 * epoch {@code e - DEPTH} ({@link #mayWrite}); it learns that by a READ of the consumed word (one-sided) or from
 * the replies of its RPCs and a credit RPC.
 */
final class Dispatch {
    static final long FREE = 0, READY = 1, FINAL = 2;
    /** Epochs in flight per sender and receiver. */
    static final int DEPTH = 16;
    // request buffer layout
    static final int CONSUMED = 0, SLOTS = 64;
    static final int SLOT_STATUS = 0, SLOT_IMAGE = 8;
    // RPC request / reply
    static final int RQ_SENDER = 0, RQ_STATUS = 8, RQ_IMAGE = 16;
    static final int RP_CONSUMED = 0, RP_BYTES = 8;
    /** How long a sender first waits before asking again when a receiver is DEPTH epochs behind (then doubling). */
    static final long CREDIT_RETRY_NS = 1_000;

    final int region;
    final int slotBytes;
    private final int dispatchHandler, creditHandler;
    private final int nodes;
    /** Longest wait between two credit queries: an epoch (or a few polls on real threads, so it does not spin). */
    private final long creditRetryMaxNs;

    Dispatch(Cluster cluster, int batchBytes, long epochNs, long pollNs) {
        this.nodes = cluster.nodes();
        this.creditRetryMaxNs = Math.max(CREDIT_RETRY_NS, Math.max(epochNs, 4 * pollNs));
        this.slotBytes = Bytes.align8(SLOT_IMAGE + Batch.PAYLOAD + batchBytes);
        long bytes = SLOTS + (long) nodes * DEPTH * slotBytes;
        int r = -1;
        for (int n = 0; n < nodes; n++) {
            r = cluster.memory(n).register("calvin.requests", bytes);
            cluster.memory(n).putLongVolatile(r, CONSUMED, -1);
        }
        this.region = r;
        this.dispatchHandler = cluster.register("calvin.dispatch", this::handleDispatch);
        this.creditHandler = cluster.register("calvin.credit", this::handleCredit);
    }

    /** Offset of the slot that holds {@code sender}'s batch of {@code epoch}. */
    long slot(int sender, long epoch) {
        return SLOTS + ((long) sender * DEPTH + Math.floorMod(epoch, DEPTH)) * slotBytes;
    }

    /** Flow control: epoch {@code epoch} may overwrite its slot once the receiver consumed {@code epoch - DEPTH}. */
    static boolean mayWrite(long epoch, long consumed) { return epoch - DEPTH <= consumed; }

    /** Receiver side, both transports: the image, then the status word that publishes it. */
    static void deliver(RegisteredMemory m, int region, long slot, byte[] src, int off, int imageBytes, long status) {
        m.write(region, slot + SLOT_IMAGE, src, off, imageBytes);
        m.putLongRelease(region, slot + SLOT_STATUS, status);
    }

    private void handleDispatch(Worker w, Op call) {
        byte[] d = call.data;
        int imageBytes = call.length - RQ_IMAGE;
        w.charge(Batch.copyNs(w.ep.profile().localOpNs, imageBytes));
        long slot = slot((int) Bytes.getLong(d, RQ_SENDER), Bytes.getLong(d, RQ_IMAGE + Batch.EPOCH));
        deliver(w.memory, region, slot, d, RQ_IMAGE, imageBytes, Bytes.getLong(d, RQ_STATUS));
        replyConsumed(w, call);
    }

    private void handleCredit(Worker w, Op call) { replyConsumed(w, call); }

    private void replyConsumed(Worker w, Op call) {
        Bytes.putLong(call.replyBuffer(RP_BYTES), RP_CONSUMED, w.memory.getLongVolatile(region, CONSUMED));
        w.reply(call);
    }

    /** One sequencer's sending side: what it knows of each receiver's progress, and its ops. */
    final class Sender {
        private final CoroutineContext ctx;
        private final int node;
        private final long[] consumed;
        private final Op[] ops;
        /** Dispatch RPCs whose replies are not read yet. */
        private Op[] sent = new Op[16];
        private int outstanding;
        long flowControlWaits;

        Sender(CoroutineContext ctx) {
            this.ctx = ctx;
            this.node = ctx.node;
            this.consumed = new long[nodes];
            Arrays.fill(consumed, -1);
            this.ops = new Op[nodes];
        }

        /**
         * Posts {@code image[0..imageBytes)} (the batch of {@code epoch}) to every node, once flow control allows,
         * and returns without waiting for the deliveries: the sequencer calls {@link #harvest} before it takes
         * its next op (RPC replies carry the receivers' progress and would be lost if their op were reused).
         */
        void send(long epoch, byte[] image, int imageBytes, long status, boolean oneSided) {
            harvest();
            awaitCredit(epoch, oneSided);
            for (int r = 0; r < nodes; r++) {
                long slot = slot(node, epoch);
                Op op = ctx.op();
                if (oneSided) {
                    op.write(r, region, slot + SLOT_IMAGE, imageBytes).unsignaled();
                    System.arraycopy(image, 0, op.data, 0, imageBytes);
                    ctx.add(op);
                    ctx.add(ctx.op().writeLong(r, region, slot + SLOT_STATUS, status));
                } else {
                    op.rpc(r, dispatchHandler, RQ_IMAGE + imageBytes);
                    Bytes.putLong(op.data, RQ_SENDER, node);
                    Bytes.putLong(op.data, RQ_STATUS, status);
                    System.arraycopy(image, 0, op.data, RQ_IMAGE, imageBytes);
                    ctx.add(op);
                    if (outstanding == sent.length) sent = Arrays.copyOf(sent, outstanding * 2);
                    sent[outstanding++] = op;
                }
            }
            ctx.flush();
            ctx.release();
        }

        /**
         * Takes the receivers' progress from the replies of dispatch RPCs that completed (does not wait). Called
         * after every yield before the sequencer takes ops again, so a completed RPC is read before its op is reused.
         */
        void harvest() {
            int keep = 0;
            for (int i = 0; i < outstanding; i++) {
                Op op = sent[i];
                if (op.inFlight) {
                    sent[keep++] = op;
                } else {
                    consumed[op.node] = Math.max(consumed[op.node], Bytes.getLong(op.reply, RP_CONSUMED));
                }
            }
            for (int i = keep; i < outstanding; i++) sent[i] = null;
            outstanding = keep;
        }

        /** Waits until every batch sent is delivered everywhere (end of the run). */
        void drain() {
            ctx.await();
            harvest();
        }

        /** Waits until every receiver consumed epoch {@code epoch - DEPTH}: READs of its consumed word, or credit RPCs. */
        private void awaitCredit(long epoch, boolean oneSided) {
            long retry = CREDIT_RETRY_NS;
            while (true) {
                harvest();      // before ops are taken: a completed dispatch RPC's op may be reused from here on
                int asked = 0;
                for (int r = 0; r < nodes; r++) {
                    ops[r] = null;
                    if (mayWrite(epoch, consumed[r])) continue;
                    Op op = oneSided ? ctx.op().read(r, region, CONSUMED, 8) : ctx.op().rpc(r, creditHandler, 8);
                    ops[r] = op;
                    ctx.add(op);
                    asked++;
                }
                if (asked == 0) return;
                ctx.flushAndWait();
                harvest();
                boolean ok = true;
                for (int r = 0; r < nodes; r++) {
                    Op op = ops[r];
                    if (op == null) continue;
                    consumed[r] = Math.max(consumed[r], Bytes.getLong(oneSided ? op.data : op.reply, oneSided ? 0 : RP_CONSUMED));
                    ok &= mayWrite(epoch, consumed[r]);
                }
                ctx.release();
                if (ok) return;
                flowControlWaits++;
                ctx.sleep(retry);
                retry = Math.min(creditRetryMaxNs, retry * 2);
            }
        }
    }
}
