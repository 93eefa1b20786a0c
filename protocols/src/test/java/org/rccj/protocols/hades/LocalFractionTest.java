package org.rccj.protocols.hades;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/** workload.local_fraction puts that share of picked keys on the coordinator's node (YCSB and SmallBank). */
class LocalFractionTest {
    static RunResult run(String workload, double fraction) {
        Map<String, Object> t = HadesTest.workload(workload, "hades", "protocol", "occ", "replication", "1");
        t.remove("protocol_options");
        Runs.put(t, "workload.local_fraction", fraction);
        Runs.put(t, "local_access", "cpu");     // own-node accesses then take the local shortcut, which counts them
        RunResult r = Runs.run(t);
        assertTrue(r.verification.passed(), r.verification.toString());
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ycsb", "smallbank"})
    void allLocalOrNoneLocal(String workload) {
        RunResult local = run(workload, 1.0);
        assertTrue(local.commits() > 0);
        assertEquals(0, local.network.read + local.network.write + local.network.cas, "every access on the coordinator's node");
        assertTrue(local.network.local > 0);
        RunResult remote = run(workload, 0.0);
        assertEquals(0, remote.network.local, "no access on the coordinator's node");
        assertTrue(remote.network.read > 0);
    }
}
