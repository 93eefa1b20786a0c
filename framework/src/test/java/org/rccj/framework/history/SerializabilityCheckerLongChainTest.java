package org.rccj.framework.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rccj.framework.history.Txn.txn;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deep graphs: a recursive cycle search would overflow the stack on these. */
class SerializabilityCheckerLongChainTest {
    static final int N = 200_000;
    static final List<String> TABLES = List.of("accounts", "savings");

    /** Txn i reads accounts#1 at the version txn i-1 installed and overwrites it; also touches savings#i. */
    static List<HistoryRecord> chain() {
        List<HistoryRecord> h = new ArrayList<>(N);
        for (long i = 1; i <= N; i++) {
            h.add(txn(i).read(0, 1, i - 1).write(0, 1, i, i - 1).read(1, i, 0).write(1, i, N + i, 0).build());
        }
        return h;
    }

    @Test
    void longSerialChainPasses() {
        CheckResult r = SerializabilityChecker.check(chain(), TABLES);
        assertEquals(List.of(), r.anomalies());
        assertTrue(r.serializable());
        assertEquals(N, r.txnsChecked());
    }

    @Test
    void longChainClosedIntoOneCycleIsFound() {
        List<HistoryRecord> h = chain();
        // The first txn also reads a key that the last txn writes, at the last txn's version: T_N -wr-> T_1.
        h.set(0, txn(1).read(0, 1, 0).write(0, 1, 1, 0).read(1, 1, 0).write(1, 1, N + 1, 0)
                .read(0, 2, 9_999_999).build());
        HistoryRecord last = h.get(N - 1);
        h.set(N - 1, txn(N).read(0, 1, N - 1).write(0, 1, N, N - 1).write(0, 2, 9_999_999, 0).build());
        CheckResult r = SerializabilityChecker.check(h, TABLES);
        assertFalse(r.serializable());
        assertEquals(1, r.anomalies().size(), r.anomalies().toString());
        String c = r.anomalies().get(0);
        assertTrue(c.startsWith("cycle: T1 -"), c);
        assertTrue(c.contains("more edges"), c);
        assertTrue(c.endsWith("-wr(accounts#2 v9999999)-> T1"), c);
        assertEquals(N, last.txn());
    }
}
