package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.store.Table;
import org.rccj.workloads.ycsb.Ycsb;

/** YCSB's key distributions as seen in the store (per-key write counters) and its compute time on sim. */
class YcsbKeysAndComputeTest {
    private static final int KEYS = 6000;   // 3 nodes x 2 threads x 1000
    private static final int HEAD = 10;

    /** Write counters of every key after the run. */
    private static final class Counters implements RunHooks {
        final long[] writes = new long[KEYS];
        long total;

        @Override public void afterRun(Cluster c) {
            Table t = c.store.table(Ycsb.TABLE);
            for (int k = 0; k < KEYS; k++) {
                writes[k] = c.store.field(t, k, Ycsb.COUNTER);
                total += writes[k];
            }
        }

        int top() {
            int best = 0;
            for (int k = 1; k < KEYS; k++) if (writes[k] > writes[best]) best = k;
            return best;
        }

        /** Share of all writes that went to keys [from, to). */
        double share(int from, int to) {
            long n = 0;
            for (int k = from; k < to; k++) n += writes[k];
            return n / (double) total;
        }

        double perKey(int from, int to) { return share(from, to) / (to - from); }
    }

    /** A run without compute time (more transactions per virtual ms) over 6000 keys. */
    private static Counters run(Object... kv) {
        Counters c = new Counters();
        Object[] all = new Object[kv.length + 6];
        System.arraycopy(new Object[] {"workload.keys_per_thread", 1000, "workload.compute_us", 0.0, "duration_ms", 4.0}, 0, all, 0, 6);
        System.arraycopy(kv, 0, all, 6, kv.length);
        RunResult r = ItRuns.run(YcsbTatpRuns.ycsb("occ", all), c);
        YcsbTatpRuns.assertVerified(r, "ycsb", "ycsb keys");
        assertTrue(c.total > 1500, "too few writes: " + c.total);
        return c;
    }

    @Test
    void zipfianKeysAreSkewed() {
        Counters c = run("workload.zipf_theta", 0.8);
        // theta 0.8 over 6000 keys: ranks 0-9 (keys 0-9) get ~15% of the draws, 90x their uniform share;
        // a transaction writes a key at most once, so their share of writes is a bit lower
        assertEquals(0, c.top(), "rank 0 (key 0) should be written most");
        assertTrue(c.share(0, HEAD) > 30.0 * HEAD / KEYS, "keys 0-9 got " + c.share(0, HEAD) + " of the writes");
        assertTrue(c.perKey(0, HEAD) > c.perKey(HEAD, 100) && c.perKey(HEAD, 100) > c.perKey(1000, KEYS),
                "writes per key do not fall with rank");
    }

    @Test
    void uniformKeysAreNot() {
        Counters c = run("workload.hot_probability", 0.0);
        assertTrue(c.share(0, HEAD) < 6.0 * HEAD / KEYS, "keys 0-9 got " + c.share(0, HEAD) + " of the writes with uniform keys");
        assertEquals(1.0 / KEYS, c.perKey(1000, KEYS), 0.2 / KEYS);
    }

    @Test
    void hotAreaGetsItsShare() {
        // hot_fraction 0.005 of 6000 keys = 30 hot keys receiving half of the operations
        Counters c = run("workload.hot_fraction", 0.005, "workload.hot_probability", 0.5);
        double share = c.share(0, 30);
        assertTrue(share > 0.4 && share < 0.6, "hot area share of writes " + share);
    }

    @Test
    void computeTimeIsChargedToTheExecutionStage() {
        // uniform keys over 6000 records: few conflicts, so CPU time is the compute plus the protocol's work
        // 3 ms: transactions cut by the measured window's ends (up to 20 us of compute each) must not move the
        // per-commit figure by more than a fraction of a microsecond
        RunResult none = ItRuns.run(YcsbTatpRuns.ycsb("occ", "workload.keys_per_thread", 1000, "workload.hot_probability", 0.0,
                "workload.compute_us", 0.0, "duration_ms", 3.0));
        RunResult some = ItRuns.run(YcsbTatpRuns.ycsb("occ", "workload.keys_per_thread", 1000, "workload.hot_probability", 0.0,
                "workload.compute_us", 20.0, "duration_ms", 3.0));
        YcsbTatpRuns.assertVerified(some, "ycsb", "compute 20 us");
        assertTrue(none.execute.mean() < 1_000, "EXECUTE without compute: " + none.execute.mean() + " ns");
        assertTrue(some.execute.mean() >= 20_000 && some.execute.mean() < 21_000, "EXECUTE with 20 us compute: " + some.execute.mean() + " ns");
        // busy CPU time, not a sleep: per commit, the cores are busy about 20 us longer (a little more, since
        // aborted attempts computed too); a sleep would add latency but no busy time
        double extraUs = (busyPerCommitNs(some) - busyPerCommitNs(none)) / 1000;
        assertTrue(extraUs >= 20 && extraUs < 26, "busy time per commit grew by " + extraUs + " us");
        assertTrue(some.commits() < none.commits());
    }

    private static double busyPerCommitNs(RunResult r) {
        double busy = 0;
        for (double b : r.busyShare) busy += b * r.measuredS * 1e9 * r.config.threads();
        return busy / r.commits();
    }
}
