package org.rccj.fabrics.sim;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.WorkerHost;

/**
 * Decision 0195: in a window a simulation thread takes its own nodes first, then any node left, so which thread runs
 * a node changes from window to window; the run must not. Every worker fetches-and-adds counters on nodes picked from
 * what it last read, so any change in the order events reach a node changes what every worker sees.
 */
class WindowEngineStealingTest {
    private static final CostProfile P = CostProfile.load("cx4-edr");
    private static final int NODES = 7, WORKERS = 2, ROUNDS = 300, SLOTS = 4;

    /** One worker: ROUNDS FAAs one after another, each to a node and slot chosen from the last result. */
    private static final class Adder implements WorkerHost {
        final Endpoint ep;
        final Op op;
        long trace = 17, last;
        int done;
        boolean ready = true;

        Adder(Endpoint ep) {
            this.ep = ep;
            op = ep.newOp();
        }

        @Override public void onComplete(Op o) {
            last = o.result;
            trace = trace * 31 + o.result * 1_000_003 + ep.now();
            done++;
            ready = done < ROUNDS;
        }

        @Override public void onRpc(Op call) { throw new AssertionError("no RPCs here"); }
        @Override public boolean hasReady() { return ready; }
        @Override public boolean finished() { return done == ROUNDS; }

        @Override public boolean runOne() {
            ready = false;
            long h = last * 0x9E3779B97F4A7C15L + done * 31L + ep.node() * 7L + ep.worker();
            int to = (int) Math.floorMod(h >>> 7, (long) NODES);
            ep.compute(1 + Math.floorMod(h >>> 29, 400L));
            ep.post(op.faa(to, 0, 8L * Math.floorMod(h >>> 41, (long) SLOTS), 1));
            return true;
        }
    }

    /** Runs the cluster; returns every worker's trace and the counters' final values, in one string. */
    private static String run(SimFabric f) {
        WorkerHost[][] hosts = new WorkerHost[NODES][WORKERS];
        for (int n = 0; n < NODES; n++) {
            assertEquals(0, f.memory(n).register("c", 8 * SLOTS));
            for (int w = 0; w < WORKERS; w++) hosts[n][w] = new Adder(f.endpoint(n, w));
        }
        f.run(hosts);
        StringBuilder s = new StringBuilder();
        for (WorkerHost[] ws : hosts) for (WorkerHost w : ws) s.append(((Adder) w).trace).append(' ');
        for (int n = 0; n < NODES; n++) for (int k = 0; k < SLOTS; k++) s.append(f.memory(n).getLongVolatile(0, 8L * k)).append(' ');
        return s.toString();
    }

    @Test
    void nodesTakenByAnotherThreadGiveTheSameRun() {
        String one = run(new SimFabric(NODES, WORKERS, P, FaultSettings.NONE, 1));
        for (int threads = 2; threads <= 3; threads++) {
            SimFabric f = new SimFabric(NODES, WORKERS, P, FaultSettings.NONE, threads);
            Thread caller = Thread.currentThread();
            int t = threads;
            AtomicInteger stolen = new AtomicInteger(), turns = new AtomicInteger();
            // the calling thread (thread 0) is slow on its own nodes in one window of two: the others take what it left
            f.beforeNode = i -> {
                boolean own0 = i % t == 0;
                if (Thread.currentThread() == caller) {
                    if (own0 && turns.incrementAndGet() % 2 == 0) LockSupport.parkNanos(300_000);
                } else if (own0) {
                    stolen.incrementAndGet();
                }
            };
            assertEquals(one, run(f), threads + " threads vs 1");
            assertTrue(stolen.get() > 10, "thread 0's nodes were taken by another thread " + stolen.get() + " times");
        }
    }
}
