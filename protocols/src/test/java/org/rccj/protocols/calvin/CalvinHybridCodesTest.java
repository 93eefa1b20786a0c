package org.rccj.protocols.calvin;

import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;

/** Every one of CALVIN's 8 hybrid codes (DISPATCH, FORWARD, EPOCH_SYNC) runs SmallBank serializably with the money invariant and no concurrency abort (sim). */
class CalvinHybridCodesTest {
    static Stream<Integer> codes() { return HybridCodes.codes(CalvinFactory.STAGES, 8); }

    /** Enough commits, then {@link #checkCorrect}. */
    static void check(RunResult r, String what) {
        HybridCodes.assertVerified(r, what);
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

    /** Every code with the four combinations of passive_ack and local_access (CALVIN keeps its local path whatever the latter says). */
    static Stream<org.junit.jupiter.params.provider.Arguments> runs() {
        return codes().flatMap(c -> Stream.of(false, true).flatMap(pa -> Stream.of("network", "cpu")
                .map(la -> org.junit.jupiter.params.provider.Arguments.of(c, pa, la))));
    }

    @ParameterizedTest(name = "sim code {0}, passive_ack {1}, local_access {2}")
    @MethodSource("runs")
    void sim(int code, boolean passiveAck, String localAccess) {
        RunResult r = HybridCodes.sim("calvin", code, "passive_ack", passiveAck, "local_access", localAccess);
        check(r, "sim code " + code + ", passive_ack " + passiveAck + ", local_access " + localAccess);
        if (passiveAck || !localAccess.equals("network")) return;
        if (code == 0) HybridCodes.assertPureCodesUsePureTransports(r, code, CalvinFactory.STAGES);
        // the asynchronous replication of the inputs is RPC whatever the code: all-onesided is pure without backups
        int all = org.rccj.framework.spi.HybridCode.allOneSided(CalvinFactory.STAGES).code();
        if (code == all) HybridCodes.assertPureCodesUsePureTransports(HybridCodes.sim("calvin", code, "replication", 1), code, CalvinFactory.STAGES);
    }
}
