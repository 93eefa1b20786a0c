package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;

/** Every one of DrTM's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class DrtmHybridCodesTest {
    static Stream<Integer> codes() { return HybridCodes.codes(DrtmFactory.STAGES, 16); }

    static void check(RunResult r, String what) {
        HybridCodes.assertVerified(r, what);
        // every path of the protocol was exercised
        assertTrue(r.extra.get("htm_commits") > 0, what + ": no transaction committed through the HTM region " + r.extra);
        assertTrue(r.extra.get("read_leases_granted") > 0, what + ": no read lease granted " + r.extra);
        assertTrue(r.extra.get("read_only_commits") > 0, what + ": no read-only commit " + r.extra);
    }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = HybridCodes.sim("drtm", code);
        check(r, "sim code " + code);
        HybridCodes.assertPureCodesUsePureTransports(r, code, DrtmFactory.STAGES);
    }

    @ParameterizedTest(name = "local {0}")
    @ValueSource(strings = {"all-rpc", "all-onesided", "LOCK+COMMIT", "READ+LOG"})
    void local(String code) {
        RunResult r = HybridCodes.local("drtm", code);
        check(r, "local " + code);
    }
}
