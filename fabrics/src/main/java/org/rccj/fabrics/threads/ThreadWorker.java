package org.rccj.fabrics.threads;

import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Counters;
import org.rccj.primitives.Endpoint;
import org.rccj.fabrics.MemoryOps;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;
import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker of a fabric that gives every worker a real thread ({@code local}, {@code tcp}): what their event loops
 * share. Timers, the wall-clock endpoint basics, and the end of a loop pass: a pass that did work counts as busy
 * time; an idle worker spins for {@code spinNs}, then parks until woken ({@link #wake}), its next timer or
 * {@code parkNs}.
 */
public abstract class ThreadWorker implements Endpoint {
    protected final int node, worker;
    protected final Counters counters = new Counters();
    private final CostProfile cost;
    private final long spinNs, parkNs;
    /** A timer op and when it is due (on the wall clock: a few per transaction at most, an object each is fine). */
    private record Timer(long time, Op op) {}
    private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> Long.compare(a.time, b.time));
    /** The worker's thread, set before it starts. */
    public volatile Thread thread;
    /** The worker's host, set before its thread starts (volatile: a network thread may read it). */
    public volatile WorkerHost host;
    private volatile boolean parked;
    /**
     * {@code local_access: network} (set before the run): an RPC to the own node is a message this worker serves
     * at its next poll ({@link #arriveHere}), and an own-node one-sided op counts as a network op with its doorbell,
     * though done here on the memory as the target's NIC would (these fabrics have no loopback hop to model).
     */
    public boolean viaNic;
    private boolean reportedFinished;
    private long busyNs, idleSince = -1;

    protected ThreadWorker(int node, int worker, CostProfile cost, long spinNs, long parkNs) {
        this.node = node;
        this.worker = worker;
        this.cost = cost;
        this.spinNs = spinNs;
        this.parkNs = parkNs;
    }

    @Override public int node() { return node; }
    @Override public int worker() { return worker; }
    @Override public Counters counters() { return counters; }
    @Override public long busyNanos() { return busyNs; }
    @Override public CostProfile profile() { return cost; }
    @Override public void charge(long ns) {}

    @Override
    public void compute(long ns) {
        long end = System.nanoTime() + ns;
        while (System.nanoTime() < end) Thread.onSpinWait();
    }

    @Override
    public void timer(Op op, long time) {
        op.postedAsTimer(node, worker);
        timers.add(new Timer(time, op));
    }

    /** Completes the timers due at {@code now} (this endpoint's clock); true if any. */
    protected final boolean fireTimers(long now) {
        boolean any = false;
        while (!timers.isEmpty() && timers.peek().time <= now) {
            Op t = timers.poll().op();
            t.inFlight = false;
            host.onComplete(t);
            any = true;
        }
        return any;
    }

    /** True once: the first time the host reports all its coroutines finished. */
    protected final boolean justFinished() {
        if (reportedFinished || !host.finished()) return false;
        reportedFinished = true;
        return true;
    }

    /** Wakes the worker if it parked (call after queueing something for it). */
    protected final void wake() {
        if (parked) unpark();
    }

    /** Wakes this worker from {@link #park}; a fabric whose park sleeps elsewhere (an event fd) wakes it there. */
    protected void unpark() { LockSupport.unpark(thread); }

    /** Sleeps up to {@code ns} (fewer when woken): an idle worker's park, after nothing was found queued. */
    protected void park(long ns) { LockSupport.parkNanos(ns); }

    /** Queues an RPC this worker sent to its own node ({@link #viaNic}) for its next poll, as if it had arrived. */
    protected void arriveHere(Op call) {
        throw new UnsupportedOperationException("a fabric that sets viaNic serves its own-node RPCs at its poll");
    }

    /** Nothing queued for this worker (checked after it announced it parks, so a wake cannot be missed). */
    protected abstract boolean nothingQueued();

    /**
     * Ends a loop pass that started at {@code t0} (System.nanoTime) with {@code now} on this endpoint's clock:
     * busy time if it {@code worked}, else a spin step or, after {@code spinNs} idle, a park.
     */
    protected final void endPass(long t0, long now, boolean worked) {
        if (worked) {
            busyNs += System.nanoTime() - t0;
            idleSince = -1;
        } else if (idleSince < 0) {
            idleSince = t0;
        } else if (t0 - idleSince > spinNs) {
            parked = true;
            if (nothingQueued()) {
                long wait = parkNs;
                if (!timers.isEmpty()) wait = Math.min(wait, Math.max(1000, timers.peek().time - now));
                park(wait);
            }
            parked = false;
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * The local shortcut of a doorbell batch to this worker's own node: each op done at once on {@code m} (plain
     * memory operations; an RPC in it goes through {@link #post(Op)}), signaled ones completed before this returns.
     */
    protected final void executeLocally(RegisteredMemory m, Op[] ops, int n) {
        if (viaNic) counters.doorbells++;
        for (int i = 0; i < n; i++) {
            Op op = ops[i];
            if (op.verb == Verb.RPC) { post(op); continue; }
            op.srcNode = node;
            op.srcWorker = worker;
            if (viaNic) counters.count(op); else counters.local++;
            MemoryOps.executeOnCpu(m, op);     // its CAS/FAA through the fabric's route when it has one (ucx loopback)
            op.inFlight = false;
            if (op.signaled) host.onComplete(op);
        }
    }

    private final Op[] one = new Op[1];

    /** Posts one one-sided op as a doorbell batch of its own, through a reused one-op array (no allocation per op). */
    protected final void postAlone(Op op) {
        one[0] = op;
        post(one, 1);
        one[0] = null;
    }

    /**
     * Posts an RPC: marks it posted by this worker; one to this worker's own node is served here (the local
     * shortcut: the handler runs on this thread at once; with {@link #viaNic}: a message to this worker, served at
     * its next poll) and false is returned; otherwise it is counted and true says the caller must send it.
     */
    protected final boolean rpcLeaves(Op op) {
        op.posted(node, worker);
        if (op.node == node) {
            if (viaNic) {
                counters.count(op);
                arriveHere(op);
            } else {
                counters.local++;
                host.onRpc(op);
            }
            return false;
        }
        counters.count(op);
        return true;
    }

    /**
     * Binds each worker to its host and a daemon thread named {@code prefix-NODE-WORKER}, runs {@code beforeStart}
     * (every host is bound then), starts them all and waits for them; an interrupt runs {@code interrupted} (which
     * may throw) and the wait goes on for the rest.
     */
    public static void runAll(ThreadWorker[] workers, WorkerHost[] hosts, String prefix, Runnable beforeStart, Runnable interrupted) {
        Thread[] ts = new Thread[workers.length];
        for (int i = 0; i < workers.length; i++) {
            ThreadWorker w = workers[i];
            w.host = hosts[i];
            ts[i] = new Thread(w::loop, prefix + "-" + w.node + "-" + w.worker);
            ts[i].setDaemon(true);
            w.thread = ts[i];
        }
        beforeStart.run();
        for (Thread th : ts) th.start();
        for (Thread th : ts) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                interrupted.run();
            }
        }
    }

    /** The worker's event loop, run on its thread until the fabric's run ends. */
    protected abstract void loop();
}
