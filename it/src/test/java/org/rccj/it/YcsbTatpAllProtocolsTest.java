package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.ProtocolFactory;

/**
 * YCSB and TATP under every registered protocol: all-rpc, all-onesided and a mixed code verified on sim;
 * the same three codes verified on local for every protocol that runs there (all but HADES, which is sim only).
 */
class YcsbTatpAllProtocolsTest {
    static final List<String> WORKLOADS = List.of("ycsb", "tatp");
    static final Set<String> LOCAL_PROTOCOLS = Set.of("occ", "nowait", "waitdie", "mvcc", "sundial", "drtm", "calvin");

    static Stream<Arguments> simCases() {
        List<Arguments> out = new ArrayList<>();
        for (ProtocolFactory f : YcsbTatpRuns.protocols()) {
            for (String wl : WORKLOADS) {
                for (String code : List.of("all-rpc", "all-onesided", YcsbTatpRuns.mixedCode(f))) out.add(Arguments.of(wl, f.name(), code));
            }
        }
        return out.stream();
    }

    static Stream<Arguments> localCases() {
        List<Arguments> out = new ArrayList<>();
        for (ProtocolFactory f : YcsbTatpRuns.protocols()) {
            if (!LOCAL_PROTOCOLS.contains(f.name())) continue;
            for (String wl : WORKLOADS) {
                for (String code : List.of("all-rpc", "all-onesided", YcsbTatpRuns.mixedCode(f))) out.add(Arguments.of(wl, f.name(), code));
            }
        }
        assertFalse(out.isEmpty(), "none of " + LOCAL_PROTOCOLS + " is registered");
        return out.stream();
    }

    @ParameterizedTest(name = "sim {0} {1} {2}")
    @MethodSource("simCases")
    void sim(String workload, String protocol, String code) {
        RunResult r = ItRuns.run(YcsbTatpRuns.config(workload, protocol, "hybrid", code));
        String what = "sim " + workload + " " + protocol + " " + code;
        YcsbTatpRuns.assertVerified(r, workload, what);
        long oneSided = r.network.read + r.network.write + r.network.cas + r.network.faa;
        if (code.equals("all-rpc")) assertEquals(0, oneSided, what + ": all-rpc used one-sided verbs");
        else assertTrue(oneSided > 0, what + ": no one-sided verbs");
        if (workload.equals("tatp")) assertTrue(r.rolledBack() > 0, what + ": no lookup ever failed");
    }

    @ParameterizedTest(name = "local {0} {1} {2}")
    @MethodSource("localCases")
    void local(String workload, String protocol, String code) {
        RunResult r = ItRuns.runUntilCommits(YcsbTatpRuns.config(workload, protocol, "hybrid", code, "fabric", "local",
                "nodes", 2, "threads", 2, "coroutines", 3, "warmup_ms", 30, "duration_ms", 100), 21);
        YcsbTatpRuns.assertVerified(r, workload, "local " + workload + " " + protocol + " " + code);
    }
}
