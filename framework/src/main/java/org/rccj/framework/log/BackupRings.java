package org.rccj.framework.log;

/**
 * Where replicated log rings live. A source node's entries go to its {@code replication - 1} backups, the
 * nodes that follow it ({@code source + 1 .. source + replication - 1}, modulo nodes). Each backup therefore
 * hosts rings only for its {@code replication - 1} predecessors, {@code ringsPerSource} rings each (one per
 * writer of the source: a worker, or its sequencer): memory grows with nodes, not nodes squared.
 */
public final class BackupRings {
    private final int nodes, backups, ringsPerSource;
    private final long ringBytes;

    public BackupRings(int nodes, int replication, int ringsPerSource, long ringBytes) {
        this.nodes = nodes;
        this.backups = replication - 1;
        this.ringsPerSource = ringsPerSource;
        this.ringBytes = ringBytes;
    }

    public int backups() { return backups; }
    public long ringBytes() { return ringBytes; }

    /** Bytes each node registers for the rings it hosts. */
    public long regionBytes() { return Math.max(8, (long) backups * ringsPerSource * ringBytes); }

    /** The {@code b}-th backup of a source node, b in 1..backups. */
    public int backup(int source, int b) { return (source + b) % nodes; }

    /** Offset, in {@code backup}'s region, of the ring that writer {@code ring} of {@code source} appends to. */
    public long ringOffset(int backup, int source, int ring) {
        int b = Math.floorMod(backup - source, nodes);
        if (b < 1 || b > backups) throw new IllegalArgumentException("node " + backup + " is not a backup of node " + source);
        return ((long) (b - 1) * ringsPerSource + ring) * ringBytes;
    }
}
