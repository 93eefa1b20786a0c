package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/** The emulated HTM region's capacity and conflict aborts turn into commits on the lock-based fallback path. */
class DrtmFallbackTest {
    /**
     * One node, so every record is local and every read-write transaction runs in the HTM region. A capacity
     * of one line fits DepositChecking and TransactSavings (one 32-byte tuple) but not Amalgamate or
     * WriteCheck (tuples of two tables: two lines): those abort for capacity and commit on the fallback path.
     */
    @Test
    void capacityAbortTurnsIntoFallbackCommit() {
        for (String code : new String[] {"all-rpc", "all-onesided"}) {
            RunResult r = Runs.run(Runs.smallBank("protocol", "drtm", "hybrid", code, "nodes", 1, "replication", 1,
                    "protocol_options.htm_capacity_lines", 1));
            assertTrue(r.verification.passed(), code + ": " + r.verification);
            double capacity = r.extra.get("htm_capacity_aborts"), fallback = r.extra.get("fallback_commits");
            assertTrue(capacity > 0, code + ": no capacity abort " + r.extra);
            assertTrue(fallback > 0, code + ": no fallback commit " + r.extra);
            assertEquals(r.abortReasons.getOrDefault("htm_capacity", 0L).doubleValue(), capacity, code + ": abort reasons and extra disagree");
            assertTrue(r.extra.get("htm_capacity_abort_rate") > 0 && r.extra.get("htm_capacity_abort_rate") <= 1, code + ": " + r.extra);
            // every Amalgamate needs two lines: none commits in the region, all commit on the fallback path
            assertTrue(r.perType.get("Amalgamate").commits > 0, code);
            assertTrue(fallback >= r.perType.get("Amalgamate").commits + r.perType.get("WriteCheck").commits - 2,
                    code + ": two-line transactions committed without the fallback path " + r.extra);
            // one-line transactions still commit in the region
            assertTrue(r.extra.get("htm_commits") > 0, code + ": " + r.extra);
            // the fallback path locks local records through the stages: own-node operations
            assertTrue(r.network.local > 0, code);
        }
    }

    @Test
    void enoughCapacityMeansNoCapacityAbortNorFallback() {
        RunResult r = Runs.run(Runs.smallBank("protocol", "drtm", "nodes", 1, "replication", 1));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertEquals(0.0, r.extra.get("htm_capacity_aborts"), r.extra.toString());
        assertTrue(r.extra.get("htm_commits") > 0, r.extra.toString());
    }

    /** With no HTM retries allowed, the first conflict abort sends the transaction to the fallback path. */
    @Test
    void conflictAbortsTurnIntoFallbackCommitsWhenRetriesRunOut() {
        RunResult r = Runs.run(Runs.smallBank("protocol", "drtm", "coroutines", 8, "protocol_options.htm_retries", 0,
                "protocol_options.lease_us", 20, "protocol_options.ro_lease_us", 40,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 2.0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertEquals(0.0, r.extra.get("htm_capacity_aborts"), r.extra.toString());
        assertTrue(r.extra.get("htm_conflict_aborts") > 0, r.extra.toString());
        assertTrue(r.extra.get("fallback_commits") > 0, r.extra.toString());
        assertTrue(r.extra.get("fallback_rate") > 0 && r.extra.get("fallback_rate") < 1, r.extra.toString());
    }

    @Test
    void manyRetriesKeepConflictedTransactionsInTheRegion() {
        RunResult r = Runs.run(Runs.smallBank("protocol", "drtm", "coroutines", 8, "protocol_options.htm_retries", 1000,
                "protocol_options.lease_us", 20, "protocol_options.ro_lease_us", 40,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 2.0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("htm_conflict_aborts") > 0, r.extra.toString());
        assertEquals(0.0, r.extra.get("fallback_commits"), r.extra.toString());
    }
}
