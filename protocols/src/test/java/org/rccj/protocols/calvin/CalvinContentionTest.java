package org.rccj.protocols.calvin;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/**
 * CALVIN's defining behaviour: a scripted, heavily contended batch (96 coordinators whose every transaction touches
 * a hot set of 3 accounts) commits with zero concurrency aborts, serializably, because every node grants locks in
 * the same global order. OCC on the same batch aborts, so the contention is real.
 */
class CalvinContentionTest {
    static Object[] hotSet(String protocol, String code) {
        return new Object[] {"protocol", protocol, "hybrid", code, "nodes", 3, "threads", 2, "coroutines", 16,
                "workload.accounts_per_thread", 2, "workload.hot_fraction", 0.25, "workload.hot_probability", 1.0,
                "duration_ms", 2.0};
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided", "DISPATCH", "FORWARD"})
    void hotSetCommitsWithoutAborts(String code) {
        RunResult r = Runs.run(Runs.smallBank(hotSet("calvin", code)));
        assertTrue(r.commits() > 200, code + ": commits " + r.commits());
        assertEquals(0, r.aborts(), code + ": " + r.abortReasons);
        assertTrue(r.verification.passed(), code + ": " + r.verification);
        // transactions really queued behind each other on the hot tuples
        assertTrue(r.extra.get("calvin_lock_wait_share") > 0.5, code + ": " + r.extra);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void occAbortsOnTheSameBatch(String code) {
        RunResult r = Runs.run(Runs.smallBank(hotSet("occ", code)));
        assertTrue(r.verification.passed(), code + ": " + r.verification);
        assertTrue(r.aborts() > r.commits(), code + ": OCC commits " + r.commits() + ", aborts " + r.aborts());
    }
}
