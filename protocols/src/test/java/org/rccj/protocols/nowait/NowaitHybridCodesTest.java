package org.rccj.protocols.nowait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;

/** Every one of NOWAIT's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class NowaitHybridCodesTest {
    static Stream<Integer> codes() { return HybridCodes.codes(NowaitFactory.STAGES, 16); }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = HybridCodes.sim("nowait", code);
        HybridCodes.assertVerified(r, "sim code " + code);
        assertTrue(r.aborts() > 0, "the hot set should make some locks conflict");
        assertEquals(r.aborts(), r.abortReasons.getOrDefault("lock_conflict", 0L), "NOWAIT aborts only on lock conflicts: " + r.abortReasons);
        HybridCodes.assertPureCodesUsePureTransports(r, code, NowaitFactory.STAGES);
        if ((code & 1) == 0) assertEquals(0, r.network.cas, "RPC LOCK posted CASes");
        else assertTrue(r.network.cas > 0, "one-sided LOCK posted no CAS");
    }

    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "LOCK+COMMIT", "LOG+RELEASE"})
    void local(String code) {
        HybridCodes.assertVerified(HybridCodes.local("nowait", code), "local " + code);
    }
}
