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

    /**
     * The warning reads the run's protocol_options, not the defaults: NOWAIT's one-sided RELEASE drops a shared read lock
     * by NIC FAA (read_locks: shared), so the fault can act on hybrid code RELEASE. At 10ebb0c the warning said it could
     * not ("binds no stage that posts NIC atomics one-sided ... bind one of LOCK one-sided").
     */
    @Test
    void incoherentAtomicsReadTheRunsProtocolOptions() {
        RunResult shared = run("nowait", "RELEASE", "faults.incoherent_atomics", true, "protocol_options.read_locks", "shared");
        assertTrue(shared.network.faa > 0, "one-sided RELEASE drops shared read locks by NIC FAA: " + shared.network.faa);
        assertEquals(List.of(), about(shared, "incoherent_atomics"));
        // with exclusive read locks (the default) RELEASE posts no NIC atomic: then the warning holds, naming LOCK only
        RunResult exclusive = run("nowait", "RELEASE", "faults.incoherent_atomics", true);
        assertEquals(List.of("faults.incoherent_atomics cannot occur: hybrid code RELEASE binds no stage that posts NIC atomics one-sided, so no"
                + " NIC atomic runs; bind one of LOCK one-sided"), about(exclusive, "incoherent_atomics"));
        // every atomic stage one-sided with local_access: network: the list it names is the run's (LOCK and RELEASE)
        RunResult nic = run("nowait", "LOCK+RELEASE", "faults.incoherent_atomics", true, "protocol_options.read_locks", "shared");
        assertEquals(1, about(nic, "or bind one of LOCK, RELEASE to RPC").size(), Warnings.of(nic).toString());
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

    // issue 38 finding 7: settings that cannot act under the run's hybrid code or mode, each said once, and not said
    // where they act

    @Test
    void tornReadsWithNoOneSidedReadAreSaid() {
        RunResult rpc = run("occ", "all-rpc", "faults.torn_reads", true);
        assertEquals(0L, rpc.network.read, "all-rpc posts no one-sided READ");
        assertEquals(1, about(rpc, "faults.torn_reads cannot occur: no one-sided READ was posted").size(), Warnings.of(rpc).toString());
        RunResult one = run("occ", "all-onesided", "faults.torn_reads", true);
        assertEquals(List.of(), about(one, "torn_reads"));
    }

    @Test
    void sundialRenewWithRenewOverRpcIsSaid() {
        RunResult rpc = run("sundial", "READ+LOCK", "protocol_options.renew", "batched");
        assertEquals(List.of("protocol_options.renew: batched has no effect: it chooses how the one-sided RENEW runs, and this hybrid code"
                + " sends RENEW over RPC; bind RENEW one-sided (hybrid +RENEW) or drop the option"), about(rpc, "renew"));
        assertEquals(List.of(), about(run("sundial", "READ+LOCK+RENEW", "protocol_options.renew", "batched"), "renew"));
        assertEquals(List.of(), about(run("sundial", "READ+LOCK"), "renew"), "the default is not a setting the user made");
    }

    @Test
    void waitdieRetryWithLockOverRpcIsSaid() {
        RunResult rpc = run("waitdie", "all-rpc", "protocol_options.retry_us", 5.0);
        assertEquals(1, about(rpc, "protocol_options.retry_us: 5.0 has no effect: it paces the one-sided LOCK's retries").size(),
                Warnings.of(rpc).toString());
        assertEquals(List.of(), about(run("waitdie", "LOCK", "protocol_options.retry_us", 5.0), "retry_us"));
    }

    @Test
    void locationCachePreloadOnAllRpcIsSaid() {
        RunResult rpc = run("occ", "all-rpc", "location_cache.preload", "true");
        assertEquals(1, about(rpc, "location_cache.preload: true has no effect on hybrid code all-rpc").size(), Warnings.of(rpc).toString());
        assertEquals(List.of(), about(run("occ", "all-onesided", "location_cache.preload", "true"), "location_cache.preload"));
        assertEquals(List.of(), about(run("occ", "all-rpc"), "location_cache.preload"), "auto preloads nothing on all-rpc");
    }

    @Test
    void occSoftwareCostsWithoutTheSoftwareBaselineAreSaid() {
        RunResult none = run("occ", "all-onesided", "protocol_options.sw_set_ns", 900, "protocol_options.sw_lock_ns", 300);
        assertEquals(List.of("protocol_options.sw_set_ns, protocol_options.sw_lock_ns have no effect: the sw_* costs are charged by the SW-Impl baseline only,"
                + " and this run has software: none; set protocol_options.software: sw-impl or drop them"), about(none, "sw_"));
        assertEquals(List.of(), about(run("occ", "all-onesided", "protocol_options.software", "sw-impl", "protocol_options.sw_set_ns", 900), "sw_"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"calvin", "hades"})
    void incoherentAtomicsOnAProtocolWithoutNicAtomicsNamesNoEmptyList(String protocol) {
        RunResult r = run(protocol, "all-rpc", "faults.incoherent_atomics", true);
        List<String> said = about(r, "incoherent_atomics");
        assertEquals(List.of("faults.incoherent_atomics cannot occur: protocol " + protocol + " posts no NIC atomics on words a CPU atomic"
                + " also updates, in any hybrid code, so no code makes the fault act on it; drop faults.incoherent_atomics"), said);
        assertTrue(Warnings.of(r).stream().noneMatch(w -> w.contains("one of  ")), Warnings.of(r).toString());
    }
}
