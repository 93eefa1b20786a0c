package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.TxnTypeStats;

/**
 * TATP's per-type success rates (commits / (commits + logic rollbacks)) come out as the population rules
 * predict, on a sim run large enough to be stable. Expected: GetSubscriberData and UpdateLocation 100%;
 * GetAccessData and UpdateSubscriberData 62.5% (a given type exists with (1+2+3+4)/16); Insert- and
 * DeleteCallForwarding 62.5% x 50% = 31.25%; GetNewDestination 62.5% x 85% active x P(a matching call
 * forwarding) = 19.1% with steady end times (rand 1..24) and 14.8% with the spec's (start + rand 1..8).
 */
class TatpSuccessRatesTest {
    private static RunResult run(String endTimes) {
        RunResult r = ItRuns.run(YcsbTatpRuns.tatp("occ", "coroutines", 8, "workload.subscribers_per_node", 2000,
                "workload.call_forwarding_end_time", endTimes, "warmup_ms", 0.5, "duration_ms", 6.0));
        YcsbTatpRuns.assertVerified(r, "tatp", "success rates " + endTimes);
        return r;
    }

    private static double success(RunResult r, String type, long minSample) {
        TxnTypeStats s = r.perType.get(type);
        long n = s.commits + s.rolledBack;
        assertTrue(n >= minSample, type + ": only " + n + " finished");
        return s.commits / (double) n;
    }

    private static void assertRate(RunResult r, String type, long minSample, double lo, double hi) {
        double rate = success(r, type, minSample);
        assertTrue(rate >= lo && rate <= hi, String.format("%s: success %.3f not in [%.2f, %.2f]", type, rate, lo, hi));
    }

    @Test
    void steadyEndTimes() {
        RunResult r = run("steady");
        assertEquals(0, r.perType.get("GetSubscriberData").rolledBack);
        assertEquals(0, r.perType.get("UpdateLocation").rolledBack);
        assertTrue(r.perType.get("GetSubscriberData").commits > 5000, "run too small: " + r.perType.get("GetSubscriberData").commits);
        assertRate(r, "GetAccessData", 5000, 0.59, 0.66);
        assertRate(r, "UpdateSubscriberData", 300, 0.55, 0.70);
        assertRate(r, "InsertCallForwarding", 300, 0.25, 0.38);
        assertRate(r, "DeleteCallForwarding", 300, 0.25, 0.38);
        assertRate(r, "GetNewDestination", 1500, 0.165, 0.22);
    }

    @Test
    void specEndTimesMakeGetNewDestinationRarer() {
        RunResult r = run("spec");
        assertRate(r, "GetNewDestination", 1500, 0.12, 0.175);
        assertRate(r, "GetAccessData", 5000, 0.59, 0.66);   // unaffected
    }
}
