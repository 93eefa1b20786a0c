package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/**
 * {@code local} runs for tests on a shared machine. Every run must verify (serializable, invariants);
 * only the amount of work done depends on how much CPU the worker threads got, so a run that committed
 * too little (threads starved by other processes) is repeated with twice the duration, a few times.
 */
final class LocalRuns {
    static final int MIN_COMMITS = 20;

    private LocalRuns() {}

    static RunResult run(Map<String, Object> config, String what) {
        double duration = 30;
        for (int attempt = 1; ; attempt++) {
            Runs.put(config, "warmup_ms", 10.0);
            Runs.put(config, "duration_ms", duration);
            RunResult r = Runs.run(config);
            assertTrue(r.verification.checked(), what);
            assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
            assertFalse(r.verification.invariants().containsValue(false), what + ": " + r.verification.invariants());
            if (r.commits() > MIN_COMMITS || attempt == 4) return r;
            duration *= 2;
        }
    }
}
