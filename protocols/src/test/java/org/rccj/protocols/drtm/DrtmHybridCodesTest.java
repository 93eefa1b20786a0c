package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.protocols.Runs;

/** Every one of DrTM's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class DrtmHybridCodesTest {
    static Stream<Integer> codes() {
        List<HybridCode> all = HybridCode.all(DrtmFactory.STAGES);
        assertEquals(16, all.size());
        return all.stream().map(HybridCode::code);
    }

    static void check(RunResult r, String what) {
        assertTrue(r.commits() > 20, what + ": too few commits " + r.commits());
        assertTrue(r.verification.checked(), what);
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("total_money"), what);
        assertTrue(r.verification.txnsChecked() >= r.commits(), what);
        // every path of the protocol was exercised
        assertTrue(r.extra.get("htm_commits") > 0, what + ": no transaction committed through the HTM region " + r.extra);
        assertTrue(r.extra.get("read_leases_granted") > 0, what + ": no read lease granted " + r.extra);
        assertTrue(r.extra.get("read_only_commits") > 0, what + ": no read-only commit " + r.extra);
    }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "drtm", "hybrid", String.valueOf(code)));
        check(r, "sim code " + code);
        // the binding really changes the primitives used
        if (code == 0) assertEquals(0, r.network.read + r.network.write + r.network.cas + r.network.faa, "all-rpc used one-sided verbs");
        if (code == 23) assertEquals(0, r.network.rpc, "all-onesided used RPCs");
    }

    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "LOCK+COMMIT", "READ+LOG"})
    void local(String code) {
        RunResult r = LocalRuns.run(Runs.smallBank("protocol", "drtm", "hybrid", code, "fabric", "local",
                "nodes", 2, "threads", 2, "coroutines", 3), "local " + code);
        check(r, "local " + code);
    }
}
