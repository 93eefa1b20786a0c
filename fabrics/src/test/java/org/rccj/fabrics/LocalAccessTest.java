package org.rccj.fabrics;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.fabrics.local.LocalFabric;
import org.rccj.fabrics.sim.FaultSettings;
import org.rccj.fabrics.sim.SimFabric;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.Op;
import org.rccj.primitives.WorkerHost;

/**
 * {@code local_access: network} ({@link Fabric#localThroughNic}): an op or RPC a worker posts to its own node goes
 * through the NIC, as RCC's artifact runs every transaction (node id -1, app/smallbank/bank_worker.cc:494-501; QPs
 * connected to self, rtx/qp_selection_helper.h:35-46), instead of the local shortcut (a plain memory operation, a
 * direct handler call).
 */
class LocalAccessTest {
    private static final CostProfile COST = CostProfile.load("cx4-edr");

    /** A worker whose coroutines are scripted steps, each run once; its handler logs and replies. */
    private static final class Host implements WorkerHost {
        final Endpoint ep;
        final List<String> log;
        final ArrayDeque<Runnable> ready = new ArrayDeque<>();
        volatile int steps, completions, expectedCompletions;
        volatile long lastCompletionAt = -1;

        Host(Endpoint ep, List<String> log) {
            this.ep = ep;
            this.log = log;
        }

        Host step(Runnable r) {
            ready.add(r);
            steps++;
            return this;
        }

        @Override public void onComplete(Op op) {
            completions++;
            lastCompletionAt = ep.now();
            log.add("complete " + op.verb);
        }

        @Override public void onRpc(Op call) {
            log.add("handler");
            call.replyBuffer(8);
            ep.reply(call);
        }

        @Override public boolean runOne() {
            Runnable r = ready.poll();
            if (r == null) return false;
            r.run();
            steps--;
            return true;
        }

        @Override public boolean hasReady() { return !ready.isEmpty(); }
        @Override public int readyCount() { return ready.size(); }
        @Override public boolean finished() { return steps == 0 && completions == expectedCompletions; }
    }

    /** sim: a CAS on the own node is a NIC atomic through the loopback (doorbell, NIC, completion) with network. */
    @Test
    void simOwnNodeCasGoesThroughTheNicWithNetwork() {
        for (boolean network : new boolean[] {true, false}) {
            SimFabric f = new SimFabric(1, 1, COST, FaultSettings.NONE);
            int region = f.memory(0).register("t", 64);
            f.localThroughNic(network);
            Host h = new Host(f.endpoint(0, 0), new ArrayList<>());
            Op cas = f.endpoint(0, 0).newOp().cas(0, region, 8, 0, 7);
            boolean[] completedInPost = new boolean[1];
            h.expectedCompletions = 1;
            h.step(() -> {
                h.ep.post(cas);
                completedInPost[0] = h.completions == 1;
            });
            f.run(new WorkerHost[][] {{h}});
            String what = "network " + network;
            assertEquals(7, f.memory(0).getLong(region, 8), what);
            assertEquals(0, cas.result, what);
            if (network) {
                assertFalse(completedInPost[0], "through the NIC it completes later");
                assertTrue(h.lastCompletionAt >= COST.loopbackNs, "after the loopback round trip: " + h.lastCompletionAt);
                assertTrue(h.lastCompletionAt < COST.oneWayNs * 2, "without the wire: " + h.lastCompletionAt);
                assertEquals(1, h.ep.counters().cas);
                assertEquals(0, h.ep.counters().local);
                assertEquals(1, h.ep.counters().doorbells);
            } else {
                assertTrue(completedInPost[0], "the local shortcut completes inside the post");
                assertEquals(0, h.ep.counters().cas);
                assertEquals(1, h.ep.counters().local);
                assertEquals(0, h.ep.counters().doorbells);
            }
        }
    }

    /** sim and local: an RPC to the own node is a message served at the worker's next poll with network. */
    @Test
    void ownNodeRpcIsAMessageServedAtThePollWithNetwork() {
        for (int k = 0; k < 2; k++) {
            for (boolean network : new boolean[] {true, false}) {
                Fabric f = k == 0 ? new SimFabric(1, 1, COST, FaultSettings.NONE) : new LocalFabric(1, 1, COST);
                f.localThroughNic(network);
                List<String> log = Collections.synchronizedList(new ArrayList<>());
                Host h = new Host(f.endpoint(0, 0), log);
                Op call = f.endpoint(0, 0).newOp();
                h.expectedCompletions = 1;
                h.step(() -> {
                    h.ep.post(call.rpc(0, 0, 8));
                    log.add("posted");
                });
                f.run(new WorkerHost[][] {{h}});
                String what = f.name() + ", network " + network;
                if (network) {
                    assertEquals(List.of("posted", "handler", "complete RPC"), log, what);
                    assertEquals(1, h.ep.counters().rpc, what);
                    assertEquals(0, h.ep.counters().local, what);
                } else {
                    assertEquals(List.of("handler", "complete RPC", "posted"), log, what);
                    assertEquals(1, h.ep.counters().local, what);
                    assertEquals(0, h.ep.counters().rpc, what);
                }
                assertFalse(call.inFlight, what);
            }
        }
    }

    /** local: an own-node READ counts as a network op with its doorbell with network, a local one without. */
    @Test
    void localFabricCountsOwnNodeOpsAsNetworkOpsWithNetwork() {
        for (boolean network : new boolean[] {true, false}) {
            LocalFabric f = new LocalFabric(1, 1, COST);
            int region = f.memory(0).register("t", 64);
            f.memory(0).putLong(region, 16, 42);
            f.localThroughNic(network);
            Host h = new Host(f.endpoint(0, 0), Collections.synchronizedList(new ArrayList<>()));
            Op read = f.endpoint(0, 0).newOp().read(0, region, 16, 8);
            h.expectedCompletions = 1;
            h.step(() -> h.ep.post(read));
            f.run(new WorkerHost[][] {{h}});
            assertEquals(42, org.rccj.primitives.Bytes.getLong(read.data, 0));
            assertEquals(network ? 1 : 0, h.ep.counters().read, "network " + network);
            assertEquals(network ? 1 : 0, h.ep.counters().doorbells, "network " + network);
            assertEquals(network ? 0 : 1, h.ep.counters().local, "network " + network);
        }
    }
}
