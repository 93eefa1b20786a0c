package org.rccj.protocols.calvin;

import static org.junit.jupiter.api.Assertions.*;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/**
 * Transactions with dependent keys (test workload "pointers") run under OLLP: reconnaissance reads, then the
 * whole access set is sequenced and locked and the transaction commits only if its values did not change.
 */
class CalvinOllpTest {
    /** A small cluster on the hot "pointers" workload (8 pointers over 6 accounts, 48 coordinators). */
    static Map<String, Object> pointers(String protocol, String code) {
        Map<String, Object> m = Runs.smallBank("protocol", protocol, "hybrid", code, "coroutines", 8, "duration_ms", 2.0);
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put("name", "pointers");
        wl.put("pointers", 8);
        wl.put("accounts", 6);
        m.put("workload", wl);
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided", "FORWARD"})
    void dependentKeysStayCorrect(String code) {
        RunResult r = Runs.run((pointers("calvin", code)));
        assertTrue(r.verification.passed(), code + ": " + r.verification);
        assertTrue(r.commits() > 200, code + ": commits " + r.commits());
        // stale reconnaissance values were caught and retried
        assertTrue(r.abortReasons.getOrDefault("ollp_changed", 0L) > 0, code + ": " + r.abortReasons);
        assertEquals(r.aborts(), r.abortReasons.getOrDefault("ollp_changed", 0L) + r.abortReasons.getOrDefault("ollp_learn", 0L),
                code + ": only OLLP aborts: " + r.abortReasons);
    }

    /** A workload whose saved pick misses an input: the active participants' replay diverges and the run stops. */
    @Test
    @SuppressWarnings("unchecked")
    void aReplayThatDivergesStopsTheRun() {
        Map<String, Object> m = pointers("calvin", "all-onesided");
        ((Map<String, Object>) m.get("workload")).put("pick_forgets_target", true);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Runs.run(m));
        assertTrue(e.getMessage().contains("diverged"), e.getMessage());
    }
}
