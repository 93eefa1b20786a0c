package org.rccj.fabrics.sim;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.WorkerHost;

/**
 * RPCs are served at the poll point only (the artifact's poller, core/rworker.cc:33-71): a request that
 * arrives while a pass over the ready coroutines is under way waits until every coroutine of that pass has
 * run, not just the one running when it arrived.
 */
class PollPointTest {
    /** Node 1: two coroutines, each computing 5 us once; and the handler of node 0's request. */
    private static final class Server implements WorkerHost {
        final Endpoint ep;
        final List<String> order = new ArrayList<>();
        int left = 2;

        Server(Endpoint ep) { this.ep = ep; }

        @Override public void onComplete(Op op) {}
        @Override public void onRpc(Op call) {
            order.add("rpc");
            call.replyBuffer(8);
            ep.reply(call);
        }
        @Override public boolean runOne() {
            if (left == 0) return false;
            order.add(left == 2 ? "A" : "B");
            left--;
            ep.compute(5_000);
            return true;
        }
        @Override public boolean hasReady() { return left > 0; }
        @Override public int readyCount() { return left; }
        @Override public boolean finished() { return left == 0; }
    }

    /** Node 0: one RPC to node 1 at time 0. */
    private static final class Client implements WorkerHost {
        final Endpoint ep;
        final Op op;
        boolean posted, replied;

        Client(Endpoint ep) { this.ep = ep; this.op = ep.newOp(); }

        @Override public void onComplete(Op o) { replied = true; }
        @Override public void onRpc(Op call) {}
        @Override public boolean runOne() {
            posted = true;
            ep.post(op.rpc(1, 0, 8));
            return true;
        }
        @Override public boolean hasReady() { return !posted; }
        @Override public boolean finished() { return replied; }
    }

    @Test
    void aRequestArrivingWhileTwoCoroutinesAreReadyIsServedAfterBothRan() {
        CostProfile p = CostProfile.load("cx4-edr");
        long arrives = p.oneWayNs + p.rpcSendNs + p.rpcReceiveNs;
        assertTrue(arrives < 5_000, "the request must arrive while A computes: " + arrives + " ns");
        SimFabric f = new SimFabric(2, 1, p, FaultSettings.NONE);
        Client c = new Client(f.endpoint(0, 0));
        Server s = new Server(f.endpoint(1, 0));
        f.run(new WorkerHost[][] {{c}, {s}});
        assertTrue(c.replied);
        assertEquals(List.of("A", "B", "rpc"), s.order, "the request waits for the pass over both ready coroutines");
    }
}
