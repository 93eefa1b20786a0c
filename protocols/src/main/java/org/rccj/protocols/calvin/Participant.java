package org.rccj.protocols.calvin;

import java.util.Arrays;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.Stage;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * The participant side on one worker (a service coroutine on every worker): it takes the transaction parts its
 * node's scheduler ticketed for coordinators of this worker index, and polls their lock words. Once a part holds
 * all its tickets here it reads those tuples, forwards them to the coordinator (FORWARD), and at once passes on
 * the locks of tuples the transaction only reads (a passive participant is done then; an active one keeps its
 * write locks until the coordinator writes back).
 */
final class Participant implements Runnable {
    /** Most transactions forwarded in one pass before the loop yields. */
    static final int FORWARDS_PER_PASS = 8;

    private final CoroutineContext ctx;
    private final CalvinProtocol p;
    private final RegisteredMemory mem;
    private final int node, nodes;
    private final boolean forwardOneSided;
    private final ParticipantQueue queue;
    private final Poller poller;
    private TxnState[] waiting = new TxnState[64];
    private int waitingCount;
    // RPC forwarding: one message per destination node per pass
    private final Op[] rpc;
    private final int[] rpcBytes, rpcBlocks;
    long parts, lockWaits;

    Participant(CoroutineContext ctx, CalvinProtocol p) {
        this.ctx = ctx;
        this.p = p;
        this.mem = ctx.cluster.memory(ctx.node);
        this.node = ctx.node;
        this.nodes = ctx.cluster.nodes();
        this.forwardOneSided = p.hybrid.oneSided(Stage.FORWARD);
        this.queue = p.participantQueues(node)[ctx.worker.index];
        this.poller = new Poller(ctx, p.pollNs);
        this.rpc = new Op[nodes];
        this.rpcBytes = new int[nodes];
        this.rpcBlocks = new int[nodes];
    }

    @Override
    public void run() {
        while (true) {
            boolean closed = queue.closed();
            boolean progress = take();
            if (waitingCount > 0 && grantPass()) progress = true;
            if (closed && waitingCount == 0 && !progress) break;
            if (progress) {
                poller.reset();
                ctx.yieldNow();
            } else {
                if (p.drainOverdue(ctx)) {
                    throw new IllegalStateException("CALVIN participant " + node + "/" + ctx.worker.index
                            + " has not drained long after the run ended: " + waitingCount + " transactions waiting for locks");
                }
                poller.idle();
            }
        }
        ctx.await();
        ctx.release();
    }

    /** Appends the parts the scheduler handed over; true if any. */
    private boolean take() {
        int before = waitingCount;
        while (true) {
            if (waitingCount == waiting.length) waiting = Arrays.copyOf(waiting, waitingCount * 2);
            int n = queue.drain(waiting, waitingCount);
            waitingCount += n;
            if (waitingCount < waiting.length) break;
        }
        parts += waitingCount - before;
        return waitingCount > before;
    }

    /** Forwards waiting parts that now hold all their locks here, in the global order, at most {@link #FORWARDS_PER_PASS}. */
    private boolean grantPass() {
        int keep = 0, forwards = 0;
        for (int i = 0; i < waitingCount; i++) {
            TxnState s = waiting[i];
            if (forwards == FORWARDS_PER_PASS) {
                waiting[keep++] = s;
                continue;
            }
            ctx.charge(ctx.cost.localOpNs);
            while (s.next < s.size && (s.offset[s.next] < 0 || CalvinTuple.granted(
                    mem.getLongVolatile(s.table[s.next].region(), s.offset[s.next] + CalvinTuple.SERVING), s.ticket[s.next]))) {
                s.next++;
            }
            if (s.next == s.size) {
                forward(s);
                queue.recycle(s);
                forwards++;
            } else {
                if (!s.waited) {
                    s.waited = true;
                    lockWaits++;
                }
                waiting[keep++] = s;
            }
        }
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
        return forwards > 0;
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
            if (op.data.length < need) op.data = Arrays.copyOf(op.data, Math.max(need, op.data.length * 2));
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
}
