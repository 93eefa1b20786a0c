package org.rccj.protocols.mvcc;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.stage.TupleRpc;

/** The RPC half of an MVCC per-tuple stage: its handler works on the protocol's tuple layout. */
abstract class MvccRpc extends TupleRpc {
    protected final MvccTuple tuple;

    MvccRpc(ClusterView c, String name, MvccTuple tuple) {
        super(c, name);
        this.tuple = tuple;
    }
}
