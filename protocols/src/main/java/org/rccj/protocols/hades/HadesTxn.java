package org.rccj.protocols.hades;

import org.rccj.framework.api.CoroutineContext;

/**
 * The hardware state of one coroutine's transaction on its own node: its LocalRead/WriteBF pair from the
 * node's pool (module 3; one pair per coroutine, so the pool never runs dry) and the 4b record of the nodes
 * it touched (and, for a livelock-fallback attempt, which remote lines it locked and where). Its remote
 * filters (4a) live in the other nodes' NICs ({@link HadesNode#entry}), reached only by messages. A squash
 * (a message through the fabric from another node's NIC, or this node's own directory/NIC) sets a time stamp
 * the coroutine checks whenever it resumes and at its point of no return ({@link #squashed}); until then the
 * attempt runs on.
 */
final class HadesTxn {
    static final long NEVER = Long.MAX_VALUE;

    final HadesProtocol protocol;
    final CoroutineContext ctx;
    final int node;
    final Holder local;
    /**
     * 4b: the nodes this attempt touched, in the order it first did, and a flag per node; and whether a request of
     * it went there (only those nodes may hold an entry of it, so only they are told of its squash).
     */
    final int[] touched;
    private final boolean[] isTouched, reached;
    int touchedCount;
    /** Livelock fallback: per node, the lines this attempt locked there (read, write) and whether it holds the lock. */
    private LineSet[] lockedRead, lockedWrite;
    private boolean[] lockedAt;

    long id;
    boolean active, unsquashable;
    /** This attempt runs the livelock fallback (locks its lines before accessing them). */
    boolean fallback;
    long squashAt = NEVER;
    int consecutiveSquashes;

    HadesTxn(HadesProtocol p, CoroutineContext ctx) {
        this.protocol = p;
        this.ctx = ctx;
        this.node = ctx.node;
        this.local = new Holder(p.options, true);
        this.local.owner = this;
        this.touched = new int[p.nodes()];
        this.isTouched = new boolean[p.nodes()];
        this.reached = new boolean[p.nodes()];
    }

    void begin(long txnId) {
        id = txnId;
        local.txnId = txnId;
        active = true;
        unsquashable = false;
        squashAt = NEVER;
        int threshold = protocol.options.livelockSquashes();
        fallback = threshold > 0 && consecutiveSquashes >= threshold && protocol.hybrid.oneSided(org.rccj.framework.api.Stage.READ);
        local.fallback = fallback;
        for (int k = 0; k < touchedCount; k++) {
            int y = touched[k];
            isTouched[y] = false;
            reached[y] = false;
            if (lockedAt != null && lockedRead[y] != null) {
                lockedAt[y] = false;
                lockedRead[y].clear();
                lockedWrite[y].clear();
            }
        }
        touchedCount = 0;
    }

    /** Records that this attempt accesses node {@code y} (4b). */
    void touch(int y) {
        if (isTouched[y]) return;
        isTouched[y] = true;
        touched[touchedCount++] = y;
    }

    /** A request of this attempt goes to node {@code y}. */
    void reach(int y) { reached[y] = true; }
    boolean reached(int y) { return reached[y]; }

    /** The lines this fallback attempt locks at remote node {@code y} (read, write), and whether it holds the lock there. */
    LineSet lockedRead(int y) { fallbackState(y); return lockedRead[y]; }
    LineSet lockedWrite(int y) { fallbackState(y); return lockedWrite[y]; }
    boolean lockedAt(int y) { return lockedAt != null && lockedAt[y]; }
    void lockedAt(int y, boolean held) { fallbackState(y); lockedAt[y] = held; }

    private void fallbackState(int y) {
        if (lockedAt == null) {
            int n = touched.length;
            lockedAt = new boolean[n];
            lockedRead = new LineSet[n];
            lockedWrite = new LineSet[n];
        }
        if (lockedRead[y] == null) {
            lockedRead[y] = new LineSet();
            lockedWrite[y] = new LineSet();
        }
    }

    /**
     * A squash of attempt {@code txnId} takes effect at {@code at}, unless the attempt is over or past its
     * point of no return; false if it came too late.
     */
    boolean squash(long txnId, long at) {
        if (txnId != id || !active || unsquashable) return false;
        if (at < squashAt) squashAt = at;
        return true;
    }

    boolean squashed() { return squashAt <= ctx.now(); }
}
