package org.rccj.fabrics.tcp;

/**
 * The tcp fabric's data frames (the cluster control plane frames them: {@link org.rccj.fabrics.cluster.Control}):
 * <pre>
 * OS       count:u16, per op: verb:u8 region:i32 offset:i64 length:i32 [CAS: compare:i64 value:i64] [FAA: value:i64] [WRITE: data]
 * OS_RESP  count:u16, per op in order: [READ: data (the requested length)] [CAS/FAA: found:i64]
 * RPC      id:i32 handler:i32 srcWorker:u16 length:i32 data
 * RPC_RESP id:i32 length:i32 data
 * </pre>
 * A doorbell batch to one node is one OS frame, executed in order by the target's network thread; responses
 * to OS frames come back in the order the frames were sent (one thread serves a connection), so they need no id.
 */
final class Wire {
    private Wire() {}

    static final int MAX_BATCH = 4096;
    static final int MAX_OP_BYTES = 16 << 20;

    static final byte OS = 1, OS_RESP = 2, RPC = 3, RPC_RESP = 4;

    /** Verb codes on the wire (only one-sided verbs travel in OS frames). */
    static final byte READ = 0, WRITE = 1, CAS = 2, FAA = 3;
}
