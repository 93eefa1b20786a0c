package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;
import org.rccj.protocols.Runs;
import org.rccj.testkit.SmallRuns;

/**
 * Transactions whose second key depends on the first round ({@link HopsFactory}): each round locks and
 * leases its keys before the workload sees them, the HTM region spans the rounds, and XEND catches what
 * other transactions changed in the region's lines while it waited for the second round.
 */
class DrtmMultiRoundTest {
    static Map<String, Object> hops(Object... kv) {
        Map<String, Object> m = SmallRuns.cluster("test-hops", "protocol", "drtm", "coroutines", 6, "duration_ms", 2.0,
                "protocol_options.lease_us", 20, "protocol_options.ro_lease_us", 40, "workload.accounts", 60);
        return SmallRuns.set(m, kv);
    }

    private static void check(RunResult r, String what) {
        assertTrue(r.commits() >= HybridCodes.MIN_COMMITS, what + ": too few commits " + r.commits());
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertEquals(Map.of("total_balance", true, "no_self_pointer", true), r.verification.invariants(), what);
        assertTrue(r.perType.get("Peek").commits > 0 && r.perType.get("Hop").commits > 0, what);
        assertTrue(r.extra.get("htm_commits") > 0, what + ": " + r.extra);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided", "LOCK+LOG", "READ+COMMIT"})
    void sim(String code) {
        RunResult r = Runs.run(hops("hybrid", code));
        check(r, "sim " + code);
        // a local record read in the first round changed before XEND: the emulated HTM detected it
        assertTrue(r.abortReasons.getOrDefault("htm_conflict", 0L) > 0, code + ": " + r.abortReasons);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void local(String code) {
        RunResult r = Runs.runUntilCommits(hops("hybrid", code, "fabric", "local", "nodes", 2, "threads", 2, "coroutines", 3,
                "warmup_ms", 10.0, "duration_ms", 30.0, "protocol_options.lease_us", 400, "protocol_options.ro_lease_us", 1000),
                HybridCodes.MIN_COMMITS);
        check(r, "local " + code);
    }
}
