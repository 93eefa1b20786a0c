package org.rccj.fabrics.sim;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.WorkerHost;

/** Simulated SmartNIC work on sim: NIC-to-NIC messages (SmartNic.send) and NIC-generated ops (SmartNic.byNic). */
class NicMessageTest {
    private static final CostProfile P = CostProfile.load("cx4-edr");

    /** Runs {@code body} once on worker 0/0; every other worker idles. */
    private static final class Once implements WorkerHost {
        final Runnable body;
        boolean ran;
        int completions;
        int expected;

        Once(Runnable body, int expected) { this.body = body; this.expected = expected; }

        @Override public void onComplete(Op op) { if (op.signaled) completions++; }
        @Override public void onRpc(Op call) { throw new AssertionError("no RPCs here"); }
        @Override public boolean runOne() { ran = true; body.run(); return true; }
        @Override public boolean hasReady() { return body != null && !ran; }
        @Override public boolean finished() { return body == null || (ran && completions >= expected); }
    }

    private static WorkerHost[][] hosts(SimFabric f, Once first) {
        for (int n = 0; n < f.nodes(); n++) assertEquals(0, f.memory(n).register("t", 64));
        WorkerHost[][] h = new WorkerHost[f.nodes()][1];
        for (int n = 0; n < f.nodes(); n++) h[n][0] = n == 0 ? first : new Once(null, 0);
        return h;
    }

    @Test
    void aNicMessageArrivesAfterTheWireAndCostsNoCore() {
        SimFabric f = new SimFabric(2, 1, P, FaultSettings.NONE);
        long[] sentAt = {-1}, arrivedAt = {-1};
        int[] arrivedNode = {-1};
        Once h = new Once(() -> {
            Endpoint ep = f.endpoint(0, 0);
            sentAt[0] = ep.now();
            Op m = f.atNic(f.newOp().write(1, 0, 0, 16), (op, mem, now) -> { arrivedAt[0] = now; arrivedNode[0] = mem.node(); return false; });
            f.send(0, m, sentAt[0]);
        }, 0);
        f.run(hosts(f, h));
        assertEquals(1, arrivedNode[0], "the action runs at the target NIC, on its memory");
        assertTrue(arrivedAt[0] >= sentAt[0] + P.oneWayNs, "arrives after the wire: " + arrivedAt[0] + " sent " + sentAt[0]);
        assertTrue(arrivedAt[0] < sentAt[0] + P.oneWayNs + 1000, "and after little more on idle NICs: " + arrivedAt[0]);
        assertEquals(0, f.endpoint(1, 0).busyNanos(), "the receiving core does nothing");
        assertEquals(0, f.endpoint(0, 0).counters().doorbells, "the sending NIC needs no doorbell");
    }

    /** Worker 0/0 posts a WRITE to node 1 and one to node 2 (each its own batch); the second NIC-generated or not. */
    private static Endpoint postTwo(boolean secondByNic) {
        SimFabric f = new SimFabric(3, 1, P, FaultSettings.NONE);
        Once h = new Once(() -> {
            Endpoint ep = f.endpoint(0, 0);
            ep.post(ep.newOp().write(1, 0, 0, 8));
            Op second = ep.newOp().write(2, 0, 0, 8);
            if (secondByNic) f.byNic(second);
            ep.post(second);
        }, 2);
        f.run(hosts(f, h));
        return f.endpoint(0, 0);
    }

    @Test
    void nicGeneratedOpsCostTheCoreNoDoorbellWqeOrPoll() {
        Endpoint core = postTwo(false), smart = postTwo(true);
        assertEquals(2, core.counters().doorbells);
        assertEquals(1, smart.counters().doorbells);
        assertEquals(P.doorbellNs + P.postWqeNs + P.pollCqNs, core.busyNanos() - smart.busyNanos(),
                "core " + core.busyNanos() + " vs NIC-generated " + smart.busyNanos());
    }
}
