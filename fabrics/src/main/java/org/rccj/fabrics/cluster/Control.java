package org.rccj.fabrics.cluster;

/**
 * The frames every connection carries after the handshake: a little-endian int length (of what follows), a type
 * byte and the body. Types below {@link #FIRST} are the fabric's data plane ({@link DataPlane#frame}); these are the
 * control plane's, sent on lane 0 of a node pair (heartbeats on every lane):
 * <pre>
 * HEARTBEAT, DONE, STOP, BYE     (no body)
 * ABORT                          reason (UTF-8)
 * CLOCK_REQ t0:i64 / CLOCK_RESP  t0:i64 clusterNow:i64
 * READY                          the node's memory descriptor; GO start:i64
 * WINDOW                         start:i64 (node 0 to all: the measured window's start, warmup_ms: auto)
 * REPORT                         last:u8 chunk (a node's report to node 0, in chunks of {@link #REPORT_CHUNK})
 * EXCHANGE                       a node's blob, to node 0; EXCHANGE_ALL  per node: length:i32 bytes (node 0 to all)
 * </pre>
 */
public final class Control {
    private Control() {}

    /** Largest frame accepted (report chunks are 4 MiB; a data plane's own frames must fit too). */
    public static final int MAX_FRAME = 64 << 20;
    static final int REPORT_CHUNK = 4 << 20;
    /** Largest blob a node may hand to {@link ClusterNode#exchange}. */
    public static final int MAX_BLOB = 256 << 10;

    /** The first control type: a data plane's frame types are 1..FIRST-1. */
    public static final byte FIRST = 10;
    public static final byte HEARTBEAT = 10, DONE = 11, STOP = 12, ABORT = 13, BYE = 14, CLOCK_REQ = 15, CLOCK_RESP = 16,
            READY = 17, GO = 18, REPORT = 19, EXCHANGE = 20, EXCHANGE_ALL = 21, WINDOW = 22;
}
