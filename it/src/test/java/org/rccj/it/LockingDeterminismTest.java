package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;

/**
 * NOWAIT and WAITDIE on sim: the same config and seed give the same summary.json (commits, aborts and their
 * reasons, latencies, stages, network counters and the protocol's figures), another seed does not. The codes
 * cover both halves of every stage, and WAITDIE's parked RPC requests with the poller (RELEASE).
 */
class LockingDeterminismTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"nowait,all-rpc", "nowait,all-onesided", "nowait,LOCK+COMMIT", "waitdie,all-rpc", "waitdie,all-onesided", "waitdie,RELEASE"})
    void sameSeedSameSummary(String protocol, String code) {
        var cfg = ItRuns.config(protocol, "smallbank", "hybrid", code, "workload.accounts_per_thread", 50);
        RunResult first = ItRuns.run(cfg);
        String a = ItRuns.deterministicSummary(first);
        String b = ItRuns.deterministicSummary(ItRuns.run(cfg));
        assertEquals(a, b);
        assertTrue(first.commits() > 0 && first.aborts() > 0, "a run with conflicts: " + first.abortReasons);
        var other = ItRuns.config(protocol, "smallbank", "hybrid", code, "workload.accounts_per_thread", 50, "seed", 2);
        assertNotEquals(a, ItRuns.deterministicSummary(ItRuns.run(other)), "the seed must matter");
    }
}
