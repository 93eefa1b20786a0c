package org.rccj.protocols.occ;

import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;

/** Every one of OCC's 64 hybrid codes runs SmallBank serializably with the money invariant, on sim and local. */
class OccHybridCodesTest {
    static Stream<Integer> codes() { return HybridCodes.codes(OccFactory.STAGES, 64); }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = HybridCodes.sim("occ", code);
        HybridCodes.assertVerified(r, "sim code " + code);
        HybridCodes.assertPureCodesUsePureTransports(r, code, OccFactory.STAGES);
    }

    @ParameterizedTest(name = "local code {0}")
    @MethodSource("codes")
    void local(int code) {
        HybridCodes.assertVerified(HybridCodes.local("occ", String.valueOf(code)), "local code " + code);
    }
}
