package org.rccj.framework.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A run's memory check counts the direct memory of an earlier run in the same JVM as free once it is garbage. */
class MemoryEstimateCollectTest {
    private static final int GARBAGE = 128 << 20;

    @Test
    void directBuffersOfEarlierRunsAreCollectedBeforeRefusing() {
        System.gc();
        long freeBefore = MemoryEstimate.maxDirectBytes() - MemoryEstimate.directBytesInUse();
        // what fits only if the garbage below is collected
        long needed = (long) (MemoryEstimate.HEADROOM * freeBefore) - (GARBAGE / 4);
        ByteBuffer earlierRun = ByteBuffer.allocateDirect(GARBAGE);
        earlierRun.put(0, (byte) 1);
        long freeWithGarbage = MemoryEstimate.maxDirectBytes() - MemoryEstimate.directBytesInUse();
        assertTrue(needed > MemoryEstimate.HEADROOM * freeWithGarbage, "the test's garbage must make the first look refuse");
        earlierRun = null;
        long available = MemoryEstimate.availableCollecting(needed);
        assertTrue(needed <= MemoryEstimate.HEADROOM * available,
                "after collecting, " + available + " bytes should hold " + needed);
    }

    /** Memory an earlier run returns slowly (many GiB): the check waits while each look finds more free. */
    @Test
    void waitsForSlowlyReturnedMemoryWhileItKeepsComingBack() {
        long[] free = {1_000};
        long[] waited = {0};
        // after the collection the cleaner returns 100 units per 250 ms: 2,000 units free after ~5 s
        long got = MemoryEstimate.availableCollecting(1_800, () -> free[0], () -> { }, ms -> {
            waited[0] += ms;
            free[0] = Math.min(2_000, 1_000 + waited[0] / 250 * 100);
        });
        assertTrue(1_800 <= MemoryEstimate.HEADROOM * got, "should have waited until 2,000 were free, got " + got);
    }

    /** Memory that stays in use ends the wait as soon as a look finds no more free than the one before. */
    @Test
    void stopsWaitingWhenNothingMoreIsFreed() {
        long[] waited = {0};
        long got = MemoryEstimate.availableCollecting(1_800, () -> 1_000, () -> { }, ms -> waited[0] += ms);
        assertTrue(got == 1_000 && waited[0] < 1_000, "gave up after " + waited[0] + " ms with " + got);
    }
}
