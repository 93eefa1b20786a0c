package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Stream;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;

/** What every protocol's hybrid-code test checks the same way (each adds its protocol's own assertions). */
public final class HybridCodes {
    /** Commits a run must reach before its verification counts (short sim runs reach hundreds). */
    public static final int MIN_COMMITS = 21;

    private HybridCodes() {}

    /** Every valid code of a protocol, checking there are {@code expected} of them. */
    public static Stream<Integer> codes(List<Stage> stages, int expected) {
        List<HybridCode> all = HybridCode.all(stages);
        assertEquals(expected, all.size());
        return all.stream().map(HybridCode::code);
    }

    /** Enough commits; serializable; SmallBank's money invariant holds; every commit was checked. */
    public static void assertVerified(RunResult r, String what) {
        assertTrue(r.commits() >= MIN_COMMITS, what + ": too few commits " + r.commits());
        assertTrue(r.verification.checked(), what);
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("total_money"), what);
        assertTrue(r.verification.txnsChecked() >= r.commits(), what);
    }

    /** The binding really changes the primitives used: all-rpc posts no one-sided verb, all-onesided no RPC. */
    public static void assertPureCodesUsePureTransports(RunResult r, int code, List<Stage> stages) {
        if (code == 0) assertEquals(0, r.network.read + r.network.write + r.network.cas + r.network.faa, "all-rpc used one-sided verbs");
        if (code == HybridCode.allOneSided(stages).code()) assertEquals(0, r.network.rpc, "all-onesided used RPCs");
    }

    /** A SmallBank run on sim with verification (Runs.smallBank's small cluster). */
    public static RunResult sim(String protocol, int code, Object... more) {
        return Runs.run(Runs.smallBank(with(new Object[] {"protocol", protocol, "hybrid", String.valueOf(code)}, more)));
    }

    /**
     * A SmallBank run on the local fabric (2 nodes x 2 threads x 3 coroutines unless {@code more} says otherwise),
     * run again with a doubled window while it has fewer than {@link #MIN_COMMITS} commits (wall-clock runs on a
     * loaded machine can be starved).
     */
    public static RunResult local(String protocol, String code, Object... more) {
        Object[] base = {"protocol", protocol, "hybrid", code, "fabric", "local", "nodes", 2, "threads", 2, "coroutines", 3,
                "warmup_ms", 10, "duration_ms", 50};
        return Runs.runUntilCommits(Runs.smallBank(with(base, more)), MIN_COMMITS);
    }

    private static Object[] with(Object[] base, Object[] more) {
        Object[] kv = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, kv, base.length, more.length);
        return kv;
    }
}
