package org.rccj.protocols;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.Stage;

/**
 * Every hybrid code of one protocol runs SmallBank serializably with the money invariant on sim (and pure codes
 * use pure transports); the named codes (or every code) also run on local. A protocol's test names itself
 * and adds its own checks of each sim run ({@link #check}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HybridCodesSuite {
    private final String protocol;
    private final List<Stage> stages;
    private final int count;
    private final String[] local;

    /** @param local the codes run on local; none means every code */
    protected HybridCodesSuite(String protocol, List<Stage> stages, int count, String... local) {
        this.protocol = protocol;
        this.stages = stages;
        this.count = count;
        this.local = local;
    }

    /** The protocol's own checks of the sim run of {@code code}. */
    protected void check(RunResult r, int code) {}

    /** The protocol's own checks of the local run of {@code code}. */
    protected void checkLocal(RunResult r, String code) {}

    Stream<Integer> codes() { return HybridCodes.codes(stages, count); }

    Stream<String> localCodes() { return local.length == 0 ? codes().map(String::valueOf) : Stream.of(local); }

    @ParameterizedTest(name = "sim code {0}")
    @MethodSource("codes")
    void sim(int code) {
        RunResult r = verified(HybridCodes.sim(protocol, code), "sim code " + code);
        check(r, code);
        HybridCodes.assertPureCodesUsePureTransports(r, code, stages);
    }

    @ParameterizedTest(name = "local {0}")
    @MethodSource("localCodes")
    void local(String code) { checkLocal(verified(HybridCodes.local(protocol, code), "local " + code), code); }

    private static RunResult verified(RunResult r, String what) {
        HybridCodes.assertVerified(r, what);
        return r;
    }
}
