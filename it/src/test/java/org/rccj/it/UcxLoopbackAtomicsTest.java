package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;

/**
 * ucx.loopback_atomics (issue 20 item 5): on RDMA hardware NIC atomics are not atomic with CPU atomics, so where a code
 * posts one-sided atomics every CPU atomic on registered memory (handlers', own-node ops') goes through UCX on the
 * worker's own endpoint. No RDMA NIC here: {@code always} takes that route over shared memory and TCP, where the
 * runs must stay serializable and count their loopback atomics; {@code auto} takes it only on hardware (none here).
 */
class UcxLoopbackAtomicsTest {
    @ParameterizedTest(name = "ucx {0} {1} {2}, loopback {3}, local_access {4}")
    @CsvSource(delimiter = '|', value = {"posix,self|occ|all-onesided|always|cpu", "posix,self|nowait|LOCK|always|network",
            "tcp|nowait|LOCK+RELEASE|always|cpu", "posix,self|occ|all-onesided|auto|cpu"})
    void verifiedThroughTheOwnEndpoint(String tls, String protocol, String code, String loopback, String localAccess) {
        Map<String, Object> m = ItRuns.config(protocol, "smallbank", "hybrid", code, "fabric", "ucx", "ucx.tls", tls,
                "ucx.loopback_atomics", loopback, "local_access", localAccess, "nodes", 3, "threads", 1, "coroutines", 3,
                "warmup_ms", 30, "duration_ms", 200);
        RunResult r = ItRuns.runUntilChecked(m);
        String what = "ucx " + tls + " " + protocol + " " + code + ", loopback " + loopback;
        ItRuns.assertChecked(r, what);
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertTrue(r.verification.passed(), what + ": " + r.verification.invariants());
        double n = r.extra.get("ucx.loopback_atomics");
        if (loopback.equals("always")) assertTrue(n > 0, what + ": no CPU atomic went through the own endpoint " + r.extra);
        else assertEquals(0.0, n, what + ": loopback without RDMA hardware " + r.extra);
    }
}
