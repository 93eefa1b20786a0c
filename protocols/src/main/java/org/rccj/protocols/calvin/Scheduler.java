package org.rccj.protocols.calvin;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.Stage;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * A node's scheduler and lock manager (a service coroutine). It consumes the epochs' batches in the global
 * order (epoch, then sending node, then position in the batch) once every node's batch of the epoch is in,
 * and takes a ticket on each tuple of this node a transaction accesses, in that order: every tuple's lock
 * queue follows the global order, so there are no deadlocks and no aborts. It then polls its waiting
 * transactions; once one holds all its tickets here it reads its tuples, forwards them to the coordinator
 * (FORWARD), and at once passes on the locks of tuples it only reads (a passive participant is done then;
 * an active one keeps its write locks until the coordinator writes back).
 */
final class Scheduler implements Runnable {
    private final CoroutineContext ctx;
    private final CalvinProtocol p;
    private final Store store;
    private final RegisteredMemory mem;
    private final int node, nodes;
    private final boolean forwardOneSided;
    private final Poller poller;
    private long epoch;
    private final boolean[] finished;
    private int finishedCount;
    private TxnState[] waiting = new TxnState[64];
    private int waitingCount;
    private TxnState[] pool = new TxnState[64];
    private int pooled;
    private byte[] payload = new byte[4096];
    // RPC forwarding: one message per destination node per pass
    private final Op[] rpc;
    private final int[] rpcBytes, rpcBlocks;
    long epochs, parts, lockWaits;

    Scheduler(CoroutineContext ctx, CalvinProtocol p) {
        this.ctx = ctx;
        this.p = p;
        this.store = ctx.cluster.store;
        this.mem = ctx.cluster.memory(ctx.node);
        this.node = ctx.node;
        this.nodes = ctx.cluster.nodes();
        this.forwardOneSided = p.hybrid.oneSided(Stage.FORWARD);
        this.poller = new Poller(ctx, p.pollNs);
        this.finished = new boolean[nodes];
        this.rpc = new Op[nodes];
        this.rpcBytes = new int[nodes];
        this.rpcBlocks = new int[nodes];
    }

    @Override
    public void run() {
        while (true) {
            boolean progress = false;
            while (epochComplete()) {
                consumeEpoch();
                progress = true;
            }
            if (waitingCount > 0 && grantPass()) progress = true;
            if (finishedCount == nodes && waitingCount == 0) break;
            if (p.drainOverdue(ctx)) {
                throw new IllegalStateException("CALVIN scheduler of node " + node + " has not drained long after the run ended: epoch "
                        + epoch + ", " + finishedCount + "/" + nodes + " sequencers finished, " + waitingCount + " transactions waiting for locks");
            }
            if (progress) {
                poller.reset();
                ctx.yieldNow();
            } else {
                poller.idle();
            }
        }
        ctx.await();
        ctx.release();
    }

    /** Every sender that is not finished has delivered its batch of the current epoch. */
    private boolean epochComplete() {
        if (finishedCount == nodes) return false;
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
        mem.putLongRelease(region, Dispatch.CONSUMED, epoch);
        epoch++;
        epochs++;
    }

