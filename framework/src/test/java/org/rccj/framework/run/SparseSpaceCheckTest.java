package org.rccj.framework.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.log.CoordinatorLog;

/**
 * The coordinator log's rings are sparse files in /dev/shm: a run whose rings are larger than its free space would die
 * with SIGBUS once the log wrote past it, so it is refused before any work, naming the sizes and the keys that shrink it.
 */
class SparseSpaceCheckTest {
    private static final String SHRINK = "lower replication (3; 1 keeps no log) or threads";
    private static final List<MemoryEstimate.Part> RINGS = List.of(new MemoryEstimate.Part(CoordinatorLog.REGION, 4L << 20, SHRINK));

    @Test
    void ringsLargerThanTheFreeSpaceAreRefused() {
        int[] collected = {0};
        ConfigException e = assertThrows(ConfigException.class, () -> MemoryEstimate.checkSparseSpace(RINGS, "4 node(s) x 1.0 MiB, this process",
                () -> 1L << 20, () -> collected[0]++, ms -> { }));
        String m = e.getMessage();
        assertTrue(m.contains("4.0 MiB in /dev/shm") && m.contains("/dev/shm has 1.0 MiB free"), m);
        assertTrue(m.contains(SHRINK) && m.contains("use fewer nodes") && m.contains("--shm-size"), m);
        assertTrue(collected[0] > 0, "the rings of earlier runs are collected before refusing");
    }

    @Test
    void ringsThatFitOrNoDevShmPass() {
        assertDoesNotThrow(() -> MemoryEstimate.checkSparseSpace(RINGS, "x", () -> 4L << 20, () -> { }, ms -> { }));
        assertDoesNotThrow(() -> MemoryEstimate.checkSparseSpace(RINGS, "x", () -> -1, () -> { }, ms -> { }));
    }

    /** The mapped rings of an earlier run in this JVM are returned once collected: the check waits for them. */
    @Test
    void ringsOfAnEarlierRunCollectedFirst() {
        long[] free = {1L << 20};
        assertDoesNotThrow(() -> MemoryEstimate.checkSparseSpace(RINGS, "x", () -> free[0], () -> free[0] = 8L << 20, ms -> { }));
    }
}
