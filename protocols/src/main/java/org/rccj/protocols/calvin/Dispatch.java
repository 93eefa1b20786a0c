package org.rccj.protocols.calvin;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * DISPATCH stage: a sequencer broadcasts its epoch's batch to every node (itself included). Every node has a
 * request buffer that every node knows: {@link #DEPTH} slots per sending node. A slot is a status word followed by
 * the batch image ({@link Batch}: epoch, batch size, payload bytes, timestamps, requests).
 *
 * <p>One-sided: one WRITE of the image, then one WRITE of the status word (same queue pair, so the status lands
 * last and the scheduler never sees half a batch). RPC: one message per node whose handler stores the same bytes in
 * the same order. The sender does not wait for the deliveries (the artifact's broadcast is not awaited either).
 * Two slots per sender are enough: a sequencer seals epoch {@code e + 1} only after the epoch barrier of {@code e},
 * so every scheduler has consumed {@code e - 1}, whose slot {@code e + 1} reuses, before it is written.
 */
final class Dispatch {
    static final long FREE = 0, READY = 1, FINAL = 2;
    /** Epochs in flight per sender and receiver (the epoch barrier keeps it to two). */
    static final int DEPTH = 2;
    static final int SLOT_STATUS = 0, SLOT_IMAGE = 8;
    // RPC request
    static final int RQ_SENDER = 0, RQ_STATUS = 8, RQ_IMAGE = 16;

    final int region;
    final int slotBytes;
    private final int handler;
    private final int nodes;

    Dispatch(ClusterView cluster, int batchBytes) {
        this.nodes = cluster.nodes();
        this.slotBytes = slotBytes(batchBytes);
        long bytes = regionBytes(nodes, slotBytes);
        int r = -1;
        for (int n = 0; n < nodes; n++) r = cluster.memory(n).register(REGION, bytes);
        this.region = r;
        this.handler = cluster.register("calvin.dispatch", this::handle);
    }

    static final String REGION = "calvin.requests";

    /** Bytes of a slot that holds a batch of {@code batchBytes}. */
    static int slotBytes(int batchBytes) { return Bytes.align8(SLOT_IMAGE + Batch.PAYLOAD + batchBytes); }

    /** Bytes of the region on every node: {@link #DEPTH} slots per sender node. */
    static long regionBytes(int nodes, int slotBytes) { return (long) nodes * DEPTH * slotBytes; }

    /** Offset of the slot that holds {@code sender}'s batch of {@code epoch}. */
    long slot(int sender, long epoch) {
        return ((long) sender * DEPTH + Math.floorMod(epoch, DEPTH)) * slotBytes;
    }

    /** Receiver side, both transports: the image, then the status word that publishes it. */
    static void deliver(RegisteredMemory m, int region, long slot, byte[] src, int off, int imageBytes, long status) {
        m.write(region, slot + SLOT_IMAGE, src, off, imageBytes);
        m.putLongRelease(region, slot + SLOT_STATUS, status);
    }

    private void handle(RpcWorker w, Op call) {
        byte[] d = call.data;
        int imageBytes = call.length - RQ_IMAGE;
        w.charge(Batch.copyNs(w.profile().localOpNs, imageBytes));
        long slot = slot((int) Bytes.getLong(d, RQ_SENDER), Bytes.getLong(d, RQ_IMAGE + Batch.EPOCH));
        deliver(w.memory, region, slot, d, RQ_IMAGE, imageBytes, Bytes.getLong(d, RQ_STATUS));
        call.replyBuffer(0);
        w.reply(call);
    }

    /** One sequencer's sending side. */
    final class Sender {
        private final CoroutineContext ctx;
        private final int node;

        Sender(CoroutineContext ctx) {
            this.ctx = ctx;
            this.node = ctx.node;
        }

        /** Posts {@code image[0..imageBytes)} (the batch of {@code epoch}) to every node and returns without waiting. */
        void send(long epoch, byte[] image, int imageBytes, long status, boolean oneSided) {
            long slot = slot(node, epoch);
            for (int r = 0; r < nodes; r++) {
                Op op = ctx.op();
                if (oneSided) {
                    op.write(r, region, slot + SLOT_IMAGE, imageBytes).unsignaled();
                    System.arraycopy(image, 0, op.data, 0, imageBytes);
                    ctx.add(op);
                    ctx.add(ctx.op().writeLong(r, region, slot + SLOT_STATUS, status));
                } else {
                    op.rpc(r, handler, RQ_IMAGE + imageBytes);
                    Bytes.putLong(op.data, RQ_SENDER, node);
                    Bytes.putLong(op.data, RQ_STATUS, status);
                    System.arraycopy(image, 0, op.data, RQ_IMAGE, imageBytes);
                    ctx.add(op);
                }
            }
            ctx.flush();
            ctx.release();
        }
    }
}
