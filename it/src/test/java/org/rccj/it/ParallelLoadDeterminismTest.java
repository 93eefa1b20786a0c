package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;

/**
 * Loading on several threads (decision 0157) gives the summary of loading on one: every node's rows are written in the
 * workload's order into the slots taken in that order, and no random draw depends on the loading threads. With the
 * location cache filled lazily, every one-sided access walks the index as loaded, so a different index layout would
 * show in the network figures as well.
 */
class ParallelLoadDeterminismTest {
    @AfterEach
    void clear() { System.clearProperty("rcc.load_threads"); }

    @ParameterizedTest(name = "{0} on {1}, preload {2}")
    @CsvSource({"smallbank, occ, false", "smallbank, nowait, auto", "tpcc, occ, false", "ycsb, sundial, false", "tatp, mvcc, auto"})
    void oneAndSeveralLoadingThreadsGiveTheSameSummary(String workload, String protocol, String preload) {
        String one = null;
        for (int threads : new int[] {1, 3}) {
            System.setProperty("rcc.load_threads", Integer.toString(threads));
            Map<String, Object> cfg = ItRuns.config(protocol, workload, "nodes", 5, "seed", 21, "hybrid", "all-onesided",
                    "location_cache.preload", preload);
            if (workload.equals("smallbank")) ItRuns.put(cfg, "workload.accounts_per_thread", 300);
            if (workload.equals("tpcc")) {
                ItRuns.put(cfg, "workload.scale_down", 50);
                ItRuns.put(cfg, "workload.max_orders_per_district", 300);
                ItRuns.put(cfg, "duration_ms", 0.5);
            }
            if (workload.equals("ycsb")) ItRuns.put(cfg, "workload.keys_per_thread", 200);
            if (workload.equals("tatp")) ItRuns.put(cfg, "workload.subscribers_per_node", 100);
            RunResult r = ItRuns.run(cfg);
            assertTrue(r.commits() > 0, "nothing committed: the comparison would prove little");
            assertTrue(r.verification.passed(),
                    workload + " loaded on " + threads + " threads: not verified");
            String s = ItRuns.deterministicSummary(r);
            if (one == null) one = s; else assertEquals(one, s, workload + ": loaded on " + threads + " threads vs 1");
        }
    }
}
