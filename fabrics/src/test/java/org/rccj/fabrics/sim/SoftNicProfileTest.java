package org.rccj.fabrics.sim;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.fabrics.bench.PrimitiveBench;
import org.rccj.fabrics.bench.PrimitiveBench.Pattern;
import org.rccj.fabrics.bench.PrimitiveBench.Result;
import org.rccj.fabrics.bench.PrimitiveBench.Scenario;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Verb;

/**
 * The two parameters rcc calibrate sets for a soft NIC: nic.on_cores (the NIC's work takes the node's worker cores)
 * and nic.passive_rpc (a fabric without passive RPCs); the built-in profiles leave sim as it was.
 */
class SoftNicProfileTest {
    @TempDir Path tmp;

    private CostProfile profile(String extra) throws IOException {
        Path f = Files.createTempFile(tmp, "p", ".properties");
        // a NIC that spends 2 us per doorbell: comparable with the workers' own work
        Files.writeString(f, "base=cx4-edr\nnic.wqe_fetch_ns=2000\ncpu.doorbell_ns=2000\n" + extra);
        return CostProfile.load(f.toString());
    }

    @Test
    void nicWorkOnTheCoresSlowsTheWorkersThatShareThem() throws IOException {
        Scenario s = new Scenario("READ", Verb.READ, 64, 2, 1, 8, 1, false, false, Pattern.ALL_TO_ALL);
        Result own = PrimitiveBench.run(profile("nic.on_cores=0\n"), s, 100_000, 2_000_000);
        Result shared = PrimitiveBench.run(profile("nic.on_cores=1\n"), s, 100_000, 2_000_000);
        // each READ costs its issuing core a 2 us doorbell; with the NIC on the cores, its 2 us per doorbell too: ~half the rate
        double ratio = shared.mopsPerMachine() / own.mopsPerMachine();
        assertTrue(ratio > 0.4 && ratio < 0.65, "on_cores=1 / 0: " + ratio);
        // the NIC's share is not the worker's own busy time
        assertEquals(own.clientBusyNsPerOp(), shared.clientBusyNsPerOp(), own.clientBusyNsPerOp() * 0.05);
    }

    @Test
    void passiveRpcFollowsTheProfile() throws IOException {
        assertTrue(new SimFabric(2, 1, CostProfile.load("cx4-edr"), FaultSettings.NONE).endpoint(0, 0).passiveRpc());
        assertTrue(new SimFabric(2, 1, CostProfile.load("cx6-hdr"), FaultSettings.NONE).endpoint(0, 0).passiveRpc());
        assertFalse(new SimFabric(2, 1, profile("nic.passive_rpc=0\n"), FaultSettings.NONE).endpoint(0, 0).passiveRpc());
        assertEquals(0, CostProfile.load("cx4-edr").nicOnCores);
    }
}
