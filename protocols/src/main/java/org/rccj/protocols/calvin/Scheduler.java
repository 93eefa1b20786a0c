package org.rccj.protocols.calvin;

import java.util.Arrays;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * A node's scheduler, the lock manager (a service coroutine): it consumes the epochs' batches in the global order
 * (epoch, then sending node, then position in the batch) once every node's batch of the epoch is in, and takes a
 * ticket on each tuple of this node a transaction accesses, in that order. Every tuple's lock queue thus follows
 * the global order: no deadlocks, no aborts. It hands each transaction's part to the participant loop of the
 * worker its coordinator runs on ({@link Participant}), which waits for the grants and forwards.
 */
final class Scheduler implements Runnable {
    private final CoroutineContext ctx;
    private final CalvinProtocol p;
    private final Store store;
    private final RegisteredMemory mem;
    private final int node, nodes, coroutines;
    private final ParticipantQueue[] queues;
    private final Poller poller;
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
        this.store = ctx.cluster.store;
        this.mem = ctx.cluster.memory(ctx.node);
        this.node = ctx.node;
        this.nodes = ctx.cluster.nodes();
        this.coroutines = ctx.cluster.shape.coroutines();
        this.queues = p.participantQueues(node);
        this.poller = new Poller(ctx, p.pollNs);
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
            long sealedAt = mem.getLong(region, img + Batch.SEALED_AT), loggedAt = mem.getLong(region, img + Batch.LOGGED_AT);
            if (payload.length < bytes) payload = new byte[Math.max(bytes, payload.length * 2)];
            mem.read(region, img + Batch.PAYLOAD, payload, 0, bytes);
            ctx.charge(Batch.copyNs(ctx.cost.localOpNs, bytes));
            int at = 0;
            for (int i = 0; i < count; i++) at = schedule(s, payload, at, sealedAt, loggedAt);
            mem.putLongRelease(region, slot + Dispatch.SLOT_STATUS, Dispatch.FREE);
            if (status == Dispatch.FINAL) {
                finished[s] = true;
                finishedCount++;
            }
        }
        for (int w = 0; w < queues.length; w++) {
            if (partCount[w] == 0) continue;
            queues[w].offer(parts[w], partCount[w]);
            Arrays.fill(parts[w], 0, partCount[w], null);
            partCount[w] = 0;
        }
        mem.putLongRelease(region, Dispatch.CONSUMED, epoch);
        epoch++;
        epochs++;
    }

    /** Takes this node's tickets for the request at {@code req[at]}; returns the offset of the next request. */
    private int schedule(int sender, byte[] req, int at, long sealedAt, long loggedAt) {
        int n = (int) Bytes.getLong(req, at + CalvinRequest.COUNT);
        int coordSlot = (int) Bytes.getLong(req, at + CalvinRequest.COORD_SLOT);
        int worker = coordSlot / coroutines;
        TxnState st = null;
        int item = at + CalvinRequest.ITEMS;
        for (int i = 0; i < n; i++, item += CalvinRequest.ITEM_BYTES) {
            long tf = Bytes.getLong(req, item + CalvinRequest.ITEM_TABLE_FLAGS);
            Table t = store.table((int) (tf & CalvinRequest.TABLE_MASK));
            long key = Bytes.getLong(req, item + CalvinRequest.ITEM_KEY);
            if (t.nodeOf(key, nodes) != node) continue;
            if (st == null) {
                st = queues[worker].obtain();
                st.init(Bytes.getLong(req, at + CalvinRequest.TXN), sender, coordSlot, sealedAt, loggedAt);
            }
            ctx.charge(ctx.cost.tupleOpNs);
            long off = t.index.lookupLocal(mem, t.indexRegion(), t.id, key);
            long ticket = -1;
            if (off >= 0) {
                ticket = mem.getLong(t.region(), off + CalvinTuple.TICKET);
                mem.putLong(t.region(), off + CalvinTuple.TICKET, ticket + 1);
            }
            st.add(i, t, off, ticket, (tf & CalvinRequest.FLAG_WRITE) != 0);
        }
        if (st != null) {
            if (partCount[worker] == parts[worker].length) parts[worker] = Arrays.copyOf(parts[worker], partCount[worker] * 2);
            parts[worker][partCount[worker]++] = st;
            scheduled++;
        }
        return at + CalvinRequest.bytes(n);
    }
}
