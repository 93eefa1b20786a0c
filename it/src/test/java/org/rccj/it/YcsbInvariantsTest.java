package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.workloads.ycsb.Ycsb;

/** Each YCSB invariant fails when the store is corrupted on purpose after the run, and only that one. */
class YcsbInvariantsTest {
    private static final long KEY = 17;

    private static RunResult corrupted(RunHooks hook, Object... kv) {
        RunResult r = ItRuns.run(YcsbTatpRuns.ycsb("occ", kv), hook);
        assertTrue(r.commits() > 20, "too few commits " + r.commits());
        assertTrue(r.verification.serializable(), r.verification.anomalies().toString());
        assertFalse(r.verification.passed());
        return r;
    }

    @Test
    void uncountedWriteFailsWriteCount() {
        // records without payload (record_bytes 8): bumping a counter cannot break record_consistent
        RunResult r = corrupted(new RunHooks() {
            @Override public void afterRun(Cluster c) {
                Table t = c.store.table(Ycsb.TABLE);
                c.store.setField(t, KEY, Ycsb.COUNTER, c.store.field(t, KEY, Ycsb.COUNTER) + 1);
            }
        }, "workload.record_bytes", 8);
        assertEquals(Map.of("write_count", false, "record_consistent", true), r.verification.invariants());
    }

    @Test
    void partlyInstalledWriteFailsRecordConsistent() {
        RunResult r = corrupted(new RunHooks() {
            @Override public void afterRun(Cluster c) {
                Store s = c.store;
                Table t = s.table(Ycsb.TABLE);
                int lastWord = Ycsb.PAYLOAD + 6 * Ycsb.WORD;   // 64-byte records: counter + 7 payload words
                s.setField(t, KEY, lastWord, s.field(t, KEY, lastWord) ^ 1);
            }
        });
        assertEquals(Map.of("write_count", true, "record_consistent", false), r.verification.invariants());
    }
}
