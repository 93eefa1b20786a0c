package org.rccj.fabrics.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.rccj.fabrics.sim.FaultSettings;
import org.rccj.fabrics.sim.SimFabric;
import org.rccj.framework.coro.Coroutine;
import org.rccj.framework.stats.Histogram;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.Op;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;

/**
 * Primitive micro-benchmarks on any fabric (calibration.md): peak verb rates per machine, round trips, READ
 * against RPC, the effect of coroutines, doorbell batching and passive ACK. They only exercise the verbs layer,
 * never a protocol: on {@code sim} with a cost profile ({@link #run(CostProfile, Scenario)}, what a profile is
 * checked against, next to the figures measured on the hardware), on a real fabric in this process
 * ({@link #run(Fabric, Scenario, long, long)}), or on one process per node ({@link #run(List, Scenario, long, long)}).
 */
public final class PrimitiveBench {
    /** Who talks to whom: every node to random other nodes, or every other node to node 0 (a server's peak). */
    public enum Pattern { ALL_TO_ALL, TO_NODE0,
        /** Every worker on its own node's memory: CAS/FAA through the local NIC when the profile says so. */
        LOOPBACK,
        /**
         * Every worker to its own node as {@code local_access: network} sends it (Fabric.localThroughNic): on sim
         * through the local NIC, one {@code nic.loopback_ns}/2 leg each way; on local, tcp and ucx an RPC to the
         * worker's own queue served at its next poll and a one-sided op done by the worker.
         */
        OWN_NODE }

    /**
     * What an op's latency is. {@link #POST_TO_COMPLETION}: from just before the post to the coroutine's wake-up
     * (two clock readings; the simulator's and calibration's definition). {@link #PER_ITERATION}: ucx_perftest's
     * (src/tools/perf/lib/libperf_int.h, {@code ucx_perf_update}): the time between a coroutine's consecutive
     * iteration ends, one clock reading per iteration, so the loop's own work and the clock reading are in it; the
     * mean of these is the elapsed time over the iterations, perftest's "average". With one coroutine, a round trip
     * measured the way ucx_perftest measures its own.
     */
    public enum Timing { POST_TO_COMPLETION, PER_ITERATION }

    /**
     * @param batch ops per doorbell batch to one destination
     * @param separateDoorbells post a batch's ops with one doorbell each (to measure what batching saves)
     * @param passiveAck only the last op of a batch is signaled (RPC: the others are passive, no reply)
     */
    public record Scenario(String name, Verb verb, int payload, int nodes, int threads, int coroutines, int batch,
                           boolean separateDoorbells, boolean passiveAck, Pattern pattern) {}

    /**
     * @param mopsPerMachine million ops per second per machine (per server machine for TO_NODE0)
     * @param clientBusyNsPerOp busy time of the issuing workers per op in the measured window (all workers for
     *        ALL_TO_ALL), ns; {@code serverBusyNsPerOp} that of node 0's workers for TO_NODE0 (their handlers), else 0
     * @param p99Us 99th percentile of the round trips, us
     */
    public record Result(Scenario scenario, double mopsPerMachine, double p50Us, double meanUs, double clientBusyNsPerOp,
                         double serverBusyNsPerOp, double p99Us) {}

    private static final long WARMUP_NS = 20_000, MEASURE_NS = 200_000;
    private static final int REGION_BYTES = 1 << 20;

    private PrimitiveBench() {}

    public static Result run(CostProfile profile, Scenario s) { return run(profile, s, WARMUP_NS, MEASURE_NS); }

    /** As {@link #run(CostProfile, Scenario)} with other windows (virtual ns): slow profiles need longer ones. */
    public static Result run(CostProfile profile, Scenario s, long warmupNs, long measureNs) {
        SimFabric fabric = new SimFabric(s.nodes, s.threads, profile, FaultSettings.NONE);
        for (int n = 0; n < s.nodes; n++) fabric.memory(n).register("bench", REGION_BYTES);
        fabric.oneSidedAtomics(s.pattern == Pattern.LOOPBACK);
        fabric.localThroughNic(s.pattern == Pattern.OWN_NODE);
        BenchWorker[][] hosts = new BenchWorker[s.nodes][s.threads];
        for (int n = 0; n < s.nodes; n++) {
            for (int t = 0; t < s.threads; t++) hosts[n][t] = new BenchWorker(fabric.endpoint(n, t), s, n == 0 && s.pattern == Pattern.TO_NODE0, warmupNs, measureNs,
                    Timing.POST_TO_COMPLETION);
        }
        for (BenchWorker[] ws : hosts) for (BenchWorker w : ws) w.base = 0;    // virtual time starts at 0
        fabric.run(hosts);
        return result(s, hosts, measureNs);
    }

