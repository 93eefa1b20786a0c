package org.rccj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.results.Warnings;

/**
 * A setting that cannot change a run is said in its result's warnings, not accepted silently (issue 33):
 * faults.incoherent_atomics where no CPU atomic can meet a NIC atomic (the default local_access: network with every
 * atomic stage one-sided, or no stage posting NIC atomics one-sided), and passive_ack on CALVIN and HADES.
 */
class SettingsWithoutEffectTest {
    private static RunResult run(String protocol, String code, Object... kv) {
        java.util.Map<String, Object> m = ItRuns.config(protocol, "smallbank", "hybrid", code, "workload.accounts_per_thread", 50);
        for (int i = 0; i < kv.length; i += 2) ItRuns.put(m, (String) kv[i], kv[i + 1]);
        return ItRuns.run(m);
    }

    private static List<String> about(RunResult r, String key) {
        return Warnings.of(r).stream().filter(w -> w.contains(key)).toList();
    }

    @Test
    void incoherentAtomicsThatCannotOccurAreSaid() {
        RunResult nic = run("occ", "all-onesided", "faults.incoherent_atomics", true, "local_access", "network");
        assertEquals(0.0, nic.extra.get("atomic_races"), nic.extra.toString());
        assertEquals(0.0, nic.extra.getOrDefault("loopback_atomics", 0.0), "no CPU atomic at all: " + nic.extra);
        assertEquals(1, about(nic, "faults.incoherent_atomics cannot occur: every atomic goes through the NIC").size(), Warnings.of(nic).toString());

        RunResult rpc = run("occ", "all-rpc", "faults.incoherent_atomics", true);
        assertEquals(0L, rpc.network.cas + rpc.network.faa, "all-rpc posts no NIC atomic");
        assertEquals(1, about(rpc, "faults.incoherent_atomics cannot occur: hybrid code all-rpc binds no stage that posts NIC atomics").size(),
                Warnings.of(rpc).toString());

        // where CPU atomics (the local shortcut) meet the NIC's, the fault bites: they take the loopback, and no warning
        RunResult cpu = run("occ", "all-onesided", "faults.incoherent_atomics", true, "local_access", "cpu");
        assertTrue(cpu.extra.get("loopback_atomics") > 0, cpu.extra.toString());
        assertEquals(List.of(), about(cpu, "incoherent_atomics"));
        assertTrue(cpu.verification.passed(), cpu.verification.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"calvin", "hades"})
    void passiveAckOnAProtocolThatSendsNoCommitRpcIsSaid(String protocol) {
        RunResult r = run(protocol, "all-rpc", "passive_ack", true);
        assertEquals(List.of("passive_ack: true has no effect on protocol " + protocol
                + " (it sends no COMMIT RPC that could go passive): this run is the same as without it"), about(r, "passive_ack"));
        assertEquals(ItRuns.deterministicSummary(run(protocol, "all-rpc", "passive_ack", false))
                        .replace("\"passive_ack\":false", "\"passive_ack\":true").replaceAll(",?\"warnings\":\\[[^\\]]*\\]", ""),
                ItRuns.deterministicSummary(r).replaceAll(",?\"warnings\":\\[[^\\]]*\\]", ""),
                "the same run with and without passive_ack");
    }

    @Test
    void passiveAckWhereItAppliesIsNotWarnedAbout() {
        RunResult r = run("occ", "all-rpc", "passive_ack", true);
        assertEquals(List.of(), about(r, "passive_ack"));
    }
}
