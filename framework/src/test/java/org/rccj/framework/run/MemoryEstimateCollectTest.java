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
}
