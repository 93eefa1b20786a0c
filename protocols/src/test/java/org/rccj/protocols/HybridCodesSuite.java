package org.rccj.protocols;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;

/**
 * Every hybrid code of one protocol runs SmallBank serializably with the money invariant on sim, with both
 * values of {@code passive_ack} and of {@code local_access} (and pure codes use pure transports: all-onesided
 * posts no RPC but the log-clean messages, so it is checked without a log); the named codes (or every code)
 * also run on local, with the four combinations in turn. A protocol's test names itself
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

    /** The values of passive_ack and of local_access; the first of each is the default. */
    static final boolean[] PASSIVE_ACK = {false, true};
    static final String[] LOCAL_ACCESS = {"network", "cpu"};

    /** Every code with the four combinations of the two options. */
    Stream<Arguments> simRuns() {
        return codes().flatMap(c -> Stream.of(PASSIVE_ACK[0], PASSIVE_ACK[1]).flatMap(pa ->
                Stream.of(LOCAL_ACCESS).map(la -> Arguments.of(c, pa, la))));
    }

    /** The local codes, each with the next of the four combinations in turn. */
    Stream<Arguments> localRuns() {
        int[] i = {0};
        return localCodes().map(c -> {
            int k = i[0]++;
            return Arguments.of(c, PASSIVE_ACK[k % 2], LOCAL_ACCESS[(k / 2) % 2]);
        });
    }

    @ParameterizedTest(name = "sim code {0}, passive_ack {1}, local_access {2}")
    @MethodSource("simRuns")
    void sim(int code, boolean passiveAck, String localAccess) {
        String what = "sim code " + code + ", passive_ack " + passiveAck + ", local_access " + localAccess;
        RunResult r = verified(HybridCodes.sim(protocol, code, "passive_ack", passiveAck, "local_access", localAccess), what);
        if (passiveAck != PASSIVE_ACK[0] || !localAccess.equals(LOCAL_ACCESS[0])) return;
        check(r, code);
        boolean allOneSided = code == org.rccj.framework.spi.HybridCode.allOneSided(stages).code();
        HybridCodes.assertPureCodesUsePureTransports(allOneSided ? HybridCodes.sim(protocol, code, "replication", 1) : r, code, stages);
    }

    @ParameterizedTest(name = "local {0}, passive_ack {1}, local_access {2}")
    @MethodSource("localRuns")
    void local(String code, boolean passiveAck, String localAccess) {
        checkLocal(verified(HybridCodes.local(protocol, code, "passive_ack", passiveAck, "local_access", localAccess),
                "local " + code + ", passive_ack " + passiveAck + ", local_access " + localAccess), code);
    }

    private static RunResult verified(RunResult r, String what) {
        HybridCodes.assertVerified(r, what);
        return r;
    }
}
