package org.rccj.protocols.mvcc;

import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.stage.TupleRpc;

/** The RPC half of an MVCC per-tuple stage: its handler works on the protocol's tuple layout. */
abstract class MvccRpc extends TupleRpc {
    protected final MvccTuple tuple;

    MvccRpc(Cluster c, String name, MvccTuple tuple) {
        super(c, name);
        this.tuple = tuple;
    }
}
