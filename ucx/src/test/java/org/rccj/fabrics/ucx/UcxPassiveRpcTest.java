package org.rccj.fabrics.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.WorkerHost;

/**
 * Passive RPCs on ucx (two nodes of one process, each with its own UCX context, so the messages go through UCX's
 * shared-memory or TCP transport): they reach the handler, the target sends no reply message for them, and the
 * sender's op stays in flight until the handler has run (here: until the target answers them, which it holds back),
 * then turns not in flight without a completion. Phase 1: 3 passive RPCs, then, 20 ms later, a signaled one; the
 * target holds the passive calls until the signaled one arrives, answers them, then it: their acks ride on its one
 * reply message. Phase 2: 2 passive RPCs and nothing after them: the target, going idle, acks them in a message of
 * its own, so the run still ends.
 */
class UcxPassiveRpcTest {
    private static final long HOLD_NS = 20_000_000L;

    /** Node 0: the caller. */
    private static final class Caller implements WorkerHost {
        final Endpoint ep;
        final Op[] first = {new Op(), new Op(), new Op()}, second = {new Op(), new Op()};
        final Op signaled = new Op();
        int step;
        long postedAt;
        int completions;
        /** Passes that saw a phase-1 passive RPC still in flight before the signaled one was posted. */
        int sawInFlight;
        /** When this worker first saw every phase-1 passive RPC no longer in flight (System.nanoTime), or 0. */
        long sawFreeAt;
        boolean passiveInFlightAtCompletion = true;

        Caller(Endpoint ep) { this.ep = ep; }

        @Override public void onRpc(Op call) { throw new AssertionError("the caller serves no RPC"); }

        @Override
        public void onComplete(Op op) {
            assertTrue(op == signaled, "only the signaled RPC completes (passive ones turn not in flight silently)");
            completions++;
            passiveInFlightAtCompletion = false;
            for (Op p : first) passiveInFlightAtCompletion |= p.inFlight;
        }

        @Override
        public boolean runOne() {
            switch (step) {
                case 0 -> {
                    assertTrue(ep.passiveRpc(), "ucx carries passive RPCs");
                    for (int i = 0; i < first.length; i++) ep.post(first[i].rpc(1, 0, 8).unsignaled());
                    postedAt = System.nanoTime();
                    step = 1;
                }
                case 1 -> {
                    boolean any = false;
                    for (Op p : first) any |= p.inFlight;
                    if (any) sawInFlight++;
                    if (System.nanoTime() - postedAt < HOLD_NS) return true;
                    ep.post(signaled.rpc(1, 0, 8));
                    step = 2;
                }
                case 2 -> {
                    if (completions == 0) return false;
                    sawFreeAt = System.nanoTime();
                    for (Op p : second) ep.post(p.rpc(1, 0, 8).unsignaled());
                    step = 3;
                }
                default -> { return false; }
            }
            return true;
        }

        @Override public boolean hasReady() { return step < 2 || (step == 2 && completions > 0); }
        @Override public boolean finished() { return step == 3; }
    }

    /** Node 1: serves every call; holds phase 1's passive calls until the signaled call arrives. */
    private static final class Server implements WorkerHost {
        final Endpoint ep;
        final List<Op> held = new ArrayList<>();
        int passiveCalls, signaledCalls;
        /** When the held passive calls were answered (their handler's end; System.nanoTime). */
        volatile long answeredAt;

        Server(Endpoint ep) { this.ep = ep; }

        @Override
        public void onRpc(Op call) {
            call.replyBuffer(8);
            if (!call.signaled) {
                passiveCalls++;
                if (signaledCalls == 0) held.add(call); else ep.reply(call);
                return;
            }
            signaledCalls++;
            for (Op h : held) ep.reply(h);
            held.clear();
            answeredAt = System.nanoTime();
            ep.reply(call);
        }

        @Override public void onComplete(Op op) { throw new AssertionError("the server posts nothing"); }
        @Override public boolean runOne() { return false; }
        @Override public boolean hasReady() { return false; }
        @Override public boolean finished() { return true; }
    }

    @ParameterizedTest
    @ValueSource(strings = {"posix,self", "tcp"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void passiveRpcsRunTheirHandlerSendNoReplyAndAreLearnedLater(String tls) {
        try (UcxFabric f = UcxFabric.inProcess(2, 1, CostProfile.load(CostProfile.DEFAULT), Map.of("TLS", tls))) {
            Caller caller = new Caller(f.endpoint(0, 0));
            Server server = new Server(f.endpoint(1, 0));
            f.run(new WorkerHost[][] {{caller}, {server}});

            assertEquals(5, server.passiveCalls, "every passive RPC reached the handler");
            assertEquals(1, server.signaledCalls);
            assertEquals(1, caller.completions);
            assertTrue(caller.sawInFlight > 0, "the passive RPCs stayed in flight while the target held them");
            assertFalse(caller.passiveInFlightAtCompletion, "the signaled reply carried the passive RPCs' acks");
            assertTrue(caller.sawFreeAt >= server.answeredAt, "freed only after the handler ran");
            for (Op p : caller.second) assertFalse(p.inFlight, "phase 2's passive RPCs were learned (the run ended)");
            assertEquals(1, f.replyMessages(), "one reply message: the signaled RPC's; none for 5 passive RPCs");
            // phase 2: acked on their own when the target went idle (at most one message each; phase 1 needed none)
            assertTrue(f.ackMessages() >= 1 && f.ackMessages() <= 2, "ack messages: " + f.ackMessages());
        }
    }
}