    /**
     * The scenario on a real fabric that hosts every node in this process ({@code local}); windows are wall-clock
     * ns from each worker's first reading of the clock.
     */
    public static Result run(Fabric fabric, Scenario s, long warmupNs, long measureNs) {
        for (int n = 0; n < s.nodes; n++) fabric.memory(n).register("bench", REGION_BYTES);
        fabric.localThroughNic(s.pattern == Pattern.OWN_NODE);
        BenchWorker[][] hosts = new BenchWorker[s.nodes][s.threads];
        for (int n = 0; n < s.nodes; n++) {
            for (int t = 0; t < s.threads; t++) hosts[n][t] = new BenchWorker(fabric.endpoint(n, t), s, n == 0 && s.pattern == Pattern.TO_NODE0, warmupNs, measureNs,
                    Timing.POST_TO_COMPLETION);
        }
        fabric.run(hosts);
        return result(s, hosts, measureNs);
    }

    /**
     * The same scenario on a real multi-process fabric: {@code processes[n]} is node n's fabric (each hosts one
     * node; here all in this JVM, each with its own network thread and sockets). Windows are wall-clock ns from
     * each worker's first reading of the clock.
     */
    public static Result run(List<? extends Fabric> processes, Scenario s, long warmupNs, long measureNs) {
        return run(processes, s, warmupNs, measureNs, Timing.POST_TO_COMPLETION);
    }

