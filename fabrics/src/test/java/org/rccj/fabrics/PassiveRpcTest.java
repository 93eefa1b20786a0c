package org.rccj.fabrics;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.fabrics.bench.PrimitiveBench;
import org.rccj.fabrics.bench.PrimitiveBench.Pattern;
import org.rccj.fabrics.bench.PrimitiveBench.Scenario;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.fabrics.sim.FaultSettings;
import org.rccj.fabrics.local.LocalFabric;
import org.rccj.primitives.Op;
import org.rccj.fabrics.sim.SimFabric;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;

/**
 * Passive ACK. Two-sided on sim: a passive RPC runs its handler, sends no reply, completes with a later reply.
 * On local (real threads): unsignaled WRITEs and passive RPCs execute, are counted, and are no longer in flight
 * once the signaled op posted after them completes.
 */
class PassiveRpcTest {
    /** A worker that posts once (the client on node 0) or serves RPCs with an 8-byte reply (node 1). */
    private abstract static class Scripted implements WorkerHost {
        final Endpoint ep;
        final boolean client;
        /** Completions the client waits for. */
        private final int expected;
        volatile int handled;
        int completions;
        boolean posted;

        Scripted(Endpoint ep, boolean client, int expected) {
            this.ep = ep;
            this.client = client;
            this.expected = expected;
        }

        @Override public void onRpc(Op call) {
            handled++;
            call.replyBuffer(8);
            ep.reply(call);
        }

        @Override public boolean hasReady() { return client && !posted; }
        @Override public boolean finished() { return !client || completions == expected; }

        /** Three passive RPCs to node 1, then a signaled one. */
        void postRpcs(Op[] rpcs) {
            for (int i = 0; i < 4; i++) {
                rpcs[i].rpc(1, 0, 8);
                if (i < 3) rpcs[i].unsignaled();
                ep.post(rpcs[i]);
            }
        }
    }

    /** Node 0 posts 3 passive RPCs then one signaled RPC to node 1 (single worker each), once. */
    private static final class Host extends Scripted {
        final Op[] ops = new Op[4];
        boolean passiveInFlightAtCompletion;

        Host(Endpoint ep, boolean client) {
            super(ep, client, 1);
            for (int i = 0; i < 4; i++) ops[i] = new Op();
        }

        @Override public void onComplete(Op op) {
            completions++;
            for (int i = 0; i < 3; i++) passiveInFlightAtCompletion |= ops[i].inFlight;
        }

        @Override public boolean runOne() {
            posted = true;
            postRpcs(ops);
            return true;
        }
    }

    @Test
    void passiveRpcsCompleteWithTheNextSignaledReply() {
        SimFabric f = new SimFabric(2, 1, CostProfile.load("cx4-edr"), FaultSettings.NONE);
        Host c = new Host(f.endpoint(0, 0), true), s = new Host(f.endpoint(1, 0), false);
        f.run(new WorkerHost[][] {{c}, {s}});
        assertEquals(4, s.handled, "every passive RPC's handler ran");
        assertEquals(1, c.completions, "only the signaled RPC completes through onComplete");
        assertFalse(c.passiveInFlightAtCompletion, "passive RPCs are known complete when the signaled reply arrives");
        for (Op op : c.ops) assertFalse(op.inFlight);
        assertEquals(4, f.endpoint(0, 0).counters().rpc);
    }

    @Test
    void passiveAckRaisesTwoSidedThroughput() {
        CostProfile p = CostProfile.load("cx4-edr");
        double all = PrimitiveBench.run(p, new Scenario("all", Verb.RPC, 8, 4, 4, 4, 8, false, false, Pattern.ALL_TO_ALL)).mopsPerMachine();
        double passive = PrimitiveBench.run(p, new Scenario("passive", Verb.RPC, 8, 4, 4, 4, 8, false, true, Pattern.ALL_TO_ALL)).mopsPerMachine();
        assertTrue(passive > 1.3 * all, "passive " + passive + " vs all replied " + all);
    }

    /** Node 0 posts 3 unsignaled WRITEs and a signaled one (one doorbell), then 3 passive RPCs and a signaled one, to node 1. */
    private static final class LocalHost extends Scripted {
        final int region;
        final Op[] writes = new Op[4], rpcs = new Op[4];
        int signaledWrites, signaledRpcs;
        boolean earlierInFlight;

        LocalHost(Endpoint ep, boolean client, int region) {
            super(ep, client, 2);
            this.region = region;
            for (int i = 0; i < 4; i++) { writes[i] = new Op(); rpcs[i] = new Op(); }
        }

        @Override public void onComplete(Op op) {
            completions++;
            Op[] same = op.verb == Verb.RPC ? rpcs : writes;
            if (op.verb == Verb.RPC) signaledRpcs++; else signaledWrites++;
            for (int i = 0; i < 3; i++) earlierInFlight |= same[i].inFlight;
        }

        @Override public boolean runOne() {
            if (!hasReady()) return false;      // the local loop asks every turn
            posted = true;
            for (int i = 0; i < 4; i++) {
                writes[i].writeLong(1, region, 8L * i, 100 + i);
                if (i < 3) writes[i].unsignaled();
            }
            ep.post(writes, 4);
            postRpcs(rpcs);
            return true;
        }
    }

    @Test
    void unsignaledOpsAndPassiveRpcsCompleteAndAreCountedOnLocal() {
        LocalFabric f = new LocalFabric(2, 1, CostProfile.load("cx4-edr"));
        int region = f.memory(1).register("t", 64);
        f.memory(0).register("t", 64);
        LocalHost c = new LocalHost(f.endpoint(0, 0), true, region), s = new LocalHost(f.endpoint(1, 0), false, region);
        f.run(new WorkerHost[][] {{c}, {s}});
        assertEquals(4, s.handled, "every passive RPC's handler ran on the server thread");
        assertEquals(1, c.signaledWrites, "only the signaled WRITE completes through onComplete");
        assertEquals(1, c.signaledRpcs, "only the signaled RPC completes through onComplete");
        assertFalse(c.earlierInFlight, "the unsignaled ops before a signaled one are done when it completes");
        for (Op op : c.writes) assertFalse(op.inFlight);
        for (Op op : c.rpcs) assertFalse(op.inFlight);
        for (int i = 0; i < 4; i++) assertEquals(100 + i, f.memory(1).getLong(region, 8L * i), "WRITE " + i + " executed");
        assertEquals(4, f.endpoint(0, 0).counters().write);
        assertEquals(4, f.endpoint(0, 0).counters().rpc);
    }
}
