package org.rccj.framework.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.primitives.Op;

/**
 * Send-queue flow control (the artifact's {@code post_batch_pending}, rdma_sched.h:52-63): of unsignaled WRs
 * posted in a row to one node, every 64th goes signaled; a signaled WR starts the count again; the count is
 * per destination node.
 */
class FlowControlTest {
    private static Op[] unsignaledWrites(int n, int node) {
        Op[] ops = new Op[n];
        for (int i = 0; i < n; i++) ops[i] = new Op().writeLong(node, 0, 8L * i, i).unsignaled();
        return ops;
    }

    @Test
    void everySixtyFourthUnsignaledWrIsSignaled() {
        int[] run = new int[3];
        Op[] ops = unsignaledWrites(130, 1);
        // posted in doorbell batches of 2 (a COMMIT's install + unlock per record)
        for (int i = 0; i < ops.length; i += 2) CoroutineWorker.flowControl(run, new Op[] {ops[i], ops[i + 1]}, 2);
        for (int i = 0; i < ops.length; i++) {
            assertEquals(i == 63 || i == 127, ops[i].signaled, "WR " + i);
        }
        assertEquals(2, run[1]);
        assertEquals(0, run[0]);
        assertEquals(0, run[2]);
    }

    @Test
    void aSignaledWrRestartsTheCountOfItsNodeOnly() {
        int[] run = new int[3];
        Op[] a = unsignaledWrites(40, 1), b = unsignaledWrites(40, 2);
        CoroutineWorker.flowControl(run, a, 40);
        CoroutineWorker.flowControl(run, b, 40);
        Op signaled = new Op().writeLong(1, 0, 0, 0);
        CoroutineWorker.flowControl(run, new Op[] {signaled}, 1);
        assertEquals(0, run[1]);
        assertEquals(40, run[2]);
        Op[] c = unsignaledWrites(64, 1), d = unsignaledWrites(24, 2);
        CoroutineWorker.flowControl(run, c, 64);
        CoroutineWorker.flowControl(run, d, 24);
        for (int i = 0; i < 64; i++) assertEquals(i == 63, c[i].signaled, "node 1, WR " + i + " after the signaled one");
        for (int i = 0; i < 24; i++) assertEquals(i == 23, d[i].signaled, "node 2, WR " + (40 + i));
    }
}