    /** As {@link #run(List, Scenario, long, long)} with latencies as {@code timing} defines them. */
    public static Result run(List<? extends Fabric> processes, Scenario s, long warmupNs, long measureNs, Timing timing) {
        BenchWorker[][] hosts = new BenchWorker[s.nodes][s.threads];
        for (Fabric f : processes) f.memory(0).register("bench", REGION_BYTES);
        for (Fabric f : processes) for (int n = 1; n < s.nodes; n++) f.memory(n).register("bench", REGION_BYTES);
        for (Fabric f : processes) f.localThroughNic(s.pattern == Pattern.OWN_NODE);
        List<Thread> threads = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failed = new java.util.concurrent.atomic.AtomicReference<>();
        for (int n = 0; n < s.nodes; n++) {
            Fabric f = processes.get(n);
            for (int t = 0; t < s.threads; t++) hosts[n][t] = new BenchWorker(f.endpoint(n, t), s, n == 0 && s.pattern == Pattern.TO_NODE0, warmupNs, measureNs, timing);
            WorkerHost[][] mine = new WorkerHost[s.nodes][];
            mine[n] = hosts[n];
            Thread th = new Thread(() -> {
                try {
                    f.run(mine);
                } catch (RuntimeException e) {
                    failed.compareAndSet(null, e);
                }
            }, "bench-node-" + n);
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        if (failed.get() != null) throw failed.get();
        return result(s, hosts, measureNs);
    }

    private static Result result(Scenario s, BenchWorker[][] hosts, long measureNs) {
        long ops = 0, clientBusy = 0, serverBusy = 0;
        Histogram lat = new Histogram();
        for (BenchWorker[] ws : hosts) {
            for (BenchWorker w : ws) {
                ops += w.ops;
                lat.add(w.latency);
                if (w.coroutines.isEmpty()) serverBusy += w.busyIn();
                else clientBusy += w.busyIn();
            }
        }
        double machines = s.pattern == Pattern.TO_NODE0 ? 1 : s.nodes;
        double mops = ops / (measureNs / 1e9) / machines / 1e6;
        double perOp = Math.max(1, ops);
        return new Result(s, mops, lat.quantile(0.5) / 1e3, lat.mean() / 1e3, clientBusy / perOp, serverBusy / perOp, lat.quantile(0.99) / 1e3);
    }

    private static final class BenchCoroutine {
        Coroutine coroutine;
        int pending;
        boolean waiting;
        /** When its last iteration ended (its clock), or Long.MIN_VALUE before the first. */
        long last = Long.MIN_VALUE;
        final Op[] ops;

        BenchCoroutine(int batch) {
            ops = new Op[batch];
            for (int i = 0; i < batch; i++) {
                ops[i] = new Op();
                ops[i].owner = this;
            }
        }
    }

    private static final class BenchWorker implements WorkerHost {
        final Endpoint ep;
        final Scenario s;
        final ArrayDeque<BenchCoroutine> ready = new ArrayDeque<>();
        final List<BenchCoroutine> coroutines = new ArrayList<>();
        final Histogram latency = new Histogram();
        final SplittableRandom rng;
        final long warmupNs, measureNs;
        final Timing timing;
        long base = Long.MIN_VALUE;
        int done;
        long ops;
        /** Busy time (ep.busyNanos) when this worker first saw the measured window, and last saw it still open; -1 before. */
        long busyAtWarmEnd = -1, busyAtEnd = -1;

        long busyIn() { return busyAtWarmEnd < 0 || busyAtEnd < 0 ? 0 : busyAtEnd - busyAtWarmEnd; }

        /** Takes the busy-time snapshots in the window; a server-only worker takes them from its handlers. */
        private void snapshot(long now) {
            if (base == Long.MIN_VALUE || now < base + warmupNs || now >= base + warmupNs + measureNs) return;
            if (busyAtWarmEnd < 0) busyAtWarmEnd = ep.busyNanos();
            busyAtEnd = ep.busyNanos();
        }

        BenchWorker(Endpoint ep, Scenario s, boolean serverOnly, long warmupNs, long measureNs, Timing timing) {
            this.ep = ep;
            this.timing = timing;
            this.s = s;
            this.warmupNs = warmupNs;
            this.measureNs = measureNs;
            this.rng = new SplittableRandom(ep.node() * 1000L + ep.worker());
            if (serverOnly) return;
            for (int c = 0; c < s.coroutines; c++) {
                BenchCoroutine bc = new BenchCoroutine(s.batch);
                bc.coroutine = Coroutine.ofSteps(() -> step(bc));
                coroutines.add(bc);
                ready.add(bc);
            }
        }

        private int target() {
            if (s.pattern == Pattern.TO_NODE0) return 0;
            if (s.pattern == Pattern.LOOPBACK || s.pattern == Pattern.OWN_NODE) return ep.node();
            int t = rng.nextInt(s.nodes - 1);
            return t >= ep.node() ? t + 1 : t;
        }

        /**
         * One iteration of a coroutine (a doorbell batch and its wait); false once the window has ended. A step, so
         * that the coroutine's bottom frames are compiled ones and a switch copies its frames in bulk (Coroutine).
         */
        private boolean step(BenchCoroutine c) {
            if (base == Long.MIN_VALUE) base = ep.now();
            long warmEnd = base + warmupNs, end = warmEnd + measureNs;
            // per iteration: this iteration starts where the coroutine's last one ended (one clock reading each)
            long now = timing == Timing.PER_ITERATION && c.last != Long.MIN_VALUE ? c.last : ep.now();
            if (now >= end) return false;
            int node = target();
            long off = (long) rng.nextInt(REGION_BYTES / 512) * 512;
            for (int i = 0; i < s.batch; i++) {
                Op op = c.ops[i];
                switch (s.verb) {
                    case READ -> op.read(node, 0, off, s.payload);
                    case WRITE -> op.write(node, 0, off, s.payload);
                    case CAS -> op.cas(node, 0, off, 0, 0);
                    case FAA -> op.faa(node, 0, off, 1);
                    case RPC -> op.rpc(node, 0, 8);   // a small request; the reply carries the payload
                    default -> throw new IllegalArgumentException(s.verb.toString());
                }
                op.signaled = !s.passiveAck || i == s.batch - 1;
                if (op.signaled) c.pending++;
            }
            long t0 = timing == Timing.PER_ITERATION ? now : ep.now();
            if (s.separateDoorbells || s.verb == Verb.RPC) {
                for (Op op : c.ops) ep.post(op);
            } else {
                ep.post(c.ops, s.batch);
            }
            if (c.pending > 0) {
                c.waiting = true;
                Coroutine.suspend();
            }
            long t1 = ep.now();
            c.last = t1;
            snapshot(t1);
            // count by completion time: with deep NIC queues, ops posted near the end complete after it
            if (t1 >= warmEnd && t1 < end) {
                ops += s.batch;
                latency.record(t1 - t0);
            }
            return true;
        }

        @Override
        public void onComplete(Op op) {
            BenchCoroutine c = (BenchCoroutine) op.owner;
            if (--c.pending == 0 && c.waiting) {
                c.waiting = false;
                ready.add(c);
            }
        }

        @Override
        public void onRpc(Op call) {
            if (coroutines.isEmpty()) {
                if (base == Long.MIN_VALUE) base = ep.now();
                snapshot(ep.now());
            }
            call.replyBuffer(s.payload);
            ep.reply(call);
        }

        @Override
        public boolean runOne() {
            BenchCoroutine c = ready.poll();
            if (c == null) return false;
            c.coroutine.resume();
            if (c.coroutine.isDone()) done++;
            return true;
        }

        @Override public boolean hasReady() { return !ready.isEmpty(); }
        @Override public boolean finished() { return done == coroutines.size(); }
    }
}
