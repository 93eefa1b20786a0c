package org.rccj.protocols.calvin;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;
import org.rccj.protocols.Runs;

/**
 * CALVIN on real threads (local fabric): handlers of a node run on several threads, coordinators of several
 * workers share their node's sequencer, one-sided ops race with the owner's scheduler. Same checks as on sim.
 *
 * <p>A transaction crosses several worker threads (coordinator, sequencers, schedulers), so on a machine with
 * more worker threads than free cores its latency is OS scheduling delay (milliseconds). A run that committed
 * too few transactions to mean much is therefore run again once with twice the time; every run is verified.
 */
class CalvinLocalTest {
    static Object[] config(String code, int durationMs) {
        return new Object[] {"protocol", "calvin", "hybrid", code, "fabric", "local",
                "nodes", 2, "threads", 2, "coroutines", 8, "warmup_ms", 50, "duration_ms", durationMs};
    }

    /** A first run in a fresh JVM spends its time in the JIT and in thread start-up; not checked. */
    @BeforeAll
    static void warmUp() {
        Runs.run(Runs.smallBank(config("all-rpc", 50)));
    }

    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "DISPATCH+FORWARD", "EPOCH_SYNC"})
    void local(String code) {
        RunResult r = HybridCodes.local("calvin", code, "coroutines", 8, "warmup_ms", 50, "duration_ms", 100);
        CalvinHybridCodesTest.check(r, "local " + code);
    }
}