    /** Takes this node's tickets for the request at {@code req[at]}; returns the offset of the next request. */
    private int schedule(int sender, byte[] req, int at, long sealedAt, long loggedAt) {
        int n = (int) Bytes.getLong(req, at + CalvinRequest.COUNT);
        TxnState st = null;
        int item = at + CalvinRequest.ITEMS;
        for (int i = 0; i < n; i++, item += CalvinRequest.ITEM_BYTES) {
            long tf = Bytes.getLong(req, item + CalvinRequest.ITEM_TABLE_FLAGS);
            Table t = store.table((int) (tf & CalvinRequest.TABLE_MASK));
            long key = Bytes.getLong(req, item + CalvinRequest.ITEM_KEY);
            if (t.nodeOf(key, nodes) != node) continue;
            if (st == null) {
                st = take();
                st.init(Bytes.getLong(req, at + CalvinRequest.TXN), sender, (int) Bytes.getLong(req, at + CalvinRequest.COORD_SLOT), sealedAt, loggedAt);
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
            if (waitingCount == waiting.length) waiting = java.util.Arrays.copyOf(waiting, waitingCount * 2);
            waiting[waitingCount++] = st;
            parts++;
        }
        return at + CalvinRequest.bytes(n);
    }

    /** Forwards every waiting transaction that now holds all its locks here, in the global order; true if any. */
    private boolean grantPass() {
        int keep = 0;
        for (int i = 0; i < waitingCount; i++) {
            TxnState s = waiting[i];
            ctx.charge(ctx.cost.localOpNs);
            while (s.next < s.size && (s.offset[s.next] < 0 || CalvinTuple.granted(
                    mem.getLongVolatile(s.table[s.next].region(), s.offset[s.next] + CalvinTuple.SERVING), s.ticket[s.next]))) {
                s.next++;
            }
            if (s.next == s.size) {
                forward(s);
                give(s);
            } else {
                if (!s.waited) {
                    s.waited = true;
                    lockWaits++;
                }
                waiting[keep++] = s;
            }
        }
        boolean forwarded = keep < waitingCount;
        for (int i = keep; i < waitingCount; i++) waiting[i] = null;
        waitingCount = keep;
        for (int d = 0; d < nodes; d++) {
            Op op = rpc[d];
            if (op == null) continue;
            Bytes.putLong(op.data, Forward.RQ_BLOCKS, rpcBlocks[d]);
            op.length = rpcBytes[d];
            ctx.add(op);
            rpc[d] = null;
        }
        ctx.flush();
        ctx.release();
        return forwarded;
    }

    private void forward(TxnState s) {
        Forward f = p.forward;
        int bytes = f.checkFits(Forward.imageBytes(s));
        long slot = f.slot(s.coordSlot, node);
        ctx.charge(ctx.cost.tupleOpNs * s.size);
        if (forwardOneSided) {
            Op data = ctx.op().write(s.coordNode, f.region, slot + Forward.IMAGE, bytes).unsignaled();
            Forward.encode(s, mem, ctx.now(), data.data, 0);
            ctx.add(data);
            ctx.add(ctx.op().writeLong(s.coordNode, f.region, slot + Forward.NOTIFY, s.txn).unsignaled());
        } else {
            int d = s.coordNode;
            Op op = rpc[d];
            if (op == null) {
                op = ctx.op().rpc(d, f.handler, Forward.RQ_FIRST);
                rpc[d] = op;
                rpcBytes[d] = Forward.RQ_FIRST;
                rpcBlocks[d] = 0;
            }
            int at = rpcBytes[d];
            int need = at + Forward.BLOCK_IMAGE + bytes;
            if (op.data.length < need) op.data = java.util.Arrays.copyOf(op.data, Math.max(need, op.data.length * 2));
            Bytes.putLong(op.data, at + Forward.BLOCK_SLOT, s.coordSlot);
            Bytes.putLong(op.data, at + Forward.BLOCK_TXN, s.txn);
            Bytes.putLong(op.data, at + Forward.BLOCK_BYTES, bytes);
            Forward.encode(s, mem, ctx.now(), op.data, at + Forward.BLOCK_IMAGE);
            rpcBytes[d] = need;
            rpcBlocks[d]++;
        }
        // values are captured: tuples this transaction only reads are free for the next in line
        for (int i = 0; i < s.size; i++) {
            if (!s.write[i] && s.offset[i] >= 0) {
                mem.putLongRelease(s.table[i].region(), s.offset[i] + CalvinTuple.SERVING, CalvinTuple.released(s.ticket[i]));
            }
        }
    }

    private TxnState take() {
        return pooled > 0 ? pool[--pooled] : new TxnState();
    }

    private void give(TxnState s) {
        if (pooled == pool.length) pool = java.util.Arrays.copyOf(pool, pooled * 2);
        pool[pooled++] = s;
    }
}
