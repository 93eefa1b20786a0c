package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.primitives.CostProfile;

/**
 * Issue 40: the profile's {@code framework.*} parameters (the artifact's CPU around every wait, item, write transaction
 * and UD send; decisions 0177, 0200) are charged on sim, each where the artifact pays it; a profile with all of them at 0 (a lean
 * implementation, examples/profiles/lean.properties) runs and is faster than cx4-edr on NOWAIT all-onesided SmallBank.
 * Sim time is virtual: these compare simulated latencies, never wall time.
 */
class FrameworkCostsTest {
    @TempDir Path dir;

    private static final List<String> FRAMEWORK = CostProfile.PARAMETERS.stream().map(CostProfile.Parameter::key)
            .filter(k -> k.startsWith(CostProfile.FRAMEWORK_PREFIX)).toList();

    /** A profile file: cx4-edr with every framework.* at 0 but {@code key} at {@code value} (none when key is null). */
    private Path profile(String key, long value) throws Exception {
        StringBuilder sb = new StringBuilder("base=cx4-edr\n");
        for (String k : FRAMEWORK) sb.append(k).append('=').append(k.equals(key) ? value : 0).append('\n');
        return Files.writeString(dir.resolve("p-" + key + ".properties"), sb.toString());
    }

    private JsonNode run(String name, String protocol, String hybrid, String... sets) throws Exception {
        Path cfg = Files.writeString(dir.resolve(name + ".yaml"), TcpClusterTest.config(name, "fabric: sim", protocol, hybrid, "smallbank", 1)
                .replace("warmup_ms: 20", "warmup_ms: 0.2").replace("verify: true", "verify: false").replaceAll("protocol_options: .*\n", ""));
        String[] args = new String[4 + 2 * sets.length];
        args[0] = "run"; args[1] = cfg.toString(); args[2] = "--out"; args[3] = "out/" + name;
        for (int i = 0; i < sets.length; i++) { args[4 + 2 * i] = "--set"; args[5 + 2 * i] = sets[i]; }
        Cli.runReal(dir, args).assertOk();
        OutsideStagesTest.assertIdentity(dir.resolve("out/" + name), name);
        return TcpClusterTest.summary(dir.resolve("out/" + name));
    }

    private static double latency(JsonNode s) { return s.get("latency_us").get("mean").asDouble(); }

