package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;

/**
 * sim.threads (decision 0146): the same config and seed give the same summary.json on 1, 2 and 3 simulation threads
 * (apart from the environment block, which says how many threads ran, and the simulator's wall and CPU seconds), for
 * every protocol, several seeds and cluster sizes of 4, 16 and 40 nodes; HADES and HADES-H (decision 0205: each node's
 * simulated hardware touched only by its own node) on every workload, both bindings and the livelock fallback.
 */
class ParallelSimDeterminismTest {
    static Stream<Arguments> runs() {
        List<Arguments> a = new ArrayList<>();
        String[] protocols = {"occ", "nowait", "waitdie", "mvcc", "sundial", "calvin", "drtm", "hades"};
        for (int i = 0; i < protocols.length; i++) {
            // 4 nodes, a seed per protocol, the hybrid codes alternating
            a.add(Arguments.of(protocols[i], "smallbank", 4, 11 + i, i % 2 == 0 ? "all-onesided" : "all-rpc", new Object[] {}));
        }
        a.add(Arguments.of("occ", "tpcc", 4, 5, "all-onesided", new Object[] {"replication", 3, "workload.scale_down", 50,
                "workload.max_orders_per_district", 300, "duration_ms", 0.5}));
        a.add(Arguments.of("sundial", "ycsb", 4, 6, "all-onesided", new Object[] {"faults.torn_reads", true, "workload.keys_per_thread", 100}));
        a.add(Arguments.of("calvin", "tatp", 4, 12, "all-onesided", new Object[] {"workload.subscribers_per_node", 100}));
        a.add(Arguments.of("nowait", "smallbank", 4, 7, "all-onesided", new Object[] {"local_access", "network"}));
        a.add(Arguments.of("occ", "smallbank", 4, 8, "all-onesided", new Object[] {"faults.incoherent_atomics", true}));
        a.add(Arguments.of("mvcc", "smallbank", 16, 3, "all-onesided", new Object[] {"threads", 1, "duration_ms", 0.6}));
        a.add(Arguments.of("calvin", "smallbank", 16, 4, "all-rpc", new Object[] {"threads", 1, "duration_ms", 0.6}));
        a.add(Arguments.of("occ", "smallbank", 40, 9, "all-onesided", new Object[] {"threads", 1, "coroutines", 2, "duration_ms", 0.4}));
        a.add(Arguments.of("drtm", "smallbank", 40, 10, "all-onesided", new Object[] {"threads", 1, "coroutines", 2, "duration_ms", 0.4}));
        Object[][] hadesWorkloads = {
                {"smallbank", new Object[] {}},
                {"tpcc", new Object[] {"workload.scale_down", 50, "workload.max_orders_per_district", 300, "duration_ms", 0.5}},
                {"ycsb", new Object[] {"workload.keys_per_thread", 100, "workload.zipf_theta", 0.9}},
                {"tatp", new Object[] {"workload.subscribers_per_node", 100}}};
        for (int w = 0; w < hadesWorkloads.length; w++) {
            for (String mode : new String[] {"hades", "hades-h"}) {
                Object[] more = (Object[]) hadesWorkloads[w][1];
                Object[] extra = java.util.Arrays.copyOf(more, more.length + 2);
                extra[more.length] = "protocol_options.mode";
                extra[more.length + 1] = mode;
                a.add(Arguments.of("hades", hadesWorkloads[w][0], 4, 20 + w, w % 2 == 0 ? "all-onesided" : "all-rpc", extra));
            }
        }
        // the livelock fallback (from the first squash on): its lock requests to other nodes' NICs
        a.add(Arguments.of("hades", "ycsb", 4, 30, "all-onesided", new Object[] {"workload.keys_per_thread", 20, "workload.zipf_theta", 0.99,
                "protocol_options.livelock_squashes", 1}));
        return a.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} nodes seed {3} {4}")
    @MethodSource("runs")
    void sameSummaryOnOneTwoAndThreeThreads(String protocol, String workload, int nodes, int seed, String hybrid, Object[] extra) {
        String one = null;
        for (int threads = 1; threads <= 3; threads++) {
            Map<String, Object> cfg = ItRuns.config(protocol, workload, "nodes", nodes, "seed", seed, "hybrid", hybrid,
                    "sim.threads", threads);
            for (int i = 0; i < extra.length; i += 2) ItRuns.put(cfg, (String) extra[i], extra[i + 1]);
            if (workload.equals("smallbank")) ItRuns.put(cfg, "workload.accounts_per_thread", 200);
            RunResult r = ItRuns.run(cfg);
            assertTrue(r.commits() > 0, "nothing committed: the comparison would prove little");
            assertTrue(r.verification.serializable(), protocol + " on " + threads + " threads: not serializable");
            assertEquals(threads, r.simThreads, "threads used");
            assertNull(r.simThreadsNote, "nothing forced it onto one thread");
            if (java.util.Arrays.asList(extra).contains("protocol_options.livelock_squashes")) {
                assertTrue(r.extra.get("hades.fallback_attempts") > 0, "the livelock fallback never ran: " + r.extra);
            }
            String s = ItRuns.deterministicSummary(r);
            if (one == null) one = s; else assertEquals(one, s, protocol + ": " + threads + " threads vs 1");
        }
    }
}
