package org.rccj.framework.runtime;

import java.util.ArrayDeque;
import java.util.List;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.coro.Coroutine;
import org.rccj.framework.store.LocationCache;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.WorkerHost;
import org.rccj.primitives.SmartNic;

/**
 * A worker's event loop as the fabric drives it: completions wake their coroutines, arrived RPCs run
 * their handlers on this worker (this is where two-sided primitives cost the remote CPU), and ready
 * coroutines run in FIFO order.
 */
public final class CoroutineWorker extends RpcWorker implements WorkerHost {
    public final Cluster cluster;
    public final Endpoint ep;
    final LocationCache cache;
    /** Location-cache hits and misses of this worker's lookups. */
    long cacheHits, cacheMisses;
    final ArrayDeque<WorkerCoroutine> ready = new ArrayDeque<>();
    final WorkerCoroutine[] coroutines;
    final WorkerStats stats;
    private int done;
    List<String> typeNames;
    /**
     * Unsignaled one-sided WRs posted in a row on this worker's queue pair to each node: an RC send queue
     * frees its entries only when a signaled WR after them completes, so the artifact signals one WR once
     * {@code POLL_THRSHOLD} (64) have gone unsignaled ({@code rc_need_poll} in rdma_sched.h:52-63).
     */
    private final int[] unsignaledRun;
    /** The fabric's simulated NIC hardware, or null: its NIC-generated ops are not on the send queue. */
    private final SmartNic nic;
    public static final int SIGNAL_EVERY = 64;

    CoroutineWorker(Cluster cluster, int node, int index, int coroutines, WorkerStats stats) {
        super(node, index, cluster.memory(node));
        this.cluster = cluster;
        this.ep = cluster.fabric.endpoint(node, index);
        this.coroutines = new WorkerCoroutine[coroutines];
        this.cache = cluster.locationCache(node);
        this.stats = stats;
        this.unsignaledRun = new int[cluster.nodes()];
        this.nic = cluster.capability(SmartNic.class).orElse(null);
        this.passSlots = (coroutines + 1) + (long) coroutines * cluster.nodes();
    }

    /** Slots the artifact's pass scans: the timeout scan's coroutines + 1 and the 2PC area's coroutines x nodes. */
    private final long passSlots;

    /** Send-queue flow control of a one-sided doorbell batch about to be posted (see {@link #unsignaledRun}). */
    void flowControl(Op[] batch, int n) { flowControl(nic, unsignaledRun, batch, n); }

    /**
     * Signals the op that would be the {@link #SIGNAL_EVERY}th unsignaled WR in a row to its node; a signaled op
     * starts the count again. {@code unsignaledRun[node]}: the count so far, updated. An op the requester NIC generates
     * ({@code nic}, null when the fabric has no {@link SmartNic}) is not on the core's send queue.
     */
    static void flowControl(SmartNic nic, int[] unsignaledRun, Op[] batch, int n) {
        for (int k = 0; k < n; k++) {
            Op op = batch[k];
            if (nic != null && nic.byNicOf(op)) continue;
            int dst = op.node;
            if (op.signaled) {
                unsignaledRun[dst] = 0;
            } else if (++unsignaledRun[dst] == SIGNAL_EVERY) {
                op.signaled = true;
                unsignaledRun[dst] = 0;
            }
        }
    }

    void start(WorkerCoroutine c, Runnable body) {
        c.coroutine = new Coroutine(body);
        ready.add(c);
    }

    /** Starts a coroutine whose body runs in steps (transactions), see {@link Coroutine#ofSteps}. */
    void start(WorkerCoroutine c, Coroutine.Step body) {
        c.coroutine = Coroutine.ofSteps(body);
        ready.add(c);
    }

    String typeName(int type) { return typeNames.get(type); }

    public WorkerStats stats() { return stats; }

    /** Sends a reply: a UD send like a request's in the artifact (rrpc.h:172-174), so it counts toward the send-CQ poll. */
    @Override
    public void reply(Op call) {
        if (call.signaled) udSent();
        ep.reply(call);
    }

    /**
     * One two-sided message this worker sent (a coroutine's request or a handler's reply): the artifact's UD QP polls
     * its send CQ synchronously once every {@link CostProfile#UD_SENDS_PER_POLL} sends (ud_msg.cc:186-187, 269-270).
     */
    void udSent() {
        long ns = ep.profile().fwUdSendPollNs;
        if (++udSends % CostProfile.UD_SENDS_PER_POLL == 0 && ns > 0) ep.charge(ns);
    }
    @Override public void charge(long ns) { ep.charge(ns); }
    @Override public long now() { return ep.now(); }
    @Override public CostProfile profile() { return ep.profile(); }

