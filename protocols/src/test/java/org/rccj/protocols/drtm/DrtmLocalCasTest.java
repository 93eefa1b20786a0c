package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;
import org.rccj.primitives.CostProfile;
import org.rccj.protocols.Runs;

/**
 * Which path DrTM's CAS on its own node's lock words takes on sim, and what it costs (docs/decisions/
 * 2026-11-23, issue 9 section 4.3). One node: every record is local, so every DrTM CAS is a local one (the
 * read-only path's lease CAS through the local shortcut, the HTM region's commit marker through
 * RegisteredMemory.cas). On cx4-edr (nic.atomics_coherent=0) with a code that has a one-sided stage, each goes
 * through the local NIC (loopback): the core pays at least the doorbell and the WQE on top of the 25 ns local op.
 * With all-rpc, or a profile whose NIC atomics are coherent, it is a CPU CAS.
 */
class DrtmLocalCasTest {
    private static RunResult run(String hybrid, String profile) {
        return Runs.run(Runs.smallBank("protocol", "drtm", "hybrid", hybrid, "profile", profile, "nodes", 1, "threads", 1,
                "coroutines", 1, "replication", 1, "warmup_ms", 0.0, "duration_ms", 1.0,
                "workload.accounts_per_thread", 1000, "workload.hot_probability", 0.0));
    }

    private static double busyNsPerCommit(RunResult r) { return r.busyShare[0] * r.measuredS * 1e9 / r.commits(); }

    @Test
    void localCasGoesThroughTheLocalNicOnlyWhenNicAtomicsAreIncoherentAndUsed(@TempDir Path dir) throws IOException {
        Path coherent = dir.resolve("coherent.properties");
        Files.writeString(coherent, "base=cx4-edr\nnic.atomics_coherent=1\n");
        RunResult loopback = run("all-onesided", "cx4-edr");
        RunResult allRpc = run("all-rpc", "cx4-edr");
        RunResult cpuCas = run("all-onesided", coherent.toString());
        for (RunResult r : new RunResult[] {loopback, allRpc, cpuCas}) assertTrue(r.verification.passed(), r.verification.toString());

        double perCommit = loopback.extra.getOrDefault("loopback_atomics", 0.0) / loopback.commits();
        assertTrue(perCommit >= 1, "local CAS per commit through the local NIC: " + perCommit + " " + loopback.extra);
        assertFalse(allRpc.extra.containsKey("loopback_atomics"), "all-rpc: no NIC atomic can touch memory, CPU CAS suffices");
        assertFalse(cpuCas.extra.containsKey("loopback_atomics"), "coherent NIC atomics: CPU CAS suffices");

        // the core's extra work per loopback CAS: at least doorbell + WQE (the one-sided lease CAS; the HTM marker
        // CAS also waits for the loopback latency and polls the completion)
        CostProfile p = CostProfile.load("cx4-edr");
        double extra = busyNsPerCommit(loopback) - busyNsPerCommit(cpuCas);
        assertTrue(extra >= 0.9 * perCommit * (p.doorbellNs + p.postWqeNs),
                "busy ns per commit grew by " + extra + " for " + perCommit + " loopback CAS per commit");
    }
}
