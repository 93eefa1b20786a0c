package org.rccj.fabrics;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.FaultSettings;
import org.rccj.primitives.LocalFabric;
import org.rccj.primitives.Op;
import org.rccj.primitives.SimFabric;
import org.rccj.primitives.WorkerHost;

/**
 * The transport semantics of RCC's artifact on the fabrics (docs/design.md, Decisions 2026-11-26): RPCs are
 * served at the poll point only (core/rworker.cc:33-71: a poll, then every ready coroutine until it blocks), and
 * with {@code local_access: network} an op or RPC to the own node goes through the NIC (QPs connected to self,
 * rtx/qp_selection_helper.h:35-46) instead of being a plain memory operation or a direct handler call.
 */
class TransportSemanticsTest {
    private static final CostProfile COST = CostProfile.load("cx4-edr");

    /** A worker whose coroutines are scripted steps: each runs once; handlers log and reply. */
    private static final class Host implements WorkerHost {
        final Endpoint ep;
        final List<String> log;
        final ArrayDeque<Runnable> ready = new ArrayDeque<>();
        int steps, completions, expectedCompletions;
        long lastCompletionAt = -1;

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
            log.add("handler on node " + ep.node());
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

    /**
     * Node 1 sends an RPC to node 0, which arrives while node 0's first of two ready coroutines computes: the
     * handler runs after both (the pass), not between them.
     */
    @Test
    void aRequestArrivingDuringAPassIsServedAfterItsCoroutinesRan() {
        SimFabric f = new SimFabric(2, 1, COST, FaultSettings.NONE);
        List<String> log = new ArrayList<>();
        Host server = new Host(f.endpoint(0, 0), log), client = new Host(f.endpoint(1, 0), log);
        long busy = 4 * (COST.oneWayNs + COST.rpcReceiveNs);
        server.step(() -> { log.add("A"); server.ep.compute(busy); }).step(() -> { log.add("B"); server.ep.compute(busy); });
        Op call = new Op();
        client.expectedCompletions = 1;
        client.step(() -> client.ep.post(call.rpc(0, 0, 8)));
        f.run(new WorkerHost[][] {{server}, {client}});
        assertEquals(List.of("A", "B", "handler on node 0", "complete RPC"), log);
        assertTrue(client.lastCompletionAt > 2 * busy, "the reply left after both coroutines: " + client.lastCompletionAt);
    }

    /** With local_access network a CAS on the own node is a NIC atomic over loopback: counted, completed later. */
    @Test
    void aLocalCasGoesThroughTheNicWithLocalAccessNetwork() {
        for (boolean network : new boolean[] {true, false}) {
            SimFabric f = new SimFabric(1, 1, COST, FaultSettings.NONE);
            int region = f.memory(0).register("t", 64);
            f.localThroughNic(network);
            List<String> log = new ArrayList<>();
            Host h = new Host(f.endpoint(0, 0), log);
            Op cas = new Op().cas(0, region, 8, 0, 7);
            boolean[] completedInPost = new boolean[1];
            h.expectedCompletions = 1;
            h.step(() -> {
                h.ep.post(cas);
                completedInPost[0] = h.completions == 1;
            });
            f.run(new WorkerHost[][] {{h}});
            assertEquals(7, f.memory(0).getLong(region, 8));
            assertEquals(0, cas.result);
            if (network) {
                assertFalse(completedInPost[0], "through the NIC: completes later");
                assertTrue(h.lastCompletionAt >= COST.loopbackNs, "loopback round trip: " + h.lastCompletionAt);
                assertEquals(1, h.ep.counters().cas);
                assertEquals(0, h.ep.counters().local);
                assertEquals(1, h.ep.counters().doorbells);
            } else {
                assertTrue(completedInPost[0], "a plain memory operation completes at once");
                assertEquals(0, h.ep.counters().cas);
                assertEquals(1, h.ep.counters().local);
            }
        }
    }

    /** With local_access network an RPC to the own node is a message served at the worker's next poll. */
    @Test
    void aLocalRpcIsAMessageWithLocalAccessNetwork() {
        for (Fabric f : new Fabric[] {new SimFabric(1, 1, COST, FaultSettings.NONE), new LocalFabric(1, 1, COST)}) {
            for (boolean network : new boolean[] {true, false}) {
                f.localThroughNic(network);
                List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
                Host h = new Host(f.endpoint(0, 0), log);
                Op call = new Op();
                h.expectedCompletions = 1;
                long rpcs0 = h.ep.counters().rpc, local0 = h.ep.counters().local;
                h.step(() -> {
                    h.ep.post(call.rpc(0, 0, 8));
                    log.add("posted");
                });
                f.run(new WorkerHost[][] {{h}});
                String what = f.name() + ", network " + network;
                if (network) {
                    assertEquals(List.of("posted", "handler on node 0", "complete RPC"), log, what);
                    assertEquals(1, h.ep.counters().rpc - rpcs0, what);
                    assertEquals(0, h.ep.counters().local - local0, what);
                } else {
                    assertEquals(List.of("handler on node 0", "complete RPC", "posted"), log, what);
                    assertEquals(1, h.ep.counters().local - local0, what);
                }
                assertFalse(call.inFlight, what);
            }
        }
    }
}
