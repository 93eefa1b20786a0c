package org.rccj.protocols.calvin;

import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * FORWARD stage, participant to executor: once a participant holds every lock a transaction needs on it, it
 * reads those tuples and forwards their values (with version ids and lock tickets) to the transaction's
 * executor, its coordinator. Every coordinator coroutine has a forward buffer on its node with one slot per
 * participant node: a notify word (the transaction id) and the image (count, timestamps, items).
 *
 * <p>One-sided: a WRITE of the image, then a WRITE of the notify word (same queue pair: the notify lands last).
 * RPC: one message per destination node and scheduler pass, carrying the images of every coordinator there;
 * the handler stores the same bytes in the same order. The coordinator polls the notify words either way.
 */
final class Forward {
    // slot layout
    static final int NOTIFY = 0, IMAGE = 8;
    // image layout
    static final int COUNT = 0, SEALED_AT = 8, LOGGED_AT = 16, POSTED_AT = 24, ITEMS = 32;
    // item layout, followed by the record (8-aligned)
    static final int ITEM_ACCESS = 0, ITEM_OFFSET = 8, ITEM_VERSION = 16, ITEM_TICKET = 24, ITEM_RECORD = 32;
    // RPC request: block count, then blocks
    static final int RQ_BLOCKS = 0, RQ_FIRST = 8;
    static final int BLOCK_SLOT = 0, BLOCK_TXN = 8, BLOCK_BYTES = 16, BLOCK_IMAGE = 24;

    final int region;
    final int slotBytes;
    final int handler;
    private final int nodes, coroutines;

    /** @param slotBytes bytes per slot; 0 = enough for the workload's largest transaction (see {@link #autoSlotBytes}) */
    Forward(Cluster cluster, int slotBytes) {
        this.nodes = cluster.nodes();
        this.coroutines = cluster.shape.coroutines();
        this.slotBytes = Bytes.align8(slotBytes > 0 ? slotBytes : autoSlotBytes(cluster));
        long bytes = (long) cluster.threads() * coroutines * nodes * this.slotBytes;
        int r = -1;
        for (int n = 0; n < nodes; n++) r = cluster.memory(n).register("calvin.forward", bytes);
        this.region = r;
        this.handler = cluster.register("calvin.forward", this::handle);
    }

    /** A slot that holds the image of the workload's largest transaction, every item as large as the largest record. */
    static int autoSlotBytes(Cluster cluster) {
        int item = 0;
        for (Table t : cluster.store.tables()) item = Math.max(item, itemBytes(t));
        long bytes = IMAGE + ITEMS + (long) cluster.workload.maxAccessesPerTxn() * item;
        if (bytes > 16 << 20) throw new IllegalStateException("CALVIN forward slots of " + bytes + " bytes: the workload's transactions are too large");
        return (int) bytes;
    }

    /** The forward-buffer slot of a coordinator coroutine on its node. */
    int coordSlot(int worker, int coroutine) { return worker * coroutines + coroutine; }

    /** Offset of the slot where participant {@code source} forwards to coordinator slot {@code coordSlot}. */
    long slot(int coordSlot, int source) { return ((long) coordSlot * nodes + source) * slotBytes; }

    static int itemBytes(Table t) { return ITEM_RECORD + Bytes.align8(t.recordBytes); }

    static int imageBytes(TxnState s) {
        int b = ITEMS;
        for (int i = 0; i < s.size; i++) b += itemBytes(s.table[i]);
        return b;
    }

    int checkFits(int imageBytes) {
        if (IMAGE + imageBytes > slotBytes) {
            throw new IllegalStateException("CALVIN forwards " + imageBytes + " bytes to one coordinator, more than its forward slot holds; "
                    + "raise protocol_options.forward_bytes");
        }
        return imageBytes;
    }

    /**
     * Participant side, both transports: the image of a granted transaction's local tuples, read from this
     * node's memory now (its locks are held, so the values are the ones at its place in the global order).
     */
    static int encode(TxnState s, RegisteredMemory m, long postedAt, byte[] dst, int off) {
        Bytes.putLong(dst, off + COUNT, s.size);
        Bytes.putLong(dst, off + SEALED_AT, s.sealedAt);
        Bytes.putLong(dst, off + LOGGED_AT, s.loggedAt);
        Bytes.putLong(dst, off + POSTED_AT, postedAt);
        int p = off + ITEMS;
        for (int i = 0; i < s.size; i++) {
            Table t = s.table[i];
            long o = s.offset[i];
            Bytes.putLong(dst, p + ITEM_ACCESS, s.access[i]);
            Bytes.putLong(dst, p + ITEM_OFFSET, o);
            Bytes.putLong(dst, p + ITEM_TICKET, s.ticket[i]);
            if (o >= 0) {
                Bytes.putLong(dst, p + ITEM_VERSION, m.getLongVolatile(t.region(), o + CalvinTuple.VERSION));
                m.read(t.region(), o + t.recordOffset, dst, p + ITEM_RECORD, t.recordBytes);
            } else {
                Bytes.putLong(dst, p + ITEM_VERSION, 0);
            }
            p += itemBytes(t);
        }
        return p - off;
    }

    /** Receiver side, both transports: the image, then the notify word that publishes it. */
    static void deliver(RegisteredMemory m, int region, long slot, long txn, byte[] src, int off, int imageBytes) {
        m.write(region, slot + IMAGE, src, off, imageBytes);
        m.putLongRelease(region, slot + NOTIFY, txn);
    }

    private void handle(Worker w, Op call) {
        byte[] d = call.data;
        int blocks = (int) Bytes.getLong(d, RQ_BLOCKS);
        w.charge(Batch.copyNs(w.ep.profile().localOpNs, call.length));
        int p = RQ_FIRST;
        for (int b = 0; b < blocks; b++) {
            int bytes = (int) Bytes.getLong(d, p + BLOCK_BYTES);
            deliver(w.memory, region, slot((int) Bytes.getLong(d, p + BLOCK_SLOT), call.srcNode), Bytes.getLong(d, p + BLOCK_TXN),
                    d, p + BLOCK_IMAGE, bytes);
            p += BLOCK_IMAGE + bytes;
        }
        call.replyBuffer(0);
        w.reply(call);
    }
}
