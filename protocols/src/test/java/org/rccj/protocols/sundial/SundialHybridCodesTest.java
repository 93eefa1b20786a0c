package org.rccj.protocols.sundial;

import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;

/** Every one of SUNDIAL's 64 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class SundialHybridCodesTest {
    static Stream<Integer> codes() { return HybridCodes.codes(SundialFactory.STAGES, 64); }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = HybridCodes.sim("sundial", code);
        HybridCodes.assertVerified(r, "sim code " + code);
        HybridCodes.assertPureCodesUsePureTransports(r, code, SundialFactory.STAGES);
    }

    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "READ+RENEW+COMMIT", "LOCK+LOG+RELEASE"})
    void local(String code) {
        HybridCodes.assertVerified(HybridCodes.local("sundial", code), "local " + code);
    }
}
