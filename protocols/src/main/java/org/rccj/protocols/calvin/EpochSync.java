package org.rccj.protocols.calvin;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * EPOCH_SYNC stage: the epoch barrier among the sequencers (RCC: "epoch synchronization among all sequencer
 * co-routines"; the artifact's {@code epoch_sync}/{@code epoch_sync_rdma}). Once its node has executed every part of
 * epoch {@code e}, a sequencer tells every other node so and waits until every node told it the same; only then
 * does it seal epoch {@code e + 1}. Every node has one status word per node: the last epoch the sender is done
 * with, and the epoch of its final batch if it sent it (each + 1, so 0 = not yet; low and high 32 bits). The run
 * ends after the first barrier {@code e} at which every node's final batch is at or before {@code e}: every node
 * reads the same final epochs there, whichever later epoch a faster node already announced. One-sided: a WRITE of the word to every other node, awaited.
 * RPC: a message per node whose handler stores the word, awaited. Either way the waiting is a poll of local memory.
 */
final class EpochSync {
    static final int RQ_WORD = 0, RQ_BYTES = 8;

    final int region;
    private final int handler;
    private final int nodes;

    static final String REGION = "calvin.epochsync";

    /** Bytes of the region on every node: a word per node. */
    static long regionBytes(int nodes) { return 8L * nodes; }

    EpochSync(ClusterView cluster) {
        this.nodes = cluster.nodes();
        int r = -1;
        for (int n = 0; n < nodes; n++) r = cluster.memory(n).register(REGION, regionBytes(nodes));
        this.region = r;
        this.handler = cluster.register("calvin.epochsync", this::handle);
    }

    /** @param finalEpoch the epoch of the sender's final batch, -1 while it has not sent it */
    static long word(long epoch, long finalEpoch) { return ((finalEpoch + 1) << 32) | (epoch + 1); }

    private static long epochOf(long word) { return (word & 0xffff_ffffL) - 1; }

    private static long finalEpochOf(long word) { return (word >>> 32) - 1; }

    private long at(int source) { return 8L * source; }

    private void handle(RpcWorker w, Op call) {
        w.memory.putLongRelease(region, at(call.srcNode), Bytes.getLong(call.data, RQ_WORD));
        call.replyBuffer(0);
        w.reply(call);
    }

    /** One sequencer's side. */
    final class Barrier {
        private final CoroutineContext ctx;
        private final RegisteredMemory mem;

        Barrier(CoroutineContext ctx) {
            this.ctx = ctx;
            this.mem = ctx.cluster().memory(ctx.node);
        }

        /** Tells every node this one is done with {@code epoch} (and the epoch of its final batch, or -1); returns once delivered. */
        void announce(long epoch, long finalEpoch, boolean oneSided) {
            long w = word(epoch, finalEpoch);
            mem.putLongRelease(region, at(ctx.node), w);
            for (int r = 0; r < nodes; r++) {
                if (r == ctx.node) continue;
                Op op;
                if (oneSided) {
                    op = ctx.op().writeLong(r, region, at(ctx.node), w);
                } else {
                    op = ctx.op().rpc(r, handler, RQ_BYTES);
                    Bytes.putLong(op.data, RQ_WORD, w);
                }
                ctx.add(op);
            }
            ctx.flushAndWait();
            ctx.release();
        }

        /** Every node announced {@code epoch} (or later). */
        boolean reached(long epoch) {
            for (int n = 0; n < nodes; n++) if (epochOf(mem.getLongVolatile(region, at(n))) < epoch) return false;
            return true;
        }

        /** After barrier {@code epoch}: every node sent its final batch at or before it (the same answer on every node). */
        boolean allFinalBy(long epoch) {
            for (int n = 0; n < nodes; n++) {
                long f = finalEpochOf(mem.getLongVolatile(region, at(n)));
                if (f < 0 || f > epoch) return false;
            }
            return true;
        }
    }
}
