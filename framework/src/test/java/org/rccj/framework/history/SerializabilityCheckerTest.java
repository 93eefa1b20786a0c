package org.rccj.framework.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rccj.framework.history.Txn.txn;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SerializabilityCheckerTest {
    static final List<String> TABLES = List.of("accounts", "savings");
    static final int ACC = 0, SAV = 1;

    private static long count(List<String> anomalies, String fragment) {
        return anomalies.stream().filter(a -> a.contains(fragment)).count();
    }

    @Test
    void serialHistoryPasses() {
        List<HistoryRecord> h = List.of(
                txn(1).read(ACC, 7, 0).write(ACC, 7, 101, 0).build(),
                txn(2).read(ACC, 7, 101).read(SAV, 7, 0).write(SAV, 7, 102, 0).write(ACC, 7, 103, 101).build(),
                txn(3).read(ACC, 7, 103).read(SAV, 7, 102).build(),
                txn(4).write(SAV, 7, 104, 102).build(),
                txn(5).read(SAV, 7, 104).read(SAV, 8, 0).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertEquals(List.of(), r.anomalies());
        assertTrue(r.serializable());
        assertEquals(5, r.txnsChecked());
    }

    @Test
    void emptyHistoryPasses() {
        CheckResult r = SerializabilityChecker.check(List.of(), TABLES);
        assertTrue(r.serializable());
        assertEquals(0, r.txnsChecked());
    }

    @Test
    void writeSkewIsACycleOfAntiDependencies() {
        // T1 reads x,y writes x; T2 reads x,y writes y; both read the initial versions.
        List<HistoryRecord> h = List.of(
                txn(1).read(ACC, 1, 0).read(ACC, 2, 0).write(ACC, 1, 11, 0).build(),
                txn(2).read(ACC, 1, 0).read(ACC, 2, 0).write(ACC, 2, 12, 0).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(1, r.anomalies().size(), r.anomalies().toString());
        String cycle = r.anomalies().get(0);
        assertTrue(cycle.startsWith("cycle"), cycle);
        assertTrue(cycle.contains("T1 -rw(accounts#2 v0->v12)-> T2"), cycle);
        assertTrue(cycle.contains("T2 -rw(accounts#1 v0->v11)-> T1"), cycle);
    }

    @Test
    void lostUpdateIsReported() {
        List<HistoryRecord> h = List.of(
                txn(1).read(SAV, 5, 0).write(SAV, 5, 21, 0).build(),
                txn(2).read(SAV, 5, 0).write(SAV, 5, 22, 0).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(1, count(r.anomalies(), "lost update"), r.anomalies().toString());
        String lost = r.anomalies().stream().filter(a -> a.contains("lost update")).findFirst().orElseThrow();
        assertTrue(lost.contains("T1") && lost.contains("T2") && lost.contains("savings#5 v0"), lost);
        // The two read-modify-writes also anti-depend on each other.
        assertEquals(1, count(r.anomalies(), "cycle"), r.anomalies().toString());
    }

    @Test
    void blindWriteForkIsALostUpdateWithoutCycle() {
        List<HistoryRecord> h = List.of(
                txn(1).write(ACC, 5, 21, 0).build(),
                txn(2).write(ACC, 5, 22, 0).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(List.of("lost update: T1 (v21) and T2 (v22) both overwrote accounts#5 v0"), r.anomalies());
    }

    @Test
    void readOfUnknownVersionIsReported() {
        List<HistoryRecord> h = List.of(
                txn(1).write(ACC, 3, 31, 0).build(),
                txn(2).read(ACC, 3, 99).build(),
                txn(3).write(SAV, 3, 33, 77).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(2, r.anomalies().size(), r.anomalies().toString());
        assertEquals(1, count(r.anomalies(), "T2 read accounts#3 v99"), r.anomalies().toString());
        assertEquals(1, count(r.anomalies(), "T3 overwrote savings#3 v77"), r.anomalies().toString());
    }

    @Test
    void sameVersionOnDifferentKeysIsFine() {
        // Version ids only need to be unique per key.
        List<HistoryRecord> h = List.of(
                txn(1).write(ACC, 1, 5, 0).build(),
                txn(2).write(ACC, 2, 5, 0).build(),
                txn(3).write(SAV, 1, 5, 0).build(),
                txn(4).read(ACC, 1, 5).read(ACC, 2, 5).read(SAV, 1, 5).build());
        assertTrue(SerializabilityChecker.check(h, TABLES).serializable());
    }

    @Test
    void duplicateVersionIsReported() {
        List<HistoryRecord> h = List.of(
                txn(1).write(ACC, 4, 41, 0).build(),
                txn(2).write(ACC, 4, 42, 41).build(),
                txn(3).write(ACC, 4, 41, 42).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(1, count(r.anomalies(), "duplicate version: T1 and T3 both installed accounts#4 v41"),
                r.anomalies().toString());
    }

    @Test
    void duplicateTxnIdAndVersionZeroAreReported() {
        List<HistoryRecord> h = List.of(
                txn(8).write(ACC, 1, 0, 0).build(),
                txn(8).read(ACC, 2, 0).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(1, count(r.anomalies(), "duplicate txn id T8"), r.anomalies().toString());
        assertEquals(1, count(r.anomalies(), "as version 0"), r.anomalies().toString());
    }

    @Test
    void readYourOwnWriteAndReadModifyWriteHaveNoSelfCycle() {
        List<HistoryRecord> h = List.of(
                txn(1).read(ACC, 1, 0).write(ACC, 1, 11, 0).read(ACC, 1, 11).build(),
                txn(2).read(ACC, 1, 11).write(ACC, 1, 12, 11).build());
        assertTrue(SerializabilityChecker.check(h, TABLES).serializable());
    }

    @Test
    void threeTxnCycleWithMixedEdgeKinds() {
        // T1 -wr-> T2 (T2 reads x1), T2 -ww-> T3 (T3 overwrites y2), T3 -rw-> T1 (T3 read z0, T1 wrote z).
        List<HistoryRecord> h = List.of(
                txn(1).write(ACC, 1, 1, 0).write(ACC, 3, 3, 0).build(),
                txn(2).read(ACC, 1, 1).write(ACC, 2, 2, 0).build(),
                txn(3).read(ACC, 3, 0).write(ACC, 2, 4, 2).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(1, r.anomalies().size(), r.anomalies().toString());
        String c = r.anomalies().get(0);
        assertTrue(c.contains("-wr(accounts#1 v1)->"), c);
        assertTrue(c.contains("-ww(accounts#2 v2->v4)->"), c);
        assertTrue(c.contains("-rw(accounts#3 v0->v3)->"), c);
    }

    @Test
    void anomalyListIsCappedWithACount() {
        List<HistoryRecord> h = new ArrayList<>();
        for (int k = 0; k < 30; k++) {
            h.add(txn(2L * k + 1).write(ACC, k, 1000 + 2L * k, 0).build());
            h.add(txn(2L * k + 2).write(ACC, k, 1001 + 2L * k, 0).build());
        }
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(SerializabilityChecker.MAX_LISTED + 1, r.anomalies().size());
        assertEquals("... and 10 more", r.anomalies().get(SerializabilityChecker.MAX_LISTED));
    }

    @Test
    void separateCyclesAreEachReported() {
        List<HistoryRecord> h = new ArrayList<>();
        for (int i = 0; i < 3; i++) { // three independent write skews plus serial noise between them
            long a = 10L * i;
            h.add(txn(a + 1).read(SAV, a, 0).read(SAV, a + 1, 0).write(SAV, a, a + 1, 0).build());
            h.add(txn(a + 2).read(SAV, a + 5, 0).build());
            h.add(txn(a + 3).read(SAV, a, 0).read(SAV, a + 1, 0).write(SAV, a + 1, a + 3, 0).build());
        }
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertEquals(3, count(r.anomalies(), "cycle"), r.anomalies().toString());
        assertEquals(3, r.anomalies().size(), r.anomalies().toString());
    }
}
