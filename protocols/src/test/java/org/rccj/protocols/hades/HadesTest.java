package org.rccj.protocols.hades;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodes;
import org.rccj.protocols.Runs;

/** HADES and HADES-H verify on every workload and binding, with real and with tiny (mostly false-positive) filters. */
class HadesTest {
    private static final String[] TINY = {"protocol_options.local_read_bf_bits", "16", "protocol_options.local_write_bf_bits", "8",
            "protocol_options.local_write_bf_index_bits", "8", "protocol_options.remote_bf_bits", "16"};

    static RunResult run(Map<String, Object> tree) {
        RunResult r = Runs.run(tree);
        assertTrue(r.commits() >= HybridCodes.MIN_COMMITS, "too few commits " + r.commits());
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.verification.txnsChecked() >= r.commits());
        return r;
    }

    /** Every binding of both modes, with both values of passive_ack and of local_access (which HADES ignores: its cores access local memory). */
    @ParameterizedTest(name = "{0} code {1}, passive_ack {2}, local_access {3}")
    @CsvSource({"hades,0,false,network", "hades,2,true,network", "hades,32,false,cpu", "hades,34,true,cpu",
            "hades-h,0,true,cpu", "hades-h,2,false,cpu", "hades-h,32,true,network", "hades-h,34,false,network",
            "hades,34,false,network", "hades-h,34,true,network"})
    void everyBindingVerifiesOnSmallBank(String mode, int code, boolean passiveAck, String localAccess) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "hades", "hybrid", String.valueOf(code), "protocol_options.mode", mode,
                "passive_ack", passiveAck, "local_access", localAccess));
        String what = mode + " code " + code + ", passive_ack " + passiveAck + ", local_access " + localAccess;
        HybridCodes.assertVerified(r, what);
        HybridCodes.assertPureCodesUsePureTransports(r, code, HadesFactory.STAGES);
        assertTrue(r.extra.get("hades.intends") > 0);
        RunResult other = Runs.run(Runs.smallBank("protocol", "hades", "hybrid", String.valueOf(code), "protocol_options.mode", mode,
                "passive_ack", passiveAck, "local_access", localAccess.equals("cpu") ? "network" : "cpu"));
        assertEquals(r.commits(), other.commits(), what + ": HADES keeps its local path whatever local_access says");
        assertEquals(r.network.read + r.network.write + r.network.rpc, other.network.read + other.network.write + other.network.rpc, what);
    }

    /** Too few Locking Buffers for the transactions in flight: the run's warnings say the result is bound by that setting; enough: no warning. */
    @Test
    void fullLockingBuffersAreWarnedOf() {
        HadesFactory f = new HadesFactory();
        RunResult few = Runs.run(Runs.smallBank("protocol", "hades", "hybrid", "all-rpc", "coroutines", 8, "protocol_options.locking_buffers", 1));
        List<String> w = f.warnings(few.extra, few.commits(), few.config.protocolOptions());
        assertEquals(1, w.size(), few.extra.toString());
        assertTrue(w.get(0).contains("protocol_options.locking_buffers = 1"), w.get(0));
        RunResult many = Runs.run(Runs.smallBank("protocol", "hades", "hybrid", "all-rpc", "coroutines", 8, "protocol_options.locking_buffers", 1024));
        assertEquals(List.of(), f.warnings(many.extra, many.commits(), many.config.protocolOptions()), many.extra.toString());
        // the default (0, decision 0185): a Locking Buffer per pool pair, so no commit ever waits for one
        RunResult byDefault = Runs.run(Runs.smallBank("protocol", "hades", "hybrid", "all-rpc", "coroutines", 8));
        assertEquals(0.0, byDefault.extra.get("hades.locking_buffer_waits"), byDefault.extra.toString());
        assertTrue(byDefault.commits() > 0);
    }

    static Map<String, Object> workload(String name, String mode, String... more) {
        Map<String, Object> t = Runs.smallBank("protocol", "hades", "hybrid", "all-onesided", "protocol_options.mode", mode);
        Map<String, Object> wl = new java.util.LinkedHashMap<>();
        wl.put("name", name);
        switch (name) {
            case "tatp" -> wl.put("subscribers_per_node", 2000);
            case "tpcc" -> { wl.put("scale_down", 10); wl.put("warehouses_per_thread", 1); }
            case "ycsb" -> { wl.put("keys_per_thread", 500); wl.put("ops_per_txn", 5); wl.put("write_probability", 0.5); wl.put("zipf_theta", 0.9); wl.put("compute_us", 1); }
            default -> { }
        }
        t.put("workload", wl);
        for (int i = 0; i < more.length; i += 2) Runs.put(t, more[i], more[i + 1]);
        return t;
    }

    @ParameterizedTest
    @CsvSource({"tatp,hades", "tatp,hades-h", "tpcc,hades", "tpcc,hades-h", "ycsb,hades", "ycsb,hades-h"})
    void verifiesOnTheOtherWorkloads(String wl, String mode) {
        RunResult r = run(workload(wl, mode));
        assertTrue(r.verification.invariants().values().stream().allMatch(b -> b), r.verification.invariants().toString());
    }

    /** Filters of a few bits answer "maybe" to most probes: more squashes and stalls, and still no conflict missed. */
    @ParameterizedTest
    @CsvSource({"smallbank,hades", "smallbank,hades-h", "ycsb,hades", "tpcc,hades"})
    void tinyFiltersCostSquashesButMissNothing(String wl, String mode) {
        RunResult real = run(workload(wl, mode));
        RunResult tiny = run(workload(wl, mode, TINY));
        assertTrue(tiny.extra.get("hades.false_positives") > 100, "tiny filters gave few false positives: " + tiny.extra);
        // several times the real filters' rate (TPC-C's New-Order already fills the real 1 Kbit filters to ~4%)
        assertTrue(tiny.extra.get("hades.false_positive_rate") > 5 * real.extra.get("hades.false_positive_rate") + 0.01,
                "tiny " + tiny.extra.get("hades.false_positive_rate") + " vs real " + real.extra.get("hades.false_positive_rate"));
        // false positives cost stalls (and squashes): fewer commits in the same virtual time
        assertTrue(tiny.extra.get("hades.false_positive_stalls") > real.extra.get("hades.false_positive_stalls"), tiny.extra.toString());
        assertTrue(tiny.commits() < real.commits(), "tiny filters cost nothing: " + tiny.commits() + " vs " + real.commits());
    }

    /** After one squash every retry locks its lines first (waiting on holders): many fallback attempts, still serializable. */
    @ParameterizedTest
    @CsvSource({"hades,34", "hades-h,34", "hades,2"})
    void livelockFallbackLocksFirstAndVerifies(String mode, int code) {
        Object[] hot = {"protocol", "hades", "hybrid", String.valueOf(code), "protocol_options.mode", mode, "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 3.0};
        java.util.Map<String, Object> off = Runs.smallBank(hot);
        Runs.put(off, "protocol_options.livelock_squashes", 0);
        java.util.Map<String, Object> on = Runs.smallBank(hot);
        Runs.put(on, "protocol_options.livelock_squashes", 1);
        RunResult without = run(off), with = run(on);
        assertEquals(0.0, without.extra.get("hades.fallback_attempts"));
        assertTrue(with.extra.get("hades.fallback_attempts") > 50, with.extra.toString());
        assertTrue(with.extra.get("hades.fallback_lock_waits") > 0, "fallback attempts wait on holders instead of being squashed");
    }

    /**
     * Squashes of remote transactions travel as fabric messages and abort their victims when they arrive; a squashed
     * attempt's NIC tells the other nodes its requests reached, at most one release message per node (decision 0205).
     */
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "all-rpc"})
    void squashMessagesCrossTheFabric(String hybrid) {
        RunResult r = run(Runs.smallBank("protocol", "hades", "hybrid", hybrid, "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 3.0));
        assertTrue(r.extra.get("hades.squash_messages") > 0, r.extra.toString());
        assertTrue(r.extra.get("hades.squashes_taken") > 0, "some arrive while the victim runs: " + r.extra);
        assertTrue(r.extra.get("hades.squashes_stale") <= r.extra.get("hades.squash_messages"));
        double releases = r.extra.get("hades.release_messages"), aborts = 0;     // both counted from the start, warm-up too
        for (var e : r.extra.entrySet()) if (e.getKey().startsWith("hades.abort.")) aborts += e.getValue();
        assertTrue(releases > 0, "squashed attempts release their entries by message: " + r.extra);
        assertTrue(releases <= aborts * (r.config.nodes() - 1), releases + " releases for " + aborts + " aborts");
    }

    /** Drawn LLC-eviction squashes abort attempts that wrote local lines, and the runs still verify. */
    @Test
    void evictionSquashesAbortAndVerify() {
        RunResult none = run(workload("ycsb", "hades"));
        RunResult some = run(workload("ycsb", "hades", "protocol_options.eviction_squash_rate", "0.2"));
        assertEquals(0.0, none.extra.get("hades.abort.eviction"));
        assertTrue(some.extra.get("hades.abort.eviction") > 20, some.extra.toString());
        // a rate of 0.2 costs no measurable commits in this short contended run: an eviction squash often hits an
        // attempt that would have aborted on a conflict anyway, and since sim serves RPCs at the poll point (issue 22)
        // it commits about as many (315 vs 312); at 0.8 the squashes outnumber the conflicts and cost commits (150)
        RunResult many = run(workload("ycsb", "hades", "protocol_options.eviction_squash_rate", "0.8"));
        assertTrue(many.extra.get("hades.abort.eviction") > some.extra.get("hades.abort.eviction"), many.extra.toString());
        assertTrue(many.commits() < none.commits(), many.commits() + " vs " + none.commits());
    }

    @Test
    void skippingTheRemoteProbeAtCommitIsCaught() {
        RunResult r = Runs.run(Runs.smallBank("protocol", "hades-noprobe", "hybrid", "all-onesided", "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 5.0));
        assertTrue(r.verification.checked());
        assertFalse(r.verification.serializable(), "skipping the NIC probe went unnoticed");
        assertTrue(r.verification.anomalies().stream().anyMatch(a -> a.startsWith("cycle")), r.verification.anomalies().toString());
        // the same run with the probe is serializable
        run(Runs.smallBank("protocol", "hades", "hybrid", "all-onesided", "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 5.0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hades", "hades-h"})
    void localFabricIsRefusedWithOneLine(String mode) {
        ConfigException e = assertThrows(ConfigException.class, () -> Runs.run(Runs.smallBank("protocol", "hades", "fabric", "local",
                "protocol_options.mode", mode)));
        assertTrue(e.getMessage().startsWith("fabric: protocol hades needs"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void sameSeedSameResults() {
        RunResult a = Runs.run(workload("ycsb", "hades"));
        RunResult b = Runs.run(workload("ycsb", "hades"));
        assertEquals(a.commits(), b.commits());
        assertEquals(a.extra, b.extra);
    }
}
