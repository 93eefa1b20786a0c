package org.rccj.primitives;

/**
 * The bootstrap services of a fabric whose nodes live in separate processes ({@code tcp}, later {@code rdma}):
 * a start barrier that also checks every process registered the same memory, node 0's word on when the measured
 * window starts (when that is decided during the run), and a gather of per-node reports at node 0 after the run. A fabric adds its own exchange (addresses, queue pair numbers, keys)
 * behind these calls; the framework only ever uses these.
 */
public interface ProcessGroup {
    /** The node this process hosts. */
    int self();

    /**
     * Waits until every process is built and ready to run, then returns the common start of the run on the
     * fabric clock (the same instant on every node). {@code descriptor} describes the registered memory
     * (regions, sizes); node 0 refuses to start when a node's differs from its own.
     */
    long startBarrier(byte[] descriptor);

    /**
     * Node 0, during the run: tells every other node that the measured window starts at {@code start} (fabric clock;
     * {@code warmup_ms: auto}, decided by node 0). Elsewhere nothing.
     */
    void announceWindow(long start);

    /** What node 0 announced with {@link #announceWindow} (on node 0: what it announced), or {@code Long.MAX_VALUE} until then. */
    long announcedWindow();

    /**
     * After {@link Fabric#run}: sends {@code mine} to node 0. On node 0 returns every node's bytes, indexed by
     * node; elsewhere returns null once node 0 has everything.
     */
    byte[][] gather(byte[] mine);
}
