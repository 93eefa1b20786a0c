package org.rccj.framework.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.api.Stage;

/**
 * Decision 0196: WorkerStats records what falls outside the measured interval {@code [warmEnd, end)} into sinks,
 * chosen without a branch; nothing of it may reach the results.
 */
class MeasuredIntervalTest {
    private static final long WARM = 1_000, END = 5_000;

    @Test
    void theIntervalIncludesItsStartAndExcludesItsEnd() {
        WorkerStats s = new WorkerStats(1, WARM, END, 4, false, null);
        assertEquals(0, s.measured(0));
        assertEquals(0, s.measured(WARM - 1));
        assertEquals(1, s.measured(WARM));
        assertEquals(1, s.measured(END - 1));
        assertEquals(0, s.measured(END));
        assertEquals(0, s.measured(Long.MAX_VALUE / 4));
        WorkerStats notStarted = new WorkerStats(1, Long.MAX_VALUE, Long.MAX_VALUE, 4, false, null);
        assertEquals(0, notStarted.measured(123), "bounds not set yet: nothing is measured");
    }

    @Test
    void onlyWhatIsInsideReachesTheStats() {
        WorkerStats s = new WorkerStats(2, WARM, END, 4, false, null);
        long[] outside = {1, 2, 3, 4};
        for (long at : new long[] {WARM - 1, END, END + 10}) {
            s.stage(Stage.LOCK, at, at + 7);
            s.execute(at, at + 9);
            s.commit(1, at - 5, at, 11, outside);
            s.abort(1, "lock", false, at, 13);
            s.abort(0, "logic", true, at, 17);
        }
        assertEquals(0, s.stageTimes(Stage.LOCK).count());
        assertEquals(0, s.executeTimes().count());
        assertEquals(0, s.perType(1).commits);
        assertEquals(0, s.perType(1).latency.count());
        assertEquals(0, s.perType(1).aborts);
        assertEquals(0, s.perType(0).rolledBack);
        assertTrue(s.abortReasons().isEmpty(), "no reason recorded outside: " + s.abortReasons());
        assertEquals(0, s.committedStageNs());
        assertEquals(0, s.rolledBackStageNs());
        assertArrayEquals(new long[4], s.outsideNs());
        assertArrayEquals(new long[4], s.timeline());
        assertEquals(3, s.committedTotal(), "commits over the whole run count every one");

        s.stage(Stage.LOCK, WARM, WARM + 7);
        s.execute(WARM, WARM + 9);
        s.commit(1, WARM - 5, WARM, 11, outside);
        s.abort(1, "lock", false, END - 1, 13);
        s.abort(0, "logic", true, END - 1, 17);
        assertEquals(7, s.stageTimes(Stage.LOCK).sum());
        assertEquals(9, s.executeTimes().sum());
        assertEquals(1, s.perType(1).commits);
        assertEquals(5, s.perType(1).latency.sum());
        assertEquals(1, s.perType(1).aborts);
        assertEquals(1, s.perType(0).rolledBack);
        assertArrayEquals(new long[] {1}, s.abortReasons().get("lock"));
        assertEquals(11, s.committedStageNs());
        assertEquals(17, s.rolledBackStageNs());
        assertArrayEquals(outside, s.outsideNs());
        assertArrayEquals(new long[] {1, 0, 0, 0}, s.timeline());
    }
}
