package org.rccj.protocols.sundial;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;

/**
 * protocol_options.renew on a one-sided RENEW: artifact reads the header of every read-only access (one batch),
 * then CASes rts item by item; batched posts a CAS and a wts READ per access that needs renewing. Both keep
 * leases serializable; the artifact's header READs of accesses that need no renewal show up as more READs per
 * renewal. (Every code with both values: IncoherentAtomicsTest.)
 */
class SundialRenewModesTest {
    static RunResult run(String mode) {
        return HybridCodes.sim("sundial", org.rccj.framework.api.Stage.RENEW.bit, "protocol_options.renew", mode,
                "workload.hot_probability", 0.9);
    }

    @Test
    void bothModesVerifyAndTheArtifactReadsEveryReadSetHeader() {
        RunResult artifact = run("artifact"), batched = run("batched");
        HybridCodes.assertVerified(artifact, "renew artifact");
        HybridCodes.assertVerified(batched, "renew batched");
        assertTrue(artifact.network.cas > 0 && batched.network.cas > 0, "no renewal CAS posted");
        // only RENEW is one-sided here: every READ is RENEW's. The artifact reads a header per read-only access,
        // batched one wts per access whose lease needs extending, so the artifact posts more READs per CAS
        double a = (double) artifact.network.read / artifact.network.cas, b = (double) batched.network.read / batched.network.cas;
        assertTrue(a > b, "artifact READs per CAS " + a + " not above batched " + b);
    }
}
