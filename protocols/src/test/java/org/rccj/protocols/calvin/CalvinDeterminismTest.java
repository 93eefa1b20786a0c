package org.rccj.protocols.calvin;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/** On sim, the same config and seed give the same run (commits, latencies, stages, network, protocol figures). */
class CalvinDeterminismTest {
    /** Everything a run measured that must not depend on anything but config and seed. */
    static String fingerprint(RunResult r) {
        StringBuilder b = new StringBuilder();
        b.append("commits=").append(r.commits()).append(" aborts=").append(r.aborts()).append(" rolled=").append(r.rolledBack());
        r.perType.forEach((t, s) -> b.append(' ').append(t).append('=').append(s.commits).append('/').append(s.latency.sum()));
        b.append(" latency=").append(r.total.latency.sum()).append('/').append(r.total.latency.quantile(0.5)).append('/').append(r.total.latency.max());
        for (Stage s : CalvinFactory.STAGES) b.append(' ').append(s).append('=').append(r.stages.get(s).count()).append('/').append(r.stages.get(s).sum());
        b.append(" net=").append(r.network.read).append('/').append(r.network.write).append('/').append(r.network.cas).append('/')
                .append(r.network.faa).append('/').append(r.network.rpc).append('/').append(r.network.bytes).append('/').append(r.network.doorbells);
        b.append(" events=").append(r.simEvents).append(" extra=").append(r.extra);
        return b.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided", "FORWARD+EPOCH_SYNC"})
    void sameSeedSameRun(String code) {
        String a = fingerprint(Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code)));
        String b = fingerprint(Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code)));
        assertEquals(a, b);
        String other = fingerprint(Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code, "seed", 2)));
        assertNotEquals(a, other, "the seed must matter");
    }
}
