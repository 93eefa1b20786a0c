package org.rccj.protocols.calvin;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.store.Table;
import org.rccj.primitives.RegisteredMemory;

/**
 * The participant side on one worker (a service coroutine on every worker): it takes the transaction parts its
 * node's scheduler ticketed for coordinators of this worker index and polls their lock words. Once a part holds all
 * its tickets here it reads those tuples and passes on the locks of tuples it only reads; then
 * <ul>
 *   <li>a passive participant (no write-set record here) forwards its values to every active participant (to the
 *       coordinator if the transaction is read-only) and is done;</li>
 *   <li>an active participant forwards its values to the other active participants, waits for every other
 *       participant's values, runs the logic ({@link Replay}), installs its own writes, passes its write locks on,
 *       and, if it is the reporter, forwards every value with the outcome to the coordinator.</li>
 * </ul>
 */
final class Participant implements Runnable {
    /** Most parts finished in one pass before the loop yields. */
    static final int FINISHED_PER_PASS = 8;

    private final CoroutineContext ctx;
    private final CalvinProtocol p;
    private final RegisteredMemory mem;
    private final int node, nodes;
    private final ParticipantQueue queue;
    private final Poller poller;
    private final Forward.Sender sender;
    private final Replay replay;
    private final EpochProgress progress;
    private byte[] install = new byte[64];
    private TxnState[] waiting = new TxnState[64];
    private int waitingCount;
    long parts, lockWaits, executed;

    Participant(CoroutineContext ctx, CalvinProtocol p) {
        this.ctx = ctx;
        this.p = p;
        this.mem = ctx.cluster().memory(ctx.node);
        this.node = ctx.node;
        this.nodes = ctx.cluster().nodes();
        this.queue = p.participantQueues(node)[ctx.worker().index];
        this.poller = new Poller(ctx, p.pollNs);
        this.sender = p.forward.new Sender(ctx, p.hybrid.oneSided(Stage.FORWARD));
        this.replay = new Replay(ctx);
        this.progress = p.progress(node);
    }

