package org.rccj.protocols.sundial;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.stage.DoubleRead;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stats.EventCounts;
import org.rccj.framework.txn.Access;

/**
 * READ stage: the tuple, then its header re-read ({@link DoubleRead}), decided by {@link SundialTuple#acceptRead}.
 */
final class SundialRead extends DoubleRead {
    static final class Rpc extends DoubleRead.Rpc {
        Rpc(ClusterView c) { super(c, "sundial.read", SundialTuple.HEADER_BYTES); }

        @Override
        protected boolean stable(byte[] image, int imageOff, byte[] header, int headerOff) {
            return SundialTuple.stable(image, imageOff, header, headerOff);
        }
    }

    private final Leases leases;
    private final EventCounts<SundialCounters> counters;

    SundialRead(CoroutineContext ctx, Rpc rpc, TupleFetch fetch, Leases leases, EventCounts<SundialCounters> counters) {
        super(ctx, rpc, fetch, SundialTuple.HEADER_BYTES, SundialTuple.NOT_FOUND, SundialTuple.READ_UNSTABLE);
        this.leases = leases;
        this.counters = counters;
    }

    @Override
    protected boolean accept(Access a, byte[] header) {
        int r = SundialTuple.acceptRead(a, leases, a.image, header);
        if (r == SundialTuple.READ_UNSTABLE_RETRY) return false;
        if (r == SundialTuple.READ_OK_LOCKED) counters.inc(SundialCounters.READS_OF_LOCKED);
        return true;
    }

    @Override protected void countRetries(int n) { counters.add(SundialCounters.READ_RETRIES, n); }
}