    @Test
    void theShippedLeanProfileSetsEveryFrameworkParameterToZeroAndIsFaster() throws Exception {
        Path lean = Path.of("..", "examples", "profiles", "lean.properties").toAbsolutePath().normalize();
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(lean)) { p.load(r); }
        assertEquals("cx4-edr", p.getProperty("base"));
        for (String k : FRAMEWORK) assertEquals("0", p.getProperty(k), k);
        CostProfile def = CostProfile.load("cx4-edr");
        for (String k : FRAMEWORK) assertTrue(Double.parseDouble(def.value(k)) > 0, "cx4-edr sets " + k);
        JsonNode withFramework = run("default", "nowait", "all-onesided");
        JsonNode without = run("lean", "nowait", "all-onesided", "profile=" + lean);
        assertTrue(latency(without) < latency(withFramework), "lean " + latency(without) + " us vs cx4-edr " + latency(withFramework) + " us");
        assertTrue(without.get("throughput_tps").asDouble() > withFramework.get("throughput_tps").asDouble());
    }

    /** Each parameter alone costs something where the artifact pays it (and on a path the hybrid code takes). */
    @ParameterizedTest(name = "{0} on {1} {2}")
    @CsvSource({
            "framework.switch_ns, nowait, all-onesided",
            "framework.cq_poll_ns, nowait, all-onesided",
            "framework.scan_slot_ns, occ, all-rpc",
            "framework.rmalloc_ns, nowait, all-onesided",
            "framework.rpc_item_ns, nowait, all-rpc",
            "framework.rdtsc_ns, sundial, all-rpc",
            "framework.write_item_ns, mvcc, all-onesided",
            "framework.log_copy_ns, waitdie, all-rpc",
            "framework.ud_send_poll_ns, occ, all-rpc",
            "framework.lock_check_ns, waitdie, all-rpc",
            "framework.lock_check_ns, waitdie, LOG+COMMIT+RELEASE",
            "framework.lock_check_ns, sundial, all-rpc",
            "framework.lock_check_ns, sundial, LOCK+LOG",
            "framework.recv_post_ns, nowait, all-rpc",
            "framework.recv_wr_ns, mvcc, all-rpc",
            "framework.clean_item_ns, nowait, all-onesided",
            "framework.clean_item_ns, occ, all-rpc"})
    void eachParameterIsCharged(String key, String protocol, String hybrid) throws Exception {
        JsonNode[] runs = leanAndRaised(key, protocol, hybrid);
        JsonNode lean = runs[0], one = runs[1];
        assertTrue(latency(one) > latency(lean), key + ": " + latency(one) + " us vs lean " + latency(lean) + " us");
    }

    /** The lean run of {@code protocol} {@code hybrid}, and the same with {@code key} alone raised to 500 ns. */
    private JsonNode[] leanAndRaised(String key, String protocol, String hybrid) throws Exception {
        return new JsonNode[] {run(protocol + hybrid + "-lean", protocol, hybrid, "profile=" + profile(null, 0)),
                run(protocol + hybrid + "-" + key, protocol, hybrid, "profile=" + profile(key, 500))};
    }

    /**
     * Where the artifact's build has no lock-manager check (rworker.h:133-139: WAITDIE with one-sided LOCK, SUNDIAL all
     * one-sided, every other protocol) the check's parameters change nothing: the run is the lean one.
     */
    @ParameterizedTest(name = "{0} on {1} {2}")
    @CsvSource({
            "framework.lock_check_ns, nowait, all-rpc",
            "framework.lock_check_ns, occ, all-rpc",
            "framework.lock_check_ns, waitdie, LOCK",
            "framework.lock_check_ns, sundial, all-onesided",
            "framework.lock_waiter_ns, waitdie, LOCK"})
    void theLockManagersCheckIsChargedOnlyWhereTheArtifactBuildsIt(String key, String protocol, String hybrid) throws Exception {
        JsonNode[] runs = leanAndRaised(key, protocol, hybrid);
        JsonNode lean = runs[0], one = runs[1];
        assertEquals(latency(lean), latency(one), key);
        assertEquals(lean.get("commits").asLong(), one.get("commits").asLong(), key);
    }

    /** A waiter WAITDIE's RPC lock handler parked is walked in every pass of its worker while it waits. */
    @Test
    void eachParkedWaiterIsWalkedInEveryPass() throws Exception {
        String[] hot = {"workload.accounts_per_thread=20", "workload.hot_probability=0.9"};
        JsonNode lean = run("waiters-lean", "waitdie", "all-rpc", with(hot, "profile=" + profile(null, 0)));
        assertTrue(lean.get("extra").get("rpc_parked").asDouble() > 0, "the hot run parks requests");
        JsonNode one = run("waiters", "waitdie", "all-rpc", with(hot, "profile=" + profile("framework.lock_waiter_ns", 500)));
        assertTrue(latency(one) > latency(lean), latency(one) + " us vs lean " + latency(lean) + " us");
    }

    private static String[] with(String[] a, String b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = b;
        return out;
    }

    /** A misspelt, negative or non-numeric framework parameter is refused before the run: one line naming it, exit 2. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "framework.lock_chek_ns=1      | unknown parameter 'framework.lock_chek_ns'",
            "framework.lock_check_ns=-1    | framework.lock_check_ns=-1 is out of range [0, 100000]",
            "framework.lock_waiter_ns=-3   | framework.lock_waiter_ns=-3 is out of range",
            "framework.recv_post_ns=-1     | framework.recv_post_ns=-1 is out of range",
            "framework.recv_wr_ns=1e9      | framework.recv_wr_ns=1e9 is out of range",
            "framework.clean_item_ns=abc   | framework.clean_item_ns='abc' is not a number"})
    void aBadFrameworkParameterIsRefused(String line, String message) throws Exception {
        Path f = Files.writeString(dir.resolve("bad.properties"), "base=cx4-edr\n" + line.trim() + "\n");
        Path cfg = Files.writeString(dir.resolve("bad.yaml"), TcpClusterTest.config("bad", "fabric: sim", "nowait", "all-rpc", "smallbank", 1));
        Cli.runReal(dir, new String[] {"run", cfg.toString(), "--set", "profile=" + f, "--out", "out/bad"}).assertBadInput(message.trim());
    }

    @Test
    void aProfileFileWithoutFrameworkParametersHasThemAtZero() throws Exception {
        Properties full = new Properties();
        for (var e : CostProfile.parameters("cx4-edr").entrySet()) if (!e.getKey().startsWith(CostProfile.FRAMEWORK_PREFIX)) full.put(e.getKey(), e.getValue());
        Path f = dir.resolve("old.properties");
        try (var w = Files.newBufferedWriter(f)) { full.store(w, null); }
        CostProfile p = CostProfile.load(f.toString());
        for (String k : FRAMEWORK) assertEquals("0", p.value(k), k);
        assertEquals(0, p.fwSwitchNs + p.fwCqPollNs + p.fwScanSlotNs + p.fwRmallocNs + p.fwRpcItemNs + p.fwRdtscNs + p.fwWriteItemNs
                + p.fwLogCopyNs + p.fwUdSendPollNs + p.fwLockCheckNs + p.fwLockWaiterNs + p.fwRecvPostNs + p.fwRecvWrNs + p.fwCleanItemNs);
    }
}
