package org.rccj.protocols.nowait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.protocols.Runs;

/** Every one of NOWAIT's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class NowaitHybridCodesTest {
    static Stream<Integer> codes() {
        List<HybridCode> all = HybridCode.all(NowaitFactory.STAGES);
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
        RunResult r = Runs.run(Runs.smallBank("protocol", "nowait", "hybrid", String.valueOf(code)));
        check(r, "sim code " + code, 20);
        assertTrue(r.aborts() > 0, "the hot set should make some locks conflict");
        assertEquals(r.aborts(), r.abortReasons.getOrDefault("lock_conflict", 0L), "NOWAIT aborts only on lock conflicts: " + r.abortReasons);
        // the binding really changes the primitives used
        if (code == 0) assertEquals(0, r.network.read + r.network.write + r.network.cas + r.network.faa, "all-rpc used one-sided verbs");
        if (code == 29) assertEquals(0, r.network.rpc, "all-onesided used RPCs");
        if ((code & 1) == 0) assertEquals(0, r.network.cas, "RPC LOCK posted CASes");
        else assertTrue(r.network.cas > 0, "one-sided LOCK posted no CAS");
    }

    /**
     * Real threads on a shared machine: the run's clock starts before the cluster and its threads are built, and on a
     * loaded machine whole-process stalls of a few hundred ms were seen; a short window could then hold no
     * transaction at all, so the window is long (50 ms warm-up, 250 ms measured).
     */
    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "LOCK+COMMIT", "LOG+RELEASE"})
    void local(String code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "nowait", "hybrid", code, "fabric", "local",
                "nodes", 2, "threads", 2, "coroutines", 3, "warmup_ms", 50, "duration_ms", 250));
        // real threads on a shared machine: what matters is that many concurrent transactions verified
        check(r, "local " + code, 1);
        assertTrue(r.verification.txnsChecked() >= 10, "local " + code + ": only " + r.verification.txnsChecked() + " transactions ran");
    }
}
