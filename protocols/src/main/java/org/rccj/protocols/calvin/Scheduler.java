package org.rccj.protocols.calvin;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * A node's scheduler, the lock manager (a service coroutine): it consumes the epochs' batches in the global order
 * (epoch, then sending node, then position in the batch) once every node's batch of the epoch is in, and takes a
 * ticket on each tuple of this node a transaction accesses, in that order. Every tuple's lock queue thus follows
 * the global order: no deadlocks, no aborts. It hands each transaction's part (with the whole input, which an active
 * participant needs to run the logic) to the participant loop of the worker its coordinator runs on
 * ({@link Participant}), which waits for the grants, forwards, and executes.
 */
final class Scheduler implements Runnable {
    private final CoroutineContext ctx;
    private final CalvinProtocol p;
    private final Store store;
    private final RegisteredMemory mem;
    private final int node, nodes, coroutines;
    private final ParticipantQueue[] queues;
    private final Poller poller;
    private final EpochProgress progress;
    private long epoch;
    private final boolean[] finished;
    private int finishedCount;
    private byte[] payload = new byte[4096];
    /** Parts of the epoch being consumed, per worker, in order (offered together at the epoch's end). */
    private final TxnState[][] parts;
    private final int[] partCount;
    long epochs, scheduled;

    Scheduler(CoroutineContext ctx, CalvinProtocol p) {
        this.ctx = ctx;
        this.p = p;
        this.store = ctx.cluster().store;
        this.mem = ctx.cluster().memory(ctx.node);
        this.node = ctx.node;
        this.nodes = ctx.cluster().nodes();
        this.coroutines = ctx.cluster().shape.coroutines();
        this.queues = p.participantQueues(node);
        this.poller = new Poller(ctx, p.pollNs);
        this.progress = p.progress(node);
        this.finished = new boolean[nodes];
        this.parts = new TxnState[queues.length][16];
        this.partCount = new int[queues.length];
    }

    @Override
    public void run() {
        while (finishedCount < nodes) {
            // one epoch per pass: a long run would stamp this worker's posts far ahead of the others' on sim
            if (epochComplete()) {
                consumeEpoch();
                poller.reset();
                ctx.yieldNow();
            } else {
                if (p.drainOverdue(ctx)) {
                    throw new IllegalStateException("CALVIN scheduler of node " + node + " has not drained long after the run ended: epoch "
                            + epoch + ", " + finishedCount + "/" + nodes + " sequencers finished");
                }
                poller.idle();
            }
        }
        for (ParticipantQueue q : queues) q.close();
    }

    /** Every sender that is not finished has delivered its batch of the current epoch. */
    private boolean epochComplete() {
        int region = p.dispatch.region;
        for (int s = 0; s < nodes; s++) {
            if (finished[s]) continue;
            long slot = p.dispatch.slot(s, epoch);
            if (mem.getLongVolatile(region, slot + Dispatch.SLOT_STATUS) == Dispatch.FREE) return false;
            if (mem.getLong(region, slot + Dispatch.SLOT_IMAGE + Batch.EPOCH) != epoch) return false;
        }
        return true;
    }

    private void consumeEpoch() {
        int region = p.dispatch.region;
        for (int s = 0; s < nodes; s++) {
            if (finished[s]) continue;
            long slot = p.dispatch.slot(s, epoch);
            long status = mem.getLongVolatile(region, slot + Dispatch.SLOT_STATUS);
            long img = slot + Dispatch.SLOT_IMAGE;
            int count = (int) mem.getLong(region, img + Batch.COUNT);
            int bytes = (int) mem.getLong(region, img + Batch.BYTES);
            long sealedAt = mem.getLong(region, img + Batch.SEALED_AT);
            long syncFrom = mem.getLong(region, img + Batch.SYNC_FROM), syncTo = mem.getLong(region, img + Batch.SYNC_TO);
            if (payload.length < bytes) payload = new byte[Math.max(bytes, payload.length * 2)];
            mem.read(region, img + Batch.PAYLOAD, payload, 0, bytes);
            ctx.charge(Batch.copyNs(ctx.cost.localOpNs, bytes));
            int at = 0;
            for (int i = 0; i < count; i++) at = schedule(s, payload, at, sealedAt, syncFrom, syncTo);
            mem.putLongRelease(region, slot + Dispatch.SLOT_STATUS, Dispatch.FREE);
            if (status == Dispatch.FINAL) {
                finished[s] = true;
                finishedCount++;
            }
        }
        for (int w = 0; w < queues.length; w++) {
            if (partCount[w] == 0) continue;
            queues[w].offer(parts[w], partCount[w]);
            java.util.Arrays.fill(parts[w], 0, partCount[w], null);
            partCount[w] = 0;
        }
        progress.consumed(epoch, scheduled);
        epoch++;
        epochs++;
    }

    /** Takes this node's tickets for the request at {@code req[at]}; returns the offset of the next request. */
    private int schedule(int sender, byte[] req, int at, long sealedAt, long syncFrom, long syncTo) {
        int n = (int) Bytes.getLong(req, at + CalvinRequest.COUNT);
        int pickBytes = (int) Bytes.getLong(req, at + CalvinRequest.PICK_BYTES);
        int next = at + CalvinRequest.bytes(n, pickBytes);
        boolean here = false;
        for (int i = 0, item = at + CalvinRequest.ITEMS; i < n && !here; i++, item += CalvinRequest.ITEM_BYTES) {
            Table t = store.table((int) (Bytes.getLong(req, item + CalvinRequest.ITEM_TABLE_FLAGS) & CalvinRequest.TABLE_MASK));
            here = t.nodeOf(Bytes.getLong(req, item + CalvinRequest.ITEM_KEY), nodes) == node;
        }
        if (!here) return next;
        int coordSlot = (int) Bytes.getLong(req, at + CalvinRequest.COORD_SLOT);
        int worker = coordSlot / coroutines;
        TxnState st = queues[worker].obtain();
        st.init(Bytes.getLong(req, at + CalvinRequest.TXN), sender, coordSlot, (int) Bytes.getLong(req, at + CalvinRequest.TYPE),
                sealedAt, syncFrom, syncTo, nodes);
        int item = at + CalvinRequest.ITEMS;
        for (int i = 0; i < n; i++, item += CalvinRequest.ITEM_BYTES) {
            long tf = Bytes.getLong(req, item + CalvinRequest.ITEM_TABLE_FLAGS);
            Table t = store.table((int) (tf & CalvinRequest.TABLE_MASK));
            long key = Bytes.getLong(req, item + CalvinRequest.ITEM_KEY);
            int owner = t.nodeOf(key, nodes);
            st.add(t, key, owner, (tf & CalvinRequest.FLAG_WRITE) != 0, (tf & CalvinRequest.FLAG_EXPECT) != 0,
                    Bytes.getLong(req, item + CalvinRequest.ITEM_EXPECT));
            if (owner != node) continue;
            ctx.charge(ctx.cost.tupleOpNs);
            long off = t.index.lookupLocal(mem, t.indexRegion(), t.id, key);
            long ticket = -1;
            if (off >= 0) {
                ticket = mem.getLong(t.region(), off + CalvinTuple.TICKET);
                mem.putLong(t.region(), off + CalvinTuple.TICKET, ticket + 1);
            }
            st.addLocal(i, off, ticket);
        }
        st.pick(req, item, pickBytes);
        st.roles(node);
        if (partCount[worker] == parts[worker].length) parts[worker] = java.util.Arrays.copyOf(parts[worker], partCount[worker] * 2);
        parts[worker][partCount[worker]++] = st;
        scheduled++;
        return next;
    }
}
