package org.rccj.protocols.mvcc;

import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;

/** Every one of MVCC's 32 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class MvccHybridCodesTest {
    static Stream<Integer> codes() { return HybridCodes.codes(MvccFactory.STAGES, 32); }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = HybridCodes.sim("mvcc", code);
        HybridCodes.assertVerified(r, "sim code " + code);
        HybridCodes.assertPureCodesUsePureTransports(r, code, MvccFactory.STAGES);
    }

    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "READ+COMMIT+RELEASE", "LOCK+LOG"})
    void local(String code) {
        HybridCodes.assertVerified(HybridCodes.local("mvcc", code), "local " + code);
    }
}
