package org.rccj.protocols.occ;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

class OccSmokeTest {
    @Test
    void smoke() {
        for (String h : new String[] {"all-rpc", "all-onesided"}) {
            RunResult r = Runs.run(Runs.smallBank("hybrid", h));
            System.out.println(h + " commits=" + r.commits() + " aborts=" + r.aborts() + " reasons=" + r.abortReasons
                    + " p50us=" + r.total.latency.quantile(0.5) / 1000 + " ver=" + r.verification + " events=" + r.simEvents + " wall=" + r.wallS
                    + " net r/w/cas/rpc=" + r.network.read + "/" + r.network.write + "/" + r.network.cas + "/" + r.network.rpc);
            assertTrue(r.commits() > 0);
            assertTrue(r.verification.passed(), r.verification.toString());
        }
    }
}
