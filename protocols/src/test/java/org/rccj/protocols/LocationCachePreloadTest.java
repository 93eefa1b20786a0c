package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;

/**
 * location_cache.preload: filled at load (the artifact's RDMA_CACHE 1) every one-sided access finds its tuple's
 * location in the cache; lazily filled it pays index READs; all-rpc does not preload by default; a cache bounded
 * by the profile's location_cache.mb holds what fits and says so (extra.location_cache_preloaded; results' Warnings words it).
 */
class LocationCachePreloadTest {
    static RunResult run(String workload, Object... kv) {
        java.util.Map<String, Object> m = workload.equals("smallbank") ? Runs.smallBank(kv)
                : org.rccj.testkit.SmallRuns.set(org.rccj.testkit.SmallRuns.cluster(workload), kv);
        return Runs.run(m);
    }

    @Test
    void preloadedOneSidedAccessesHitTheCache() {
        for (String w : new String[] {"smallbank", "ycsb", "tatp", "tpcc"}) {
            // fetch_items: together: the READ totals below are over a fixed window, and with the default's one-by-one
            // fetches (decision 0201) the preloaded TPC-C run commits so much more that it posts more READs in all
            RunResult warm = run(w, "protocol", "occ", "hybrid", "all-onesided", "fetch_items", "together");
            assertEquals(1.0, warm.extra.get("location_cache_preloaded"), w + ": every loaded tuple fits: " + warm.extra);
            RunResult cold = run(w, "protocol", "occ", "hybrid", "all-onesided", "location_cache.preload", false, "fetch_items", "together");
            assertNull(cold.extra.get("location_cache_preloaded"), w);
            double hot = warm.extra.get("location_cache_hit_rate"), lazy = cold.extra.get("location_cache_hit_rate");
            assertTrue(hot > lazy, w + ": preloaded hit rate " + hot + " not above the lazily filled " + lazy);
            // only tuples inserted during the run (TPC-C's orders) can miss a preloaded cache
            if (!w.equals("tpcc")) assertEquals(1.0, hot, w + ": a loaded tuple missed the preloaded cache");
            assertTrue(warm.network.read < cold.network.read, w + ": the preload saved no index READ");
        }
    }

    @Test
    void allRpcDoesNotPreloadUnlessAsked() {
        assertNull(run("smallbank", "protocol", "occ", "hybrid", "all-rpc").extra.get("location_cache_preloaded"));
        assertEquals(1.0, run("smallbank", "protocol", "occ", "hybrid", "all-rpc", "location_cache.preload", true)
                .extra.get("location_cache_preloaded"));
    }

    @Test
    void aBoundedCachePreloadsWhatFitsAndWarns(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("tiny-cache.profile");
        Files.writeString(profile, "base=cx4-edr\nlocation_cache.mb=0.001\n");
        RunResult r = run("smallbank", "protocol", "nowait", "hybrid", "all-onesided", "profile", profile.toString());
        double share = r.extra.get("location_cache_preloaded");
        assertTrue(share > 0 && share < 1, "a 1 KB cache cannot hold every account: " + share);
        HybridCodes.assertVerified(r, "nowait, bounded preloaded cache");
    }
}
