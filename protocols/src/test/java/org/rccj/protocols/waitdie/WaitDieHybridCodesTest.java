package org.rccj.protocols.waitdie;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.protocols.Runs;

/** Every one of WAITDIE's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class WaitDieHybridCodesTest {
    static Stream<Integer> codes() {
        List<HybridCode> all = HybridCode.all(WaitDieFactory.STAGES);
        assertEquals(16, all.size());
        return all.stream().map(HybridCode::code);
    }

    static void check(RunResult r, String what, int minCommits) {
        assertTrue(r.commits() >= minCommits, what + ": too few commits " + r.commits());
        assertTrue(r.verification.checked(), what);
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("total_money"), what);
        assertTrue(r.verification.txnsChecked() >= r.commits(), what);
    }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "waitdie", "hybrid", String.valueOf(code)));
        check(r, "sim code " + code, 20);
        // conflicts on the hot set: some transactions waited and some died
        assertTrue(r.extra.get("waits") > 0, "nobody waited: " + r.extra);
        assertTrue(r.extra.get("dies") > 0, "nobody died: " + r.extra);
        // a death aborts its attempt (several lock requests of one attempt may die together)
        long died = r.abortReasons.getOrDefault("wait_die", 0L);
        assertTrue(died > 0 && died <= r.extra.get("dies"), r.abortReasons + " vs " + r.extra);
        assertEquals(r.aborts(), died + r.abortReasons.getOrDefault("yield_to_older_waiter", 0L)
                + r.abortReasons.getOrDefault("wait_at_run_end", 0L), "unexpected abort reasons " + r.abortReasons);
        if ((code & 1) == 0) {
            assertTrue(r.extra.get("rpc_parked") > 0, "RPC LOCK never parked a request: " + r.extra);
            if ((code & 8) == 0) {
                assertTrue(r.extra.get("rpc_granted_on_release") > 0, "RPC RELEASE never handed a lock on: " + r.extra);
                assertEquals(0.0, r.extra.get("rpc_granted_by_poll"), "no poller runs with an RPC RELEASE");
            } else {
                assertTrue(r.extra.get("rpc_granted_by_poll") > 0, "one-sided RELEASE: the poller never granted: " + r.extra);
                assertEquals(0.0, r.extra.get("rpc_granted_on_release"), "a one-sided RELEASE ran a handler");
            }
        } else {
            assertEquals(0.0, r.extra.get("rpc_parked"), "one-sided LOCK parked RPC requests");
        }
        if (code == 0) assertEquals(0, r.network.read + r.network.write + r.network.cas + r.network.faa, "all-rpc used one-sided verbs");
        if (code == 29) assertEquals(0, r.network.rpc, "all-onesided used RPCs");
    }

    /**
     * Real threads on a shared machine: the run's clock starts before the cluster and its threads are built, and on a
     * loaded machine whole-process stalls of a few hundred ms were seen; a short window could then hold no
     * transaction at all, so the window is long (50 ms warm-up, 250 ms measured).
     */
    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "LOCK+COMMIT", "LOG+RELEASE"})
    void local(String code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "waitdie", "hybrid", code, "fabric", "local",
                "nodes", 2, "threads", 2, "coroutines", 3, "warmup_ms", 50, "duration_ms", 250));
        // real threads on a shared machine: what matters is that many concurrent transactions verified
        check(r, "local " + code, 1);
        assertTrue(r.verification.txnsChecked() >= 10, "local " + code + ": only " + r.verification.txnsChecked() + " transactions ran");
    }
}
