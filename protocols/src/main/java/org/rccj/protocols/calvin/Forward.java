package org.rccj.protocols.calvin;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * FORWARD stage (value forwarding). Once a participant holds every lock a transaction needs on it, it reads those
 * tuples and forwards their values (versions and records) to every other active participant, which need them to
 * run the logic; the reporting active participant then forwards every value with the outcome to the transaction's
 * coordinator (for a read-only transaction, with no active participant, every participant forwards to the
 * coordinator instead). Every node has one slot per (coordinator node, coordinator coroutine, sender's rank), the
 * rank being the sender's position among the transaction's participant nodes in id order (so a node needs as many
 * slots per coordinator as a transaction can have participant nodes, not one per node): a notify word (the
 * transaction id) and the image (header, then items). A coordinator has at most one transaction
 * in flight and the epoch barrier keeps its next one out until every node is done with it, so a slot is never
 * overwritten before it is read.
 *
 * <p>One-sided: a WRITE of the image, then a WRITE of the notify word (same queue pair: the notify lands last).
 * RPC: one message per destination node and participant pass, carrying every image for that node; the handler
 * stores the same bytes in the same order. Receivers poll the notify words either way.
 */
final class Forward {
    // slot layout
    static final int NOTIFY = 0, IMAGE = 8;
    // image layout
    static final int COUNT = 0, SEALED_AT = 8, SYNC_FROM = 16, SYNC_TO = 24, GRANTED_AT = 32, OUTCOME = 40, ITEMS = 48;
    // item layout, followed by the record (8-aligned)
    static final int ITEM_ACCESS = 0, ITEM_VERSION = 8, ITEM_RECORD = 16;
    /** {@link #OUTCOME}: a participant's own values (no outcome); the reporter's: installed or not. */
    static final long VALUES = 0, INSTALLED = 1, NOT_INSTALLED = 2;
    // RPC request: block count, then blocks
    static final int RQ_BLOCKS = 0, RQ_FIRST = 8;
    static final int BLOCK_COORD_NODE = 0, BLOCK_SLOT = 8, BLOCK_RANK = 16, BLOCK_TXN = 24, BLOCK_BYTES = 32, BLOCK_IMAGE = 40;

    final int region;
    final int slotBytes;
    final int handler;
    private final int nodes, coroutines, coordsPerNode;
    /** Most participant nodes one transaction can have. */
    final int ranks;

    /** @param slotBytes bytes per slot; 0 = enough for the workload's largest transaction (see {@link #autoSlotBytes}) */
    Forward(ClusterView cluster, int slotBytes) {
        this.nodes = cluster.nodes();
        this.coroutines = cluster.shape.coroutines();
        this.coordsPerNode = cluster.threads() * coroutines;
        this.ranks = Math.min(nodes, cluster.maxAccessesPerTxn());
        this.slotBytes = slotBytes(slotBytes, cluster.maxAccessesPerTxn(), recordBytes(cluster.store.tables()));
        long bytes = regionBytes(cluster.shape, cluster.maxAccessesPerTxn(), this.slotBytes);
        int r = -1;
        for (int n = 0; n < nodes; n++) r = cluster.memory(n).register(REGION, bytes);
        this.region = r;
        this.handler = cluster.register("calvin.forward", this::handle);
    }

    static final String REGION = "calvin.forward";

    /** Bytes of the region on every node: a slot per (coordinator node, coordinator coroutine, participant rank). */
    static long regionBytes(org.rccj.framework.api.ClusterShape shape, int maxAccessesPerTxn, int slotBytes) {
        int ranks = Math.min(shape.nodes(), maxAccessesPerTxn);
        return (long) shape.nodes() * shape.threads() * shape.coroutines() * ranks * slotBytes;
    }

    /** The record sizes of the tables. */
    static int[] recordBytes(java.util.List<Table> tables) {
        int[] r = new int[tables.size()];
        for (int i = 0; i < r.length; i++) r[i] = tables.get(i).recordBytes;
        return r;
    }

    /** Bytes per slot: {@code asked} (protocol_options.forward_bytes), or 0 for {@link #autoSlotBytes}. */
    static int slotBytes(int asked, int maxAccessesPerTxn, int[] recordBytes) {
        return Bytes.align8(asked > 0 ? asked : autoSlotBytes(maxAccessesPerTxn, recordBytes));
    }

    /** A slot that holds the image of the workload's largest transaction, every item as large as the largest record. */
    static int autoSlotBytes(int maxAccessesPerTxn, int[] recordBytes) {
        int item = 0;
        for (int b : recordBytes) item = Math.max(item, ITEM_RECORD + Bytes.align8(b));
        long bytes = IMAGE + ITEMS + (long) maxAccessesPerTxn * item;
        if (bytes > 16 << 20) throw new IllegalStateException("CALVIN forward slots of " + bytes + " bytes: the workload's transactions are too large");
        return (int) bytes;
    }

    /** The slot of a coordinator coroutine among its node's. */
    int coordSlot(int worker, int coroutine) { return worker * coroutines + coroutine; }

    /** Offset, on any node, of the slot where the participant of {@code rank} forwards to for coordinator {@code coordSlot} of {@code coordNode}. */
    long slot(int coordNode, int coordSlot, int rank) {
        if (rank < 0 || rank >= ranks) throw new IllegalStateException("CALVIN: participant rank " + rank + " of a transaction (at most " + ranks + ")");
        return (((long) coordNode * coordsPerNode + coordSlot) * ranks + rank) * slotBytes;
    }

    static int itemBytes(Table t) { return ITEM_RECORD + Bytes.align8(t.recordBytes); }

    /** Bytes of the image of {@code s}'s local values ({@code all}: of every value). */
    static int imageBytes(TxnState s, boolean all) {
        int b = ITEMS;
        int n = all ? s.count : s.localCount;
        for (int k = 0; k < n; k++) b += itemBytes(s.table[all ? k : s.local[k]]);
        return b;
    }

    int checkFits(int imageBytes) {
        if (IMAGE + imageBytes > slotBytes) {
            throw new IllegalStateException("CALVIN forwards " + imageBytes + " bytes for one transaction, more than a forward slot holds; "
                    + "raise " + org.rccj.framework.config.Settings.optionKey(CalvinSettings.FORWARD));
        }
        return imageBytes;
    }

    /** The image of {@code s}'s local values ({@code all}: of every value) with {@code outcome}, at {@code dst[off..)}. */
    static int encode(TxnState s, boolean all, long outcome, byte[] dst, int off) {
        int n = all ? s.count : s.localCount;
        Bytes.putLong(dst, off + COUNT, n);
        Bytes.putLong(dst, off + SEALED_AT, s.sealedAt);
        Bytes.putLong(dst, off + SYNC_FROM, s.syncFrom);
        Bytes.putLong(dst, off + SYNC_TO, s.syncTo);
        Bytes.putLong(dst, off + GRANTED_AT, s.grantedAt);
        Bytes.putLong(dst, off + OUTCOME, outcome);
        int p = off + ITEMS;
        for (int k = 0; k < n; k++) {
            int i = all ? k : s.local[k];
            Table t = s.table[i];
            Bytes.putLong(dst, p + ITEM_ACCESS, i);
            Bytes.putLong(dst, p + ITEM_VERSION, s.version[i]);
            System.arraycopy(s.record[i], 0, dst, p + ITEM_RECORD, t.recordBytes);
            p += itemBytes(t);
        }
        return p - off;
    }

    /** Takes a forwarded image into {@code s}'s values; returns its bytes. */
    static int take(TxnState s, RegisteredMemory m, int region, long image) {
        int n = (int) m.getLong(region, image + COUNT);
        long at = image + ITEMS;
        for (int k = 0; k < n; k++) {
            int i = (int) m.getLong(region, at + ITEM_ACCESS);
            Table t = s.table[i];
            s.version[i] = m.getLong(region, at + ITEM_VERSION);
            m.read(region, at + ITEM_RECORD, s.record[i], 0, t.recordBytes);
            s.have[i] = true;
            at += itemBytes(t);
        }
        return (int) (at - image);
    }

    /** Receiver side, both transports: the image, then the notify word that publishes it. */
    static void deliver(RegisteredMemory m, int region, long slot, long txn, byte[] src, int off, int imageBytes) {
        m.write(region, slot + IMAGE, src, off, imageBytes);
        m.putLongRelease(region, slot + NOTIFY, txn);
    }

    private void handle(RpcWorker w, Op call) {
        byte[] d = call.data;
        int blocks = (int) Bytes.getLong(d, RQ_BLOCKS);
        w.charge(Batch.copyNs(w.profile().localOpNs, call.length));
        int p = RQ_FIRST;
        for (int b = 0; b < blocks; b++) {
            int bytes = (int) Bytes.getLong(d, p + BLOCK_BYTES);
            long slot = slot((int) Bytes.getLong(d, p + BLOCK_COORD_NODE), (int) Bytes.getLong(d, p + BLOCK_SLOT), (int) Bytes.getLong(d, p + BLOCK_RANK));
            deliver(w.memory, region, slot, Bytes.getLong(d, p + BLOCK_TXN), d, p + BLOCK_IMAGE, bytes);
            p += BLOCK_IMAGE + bytes;
        }
        call.replyBuffer(0);
        w.reply(call);
    }

    /** One participant loop's sending side: images are queued per destination and posted by {@link #flush}. */
    final class Sender {
        private final CoroutineContext ctx;
        private final boolean oneSided;
        private final Op[] rpc = new Op[nodes];
        private final int[] rpcBytes = new int[nodes], rpcBlocks = new int[nodes];

        Sender(CoroutineContext ctx, boolean oneSided) {
            this.ctx = ctx;
            this.oneSided = oneSided;
        }

        /** Queues the image of {@code s}'s local values ({@code all}: every value, with {@code outcome}) for node {@code dest}. */
        void send(TxnState s, int dest, boolean all, long outcome) {
            int bytes = checkFits(imageBytes(s, all));
            int rank = s.rank[ctx.node];
            long at = slot(s.coordNode, s.coordSlot, rank);
            ctx.charge(ctx.cost.tupleOpNs * (all ? s.count : s.localCount));
            if (oneSided) {
                Op data = ctx.op().write(dest, region, at + IMAGE, bytes).unsignaled();
                encode(s, all, outcome, data.data, 0);
                ctx.add(data);
                ctx.add(ctx.op().writeLong(dest, region, at + NOTIFY, s.txn).unsignaled());
                return;
            }
            Op op = rpc[dest];
            if (op == null) {
                op = ctx.op().rpc(dest, handler, RQ_FIRST);
                rpc[dest] = op;
                rpcBytes[dest] = RQ_FIRST;
                rpcBlocks[dest] = 0;
            }
            int p = rpcBytes[dest];
            int need = p + BLOCK_IMAGE + bytes;
            if (op.data.length < need) op.data = java.util.Arrays.copyOf(op.data, Math.max(need, op.data.length * 2));
            Bytes.putLong(op.data, p + BLOCK_COORD_NODE, s.coordNode);
            Bytes.putLong(op.data, p + BLOCK_SLOT, s.coordSlot);
            Bytes.putLong(op.data, p + BLOCK_RANK, rank);
            Bytes.putLong(op.data, p + BLOCK_TXN, s.txn);
            Bytes.putLong(op.data, p + BLOCK_BYTES, bytes);
            encode(s, all, outcome, op.data, p + BLOCK_IMAGE);
            rpcBytes[dest] = need;
            rpcBlocks[dest]++;
        }

        /** Posts everything queued (RPC: one message per destination). Does not wait. */
        void flush() {
            for (int d = 0; d < nodes; d++) {
                Op op = rpc[d];
                if (op == null) continue;
                Bytes.putLong(op.data, RQ_BLOCKS, rpcBlocks[d]);
                op.length = rpcBytes[d];
                ctx.add(op);
                rpc[d] = null;
            }
            ctx.flush();
            ctx.release();
        }
    }
}
