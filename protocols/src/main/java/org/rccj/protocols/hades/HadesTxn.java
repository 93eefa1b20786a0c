package org.rccj.protocols.hades;

import java.util.ArrayDeque;
import org.rccj.framework.api.CoroutineContext;

/**
 * The hardware state of one coroutine's transaction: its LocalRead/WriteBF pair from the node's pool
 * (module 3; one pair per coroutine, so the pool never runs dry), its remote entries in other nodes' NICs
 * (4a, one per node touched) and the 4b record of which nodes it touched. A squash (a message through the
 * fabric from another node's NIC, or this node's own directory/NIC) sets a time stamp the coroutine checks
 * whenever it resumes and at its point of no return ({@link #squashed}); until then the attempt runs on.
 */
final class HadesTxn {
    static final long NEVER = Long.MAX_VALUE;

    final HadesProtocol protocol;
    final CoroutineContext ctx;
    final int node;
    final Holder local;
    final RemoteEntry[] remote;
    final int[] touched;
    int touchedCount;
    private final ArrayDeque<RemoteEntry> spare = new ArrayDeque<>();

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
        this.remote = new RemoteEntry[p.nodes()];
        this.touched = new int[p.nodes()];
    }

    void begin(long txnId) {
        id = txnId;
        local.txnId = txnId;
        active = true;
        unsquashable = false;
        squashAt = NEVER;
        int threshold = protocol.options.livelockSquashes();
        fallback = threshold > 0 && consecutiveSquashes >= threshold && protocol.hybrid.oneSided(org.rccj.framework.api.Stage.READ);
        for (int k = 0; k < touchedCount; k++) remote[touched[k]] = null;
        touchedCount = 0;
    }

    /** The NIC entry of this attempt at node {@code y}, registered there on first use. */
    RemoteEntry entry(int y) {
        RemoteEntry e = remote[y];
        if (e != null) return e;
        e = spare.poll();
        if (e == null) e = new RemoteEntry(protocol);
        e.reset(this, id, y);
        protocol.node(y).nic.add(e);
        remote[y] = e;
        touched[touchedCount++] = y;
        return e;
    }

    void recycle(RemoteEntry e) {
        e.owner = null;
        spare.add(e);
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