    @Override
    public void run() {
        while (true) {
            boolean closed = queue.closed();
            boolean progressed = take();
            if (waitingCount > 0 && pass()) progressed = true;
            if (closed && waitingCount == 0 && !progressed) break;
            if (progressed) {
                poller.reset();
                ctx.yieldNow();
            } else {
                if (p.drainOverdue(ctx)) {
                    throw new IllegalStateException("CALVIN participant " + node + "/" + ctx.worker().index
                            + " has not drained long after the run ended: " + waitingCount + " transactions waiting for locks or values");
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
            if (waitingCount == waiting.length) waiting = java.util.Arrays.copyOf(waiting, waitingCount * 2);
            int n = queue.drain(waiting, waitingCount);
            waitingCount += n;
            if (waitingCount < waiting.length) break;
        }
        parts += waitingCount - before;
        return waitingCount > before;
    }

    /** Advances the waiting parts in the global order; true if any made progress. At most {@link #FINISHED_PER_PASS} finish. */
    private boolean pass() {
        int keep = 0, finished = 0;
        boolean progressed = false;
        for (int i = 0; i < waitingCount; i++) {
            TxnState s = waiting[i];
            if (finished == FINISHED_PER_PASS) {
                waiting[keep++] = s;
                continue;
            }
            boolean done = false;
            if (s.state == TxnState.LOCKS && granted(s)) {
                progressed = true;
                done = forwardOwn(s);
            }
            if (s.state == TxnState.VALUES && collect(s)) {
                progressed = true;
                execute(s);
                done = true;
            }
            if (done) {
                queue.recycle(s);
                progress.partDone();
                finished++;
            } else {
                waiting[keep++] = s;
            }
        }
        for (int i = keep; i < waitingCount; i++) waiting[i] = null;
        waitingCount = keep;
        sender.flush();
        return progressed;
    }

    /** True once every lock of {@code s} on this node is held. */
    private boolean granted(TxnState s) {
        ctx.charge(ctx.cost.localOpNs);
        while (s.next < s.localCount && (s.offset[s.next] < 0 || CalvinTuple.granted(
                mem.getLongVolatile(s.table[s.local[s.next]].region(), s.offset[s.next] + CalvinTuple.SERVING), s.ticket[s.next]))) {
            s.next++;
        }
        if (s.next < s.localCount) {
            if (!s.waited) {
                s.waited = true;
                lockWaits++;
            }
            return false;
        }
        return true;
    }

    /**
     * Reads this node's tuples (their locks are held, so these are the values at the transaction's place in the
     * global order), forwards them, and passes on the locks of tuples it only reads. True if this part is done
     * (passive); an active part goes on to wait for the other participants' values.
     */
    private boolean forwardOwn(TxnState s) {
        s.grantedAt = ctx.now();
        for (int k = 0; k < s.localCount; k++) {
            int i = s.local[k];
            long off = s.offset[k];
            Table t = s.table[i];
            if (off < 0) {
                s.version[i] = TxnState.ABSENT;
            } else {
                s.version[i] = mem.getLongVolatile(t.region(), off + CalvinTuple.VERSION);
                mem.read(t.region(), off + t.recordOffset, s.record[i], 0, t.recordBytes);
            }
            s.have[i] = true;
        }
        ctx.charge(ctx.cost.tupleOpNs * s.localCount);
        boolean active = s.active[node];
        if (s.reporter < 0) {
            sender.send(s, s.coordNode, false, Forward.VALUES);        // read-only: the coordinator runs the logic
        } else {
            for (int n = 0; n < nodes; n++) if (s.active[n] && n != node) sender.send(s, n, false, Forward.VALUES);
        }
        for (int k = 0; k < s.localCount; k++) {
            int i = s.local[k];
            if (!s.write[i] && s.offset[k] >= 0) release(s, k);
        }
        if (!active) return true;
        s.state = TxnState.VALUES;
        return false;
    }

    /** Takes the values that arrived for an active part; true once it has every participant's. */
    private boolean collect(TxnState s) {
        int region = p.forward.region;
        for (int n = 0; n < nodes && s.missingCount > 0; n++) {
            if (!s.missing[n]) continue;
            long slot = p.forward.slot(s.coordNode, s.coordSlot, s.rank[n]);
            if (mem.getLongVolatile(region, slot + Forward.NOTIFY) != s.txn) continue;
            int bytes = Forward.take(s, mem, region, slot + Forward.IMAGE);
            ctx.charge(Batch.copyNs(ctx.cost.localOpNs, bytes));
            s.missing[n] = false;
            s.missingCount--;
        }
        return s.missingCount == 0;
    }

    /** Runs the logic, installs this node's writes if it commits, passes the write locks on, and reports if the reporter. */
    private void execute(TxnState s) {
        boolean commit = replay.run(s);
        executed++;
        for (int k = 0; k < s.localCount; k++) {
            int i = s.local[k];
            long off = s.offset[k];
            if (!s.write[i] || off < 0) continue;
            if (commit) {
                Table t = s.table[i];
                byte[] update = replay.update(i);
                int bytes = CalvinTuple.installBytes(t.recordBytes);
                if (install.length < bytes) install = new byte[bytes];
                CalvinTuple.installImage(s.txn, update, t.recordBytes, install, 0);
                mem.write(t.region(), off + CalvinTuple.INSTALL_SPAN, install, 0, bytes);
                ctx.charge(ctx.cost.tupleOpNs);
            }
            release(s, k);
        }
        if (s.reporter == node) sender.send(s, s.coordNode, true, commit ? Forward.INSTALLED : Forward.NOT_INSTALLED);
    }

    /** Passes the lock of {@code s}'s local access {@code k} on (the install, if any, is already in place). */
    private void release(TxnState s, int k) {
        Table t = s.table[s.local[k]];
        mem.putLongRelease(t.region(), s.offset[k] + CalvinTuple.SERVING, CalvinTuple.released(s.ticket[k]));
    }
}
