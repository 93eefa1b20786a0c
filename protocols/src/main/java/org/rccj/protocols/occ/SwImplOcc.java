package org.rccj.protocols.occ;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;

/**
 * HADES's baseline "SW-Impl" (an optimised FaRM) as OCC with its software bookkeeping charged: the OCC
 * stages already do what FaRM's network does (READ of whole records for reads and writes, CAS locks with a
 * version re-read, read-set validation, commit write, unlock; read-only transactions skip locking); each
 * access additionally pays the CPU of {@link SwImplCosts}. {@code protocol_options.software: sw-impl}.
 */
final class SwImplOcc extends OccProtocol {
    private final Map<String, Object> options;
    private final List<SwImplCosts> costs = new ArrayList<>();
    private final long[] commits = new long[1];

    SwImplOcc(HybridCode hybrid, Map<String, Object> options) {
        super(hybrid);
        this.options = options;
    }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) {
        SwImplCosts c = new SwImplCosts(options);
        costs.add(c);
        TxnExecutor inner = super.executor(ctx);
        return new TxnExecutor(ctx) {
            @Override public void begin(Tx tx) { inner.begin(tx); }

            @Override
            public void fetch(Tx tx, int from, int to) {
                inner.fetch(tx, from, to);
                for (int i = from; i < to; i++) c.fetched(ctx, tx.access(i));
                c.settle(ctx);
            }

            @Override
            public void commit(Tx tx) {
                for (int i = 0; i < tx.size(); i++) {
                    Access a = tx.access(i);
                    if (a.write) {
                        c.locked(ctx);
                        c.versionBumped(ctx, a);
                    } else {
                        c.validated(ctx);
                    }
                }
                c.settle(ctx);
                inner.commit(tx);
                commits[0]++;
            }

            @Override public void abort(Tx tx) { inner.abort(tx); }
        };
    }

    @Override
    public Map<String, Double> metrics() {
        Map<String, Double> m = new java.util.LinkedHashMap<>(super.metrics());
        SwImplCosts.sum(costs, "sw_impl.", m);
        m.put("sw_impl.commits_total", (double) commits[0]);
        return m;
    }
}