    @Override
    public void onComplete(Op op) {
        ((WorkerCoroutine) op.owner).onComplete(op);
    }

    @Override
    public void onRpc(Op call) {
        cluster.handler(call.handler).handle(this, call);
    }

    @Override
    public boolean runOne() {
        WorkerCoroutine c = ready.poll();
        if (c == null) return false;
        mark();
        c.coroutine.resume();
        if (c.coroutine.isDone()) done++;
        return true;
    }

    /**
     * When {@link #mark} next looks at the bounds of the measured interval: the next bound, or sooner. It looks at
     * least every {@value #MARK_PERIOD_NS} ns of the worker's clock, so that its branch is taken during the warm-up as
     * well and the JIT does not compile it as a trap that fires at the warm-up's end (see WorkerStats' sinks).
     */
    private long markAt = Long.MIN_VALUE;
    static final long MARK_PERIOD_NS = 100_000;

    /** Takes the counter snapshots that bound the measured interval, at the first pass at or after each bound. */
    private void mark() {
        long now = ep.now();
        if (now >= markAt) markBounds(now);
    }

    private void markBounds(long now) {
        WorkerStats s = stats;
        if (s.warmEnd == WindowGate.CLOSED && cluster.windowGate != null && !s.endMarked) {   // warmup_ms: auto, undecided when last seen
            long start = cluster.windowGate.start();
            if (start == WindowGate.CLOSED) {
                markAt = now + MARK_PERIOD_NS;
                return;
            }
            s.warmEnd = start;
            s.end = start + cluster.windowGate.durationNs();
        }
        if (!s.warmMarked && now >= s.warmEnd) {
            s.warmMarked = true;
            s.warmCounters.add(ep.counters());
            s.warmBusy = ep.busyNanos();
        }
        if (!s.endMarked && now >= s.end) {
            s.endMarked = true;
            s.endCounters.add(ep.counters());
            s.endBusy = ep.busyNanos();
        }
        markAt = s.endMarked ? Long.MAX_VALUE : Math.min(now + MARK_PERIOD_NS, s.warmMarked ? s.end : s.warmEnd);
    }

    /**
     * The artifact's event-loop pass (core/rworker.h:124-172): one poll of the UD receive CQ, one RDMA CQ poll per
     * entry of the pending-QP list (rdma_sched.cc:34-85: one per signaled one-sided post still outstanding), the
     * timeout scan over coroutines + 1 and the 2PC-area scan over coroutines x nodes. Profile {@code framework.*}.
     */
    @Override
    public long passNs() {
        CostProfile c = ep.profile();
        long ns = c.fwCqPollNs * (1 + Math.max(0, pendingQps)) + c.fwScanSlotNs * passSlots;
        if (lockWaiters != null) ns += c.fwLockCheckNs + c.fwLockWaiterNs * lockWaiters.applyAsInt(node, index);
        return ns;
    }

    /**
     * The artifact's global lock manager checked in every pass (core/rworker.h:133-139) where its build of the run's
     * protocol and code has one ({@link org.rccj.framework.spi.Protocol#lockManagerWaiters}): waiters per (node, worker).
     * Null: no check.
     */
    java.util.function.IntBinaryOperator lockWaiters;

    /**
     * The artifact's receive-buffer re-posting (ud_msg.cc:368-372): messages consumed since the last re-post add up,
     * and once more than one is waiting ({@code max_idle_recv_num_} is 1) one {@code ibv_post_recv} re-posts them all.
     */
    @Override
    public long polledNs(int udMessages) {
        idleRecvs += udMessages;
        if (idleRecvs <= 1) return 0;
        CostProfile c = ep.profile();
        long ns = c.fwRecvPostNs + c.fwRecvWrNs * idleRecvs;
        idleRecvs = 0;
        return ns;
    }

    /** Receive buffers consumed since the last re-post. */
    private int idleRecvs;

    /** Signaled one-sided ops of this worker's coroutines still outstanding (the artifact's pending-QP entries). */
    int pendingQps;
    /** UD (two-sided) messages this worker's coroutines have sent (every 64th polls the send CQ). */
    long udSends;

    @Override public int handlers() { return cluster.handlerCount(); }
    @Override public boolean hasReady() { return !ready.isEmpty(); }
    @Override public int readyCount() { return ready.size(); }
    @Override public boolean finished() { return done == coroutines.length; }
}
