package org.rccj.protocols.calvin;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.log.BackupRings;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * LOG: before a batch is dispatched, its sequencer replicates it to {@code replication - 1} backup nodes (the next
 * nodes in id order), so the inputs survive a failure. As in the artifact this is an RPC broadcast whose replies the
 * sequencer does not wait for (asynchronous replication; the artifact's one-sided variant is commented out), so it
 * is not a bindable stage of CALVIN. Each backup keeps one ring per sequencer, written only by that sequencer's RPCs.
 * Like the coordinator log, entries are not truncated or replayed (recovery is out of scope).
 */
final class InputLog {
    /** Batches each ring holds before it wraps. */
    static final int RING_BATCHES = 4;
    // RPC request: position in the ring, then the image
    static final int RQ_POSITION = 0, RQ_IMAGE = 8;

    private final int region;
    private final int handler;
    private final int backups;
    private final int nodes;
    final long ringBytes;

    InputLog(ClusterView cluster, int slotBytes) {
        this.nodes = cluster.nodes();
        this.backups = cluster.shape.replication() - 1;
        this.ringBytes = (long) RING_BATCHES * slotBytes;
        this.rings = new BackupRings(nodes, cluster.shape.replication(), 1, ringBytes);
        int r = -1;
        for (int n = 0; n < nodes; n++) r = cluster.memory(n).register(REGION, rings.regionBytes());
        this.region = r;
        this.handler = cluster.register("calvin.log", this::handle);
    }

    private final BackupRings rings;

    static final String REGION = "calvin.inputlog";

    /** Bytes of the region on every node for dispatch slots of {@code slotBytes}. */
    static long regionBytes(int nodes, int replication, int slotBytes) {
        return new BackupRings(nodes, replication, 1, (long) RING_BATCHES * slotBytes).regionBytes();
    }

    private void handle(RpcWorker w, Op call) {
        int bytes = call.length - RQ_IMAGE;
        w.charge(Batch.copyNs(w.profile().localOpNs, bytes));
        w.memory.write(region, rings.ringOffset(w.node, call.srcNode, 0) + Bytes.getLong(call.data, RQ_POSITION), call.data, RQ_IMAGE, bytes);
        call.replyBuffer(0);
        w.reply(call);
    }

    /** One sequencer's appending side (its position in its rings). */
    final class Appender {
        private final CoroutineContext ctx;
        private long position;

        Appender(CoroutineContext ctx) { this.ctx = ctx; }

        /** Sends {@code image[0..bytes)} to every backup; does not wait for the replies. */
        void append(byte[] image, int bytes) {
            if (backups == 0) return;
            if (position + bytes > ringBytes) position = 0;
            for (int b = 1; b <= backups; b++) {
                Op op = ctx.op().rpc(rings.backup(ctx.node, b), handler, RQ_IMAGE + bytes);
                Bytes.putLong(op.data, RQ_POSITION, position);
                System.arraycopy(image, 0, op.data, RQ_IMAGE, bytes);
                ctx.add(op);
            }
            position += Bytes.align8(bytes);
            ctx.flush();
            ctx.release();
        }
    }

    /** Epoch of the batch logged at {@code position} of {@code source}'s ring on {@code backup} (tests). */
    long epochAt(ClusterView cluster, int backup, int source, long position) {
        return cluster.memory(backup).getLong(region, rings.ringOffset(backup, source, 0) + position + Batch.EPOCH);
    }
}
