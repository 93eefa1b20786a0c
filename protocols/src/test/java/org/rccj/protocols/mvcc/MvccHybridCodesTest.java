package org.rccj.protocols.mvcc;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.protocols.Runs;

/** Every one of MVCC's 32 hybrid codes runs SmallBank serializably with the money invariant on sim; a selection on local. */
class MvccHybridCodesTest {
    static Stream<Integer> codes() {
        List<HybridCode> all = HybridCode.all(MvccFactory.STAGES);
        assertEquals(32, all.size());
        return all.stream().map(HybridCode::code);
    }

    static void check(RunResult r, String what) {
        assertTrue(r.commits() > 20, what + ": too few commits " + r.commits());
        assertTrue(r.verification.checked(), what);
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("total_money"), what);
        assertTrue(r.verification.txnsChecked() >= r.commits(), what);
    }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "mvcc", "hybrid", String.valueOf(code)));
        check(r, "sim code " + code);
        if (code == 0) assertEquals(0, r.network.read + r.network.write + r.network.cas, "all-rpc used one-sided verbs");
        if (code == HybridCode.allOneSided(MvccFactory.STAGES).code()) assertEquals(0, r.network.rpc, "all-onesided used RPCs");
    }

    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "READ+COMMIT+RELEASE", "LOCK+LOG"})
    void local(String code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "mvcc", "hybrid", code, "fabric", "local",
                "nodes", 2, "threads", 2, "coroutines", 3, "warmup_ms", 10, "duration_ms", 100));
        check(r, "local " + code);
    }
}
