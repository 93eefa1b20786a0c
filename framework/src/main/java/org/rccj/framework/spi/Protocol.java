package org.rccj.framework.spi;

import java.util.Map;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.TxnExecutor;

/** A protocol instance for one run (built by its {@link ProtocolFactory}). */
public interface Protocol {
    /** The tuple header this protocol needs (lock word, versions, timestamps...). */
    HeaderLayout header();

    /** Called once the store exists and before the run: register RPC handlers, set up shared state. */
    void attach(Cluster cluster);

    /** The engine of one coroutine. */
    TxnExecutor executor(CoroutineContext ctx);

    /** Protocol-specific figures for summary.json's "extra" block (after the run). */
    default Map<String, Double> metrics() { return Map.of(); }
}
