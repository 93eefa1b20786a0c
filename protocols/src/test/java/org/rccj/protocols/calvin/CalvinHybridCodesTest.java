package org.rccj.protocols.calvin;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.protocols.Runs;

/** Every one of CALVIN's 8 hybrid codes runs SmallBank serializably with the money invariant and no concurrency abort (sim). */
class CalvinHybridCodesTest {
    static Stream<Integer> codes() {
        List<HybridCode> all = HybridCode.all(CalvinFactory.STAGES);
        assertEquals(8, all.size());
        return all.stream().map(HybridCode::code);
    }

    static final int MIN_COMMITS = 20;

    /** Enough commits, then {@link #checkCorrect}. */
    static void check(RunResult r, String what) {
        assertTrue(r.commits() > MIN_COMMITS, what + ": too few commits " + r.commits());
        checkCorrect(r, what);
    }

    /** Serializable, money invariant, every commit checked, and no concurrency abort. */
    static void checkCorrect(RunResult r, String what) {
        assertTrue(r.verification.checked(), what);
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("total_money"), what);
        assertTrue(r.verification.txnsChecked() >= r.commits(), what);
        assertEquals(0, r.aborts(), what + ": CALVIN aborted for concurrency: " + r.abortReasons);
    }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", String.valueOf(code)));
        check(r, "sim code " + code);
        // the binding really changes the primitives used
        if (code == 0) assertEquals(0, r.network.read + r.network.write + r.network.cas + r.network.faa, "all-rpc used one-sided verbs");
        if (code == 4 + 128 + 256) assertEquals(0, r.network.rpc, "all-onesided used RPCs");
    }
}
