package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;
import static org.rccj.workloads.tatp.Tatp.*;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;

/** Each TATP invariant fails when the store is corrupted on purpose after the run, and only that one. */
class TatpInvariantsTest {
    private static final long SUBSCRIBERS = 300;   // YcsbTatpRuns.tatp: 3 nodes x 100

    private interface Corruption { void apply(Store s); }

    private static Map<String, Boolean> allHoldBut(String broken) {
        Map<String, Boolean> m = new LinkedHashMap<>();
        for (String inv : YcsbTatpRuns.TATP_INVARIANTS) m.put(inv, !inv.equals(broken));
        return m;
    }

    private static void assertOnlyBroken(String invariant, Corruption corruption) {
        RunResult r = ItRuns.run(YcsbTatpRuns.tatp("occ"), new RunHooks() {
            @Override public void afterRun(Cluster c) { corruption.apply(c.store); }
        });
        assertTrue(r.commits() > 20, "too few commits " + r.commits());
        assertTrue(r.verification.serializable(), r.verification.anomalies().toString());
        assertEquals(allHoldBut(invariant), r.verification.invariants());
        assertFalse(r.verification.passed());
    }

    private static boolean valid(Store s, String table, long key, int validField) { return s.field(s.table(table), key, validField) == 1; }
    private static void setValid(Store s, String table, long key, int validField, long v) { s.setField(s.table(table), key, validField, v); }

    /** The key of the first CALL_FORWARDING slot whose validity and whose facility's validity are as asked. */
    private static long callForwarding(Store s, boolean rowValid, boolean facilityValid) {
        for (long sId = 0; sId < SUBSCRIBERS; sId++) {
            for (int t = 1; t <= SF_TYPES; t++) {
                if (valid(s, SPECIAL_FACILITY, specialFacilityKey(sId, t), SF_VALID) != facilityValid) continue;
                for (long st = 0; st < (long) START_TIMES * START_TIME_STEP; st += START_TIME_STEP) {
                    long k = callForwardingKey(sId, t, st);
                    if (valid(s, CALL_FORWARDING, k, CF_VALID) == rowValid) return k;
                }
            }
        }
        throw new AssertionError("no call forwarding slot with valid=" + rowValid + " and facility valid=" + facilityValid);
    }

    @Test
    void orphanCallForwardingFailsForeignKey() {
        // add a row under a missing facility and remove one elsewhere, so the row count still matches
        assertOnlyBroken("call_forwarding_needs_special_facility", s -> {
            long orphan = callForwarding(s, false, false), existing = callForwarding(s, true, true);
            setValid(s, CALL_FORWARDING, orphan, CF_VALID, 1);
            setValid(s, CALL_FORWARDING, existing, CF_VALID, 0);
        });
    }

    @Test
    void lostCallForwardingFailsCount() {
        assertOnlyBroken("call_forwarding_count", s -> setValid(s, CALL_FORWARDING, callForwarding(s, true, true), CF_VALID, 0));
    }

    @Test
    void appearedAccessInfoFailsStaticRows() {
        assertOnlyBroken("static_rows_as_loaded", s -> {
            for (long sId = 0; sId < SUBSCRIBERS; sId++) {
                for (int t = 1; t <= AI_TYPES; t++) {
                    long k = accessInfoKey(sId, t);
                    if (!valid(s, ACCESS_INFO, k, AI_VALID)) {
                        setValid(s, ACCESS_INFO, k, AI_VALID, 1);
                        return;
                    }
                }
            }
            throw new AssertionError("every subscriber has all four access_info rows");
        });
    }

    @Test
    void wrongSubNbrFailsSubNbrCheck() {
        assertOnlyBroken("sub_nbr_matches_s_id", s -> {
            Table sub = s.table(SUBSCRIBER);
            s.setField(sub, 42, SUB_NBR, s.field(sub, 43, SUB_NBR));
        });
    }
}
