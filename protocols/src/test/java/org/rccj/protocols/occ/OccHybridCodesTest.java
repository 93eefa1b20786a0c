package org.rccj.protocols.occ;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.protocols.Runs;

/** Every one of OCC's 64 hybrid codes runs SmallBank serializably with the money invariant, on sim and local. */
class OccHybridCodesTest {
    static Stream<Integer> codes() {
        List<HybridCode> all = HybridCode.all(OccFactory.STAGES);
        assertEquals(64, all.size());
        return all.stream().map(HybridCode::code);
    }

    private static void check(RunResult r, String what, int minCommits) {
        assertTrue(r.commits() >= minCommits, what + ": too few commits " + r.commits());
        assertTrue(r.verification.checked(), what);
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("total_money"), what);
        assertTrue(r.verification.txnsChecked() >= r.commits(), what);
    }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "occ", "hybrid", String.valueOf(code)));
        check(r, "sim code " + code, 20);
        // the binding really changes the primitives used: one-sided stages post one-sided verbs
        if (code == 0) assertEquals(0, r.network.read + r.network.write + r.network.cas, "all-rpc used one-sided verbs");
        if (code == 63) assertEquals(0, r.network.rpc, "all-onesided used RPCs");
    }

    @ParameterizedTest(name = "local code {0}")
    @MethodSource("codes")
    void local(int code) {
        RunResult r = Runs.runUntilCommits(Runs.smallBank("protocol", "occ", "hybrid", String.valueOf(code), "fabric", "local",
                "nodes", 2, "threads", 2, "coroutines", 3, "warmup_ms", 10, "duration_ms", 40), 20);
        check(r, "local code " + code, 20);
    }
}
