package org.rccj.fabrics.cluster;

/** A multi-process cluster cannot go on (a node died, hung, was refused or sent garbage); the message names the node. */
public final class ClusterFailure extends RuntimeException {
    public ClusterFailure(String message) { super(message, null, false, false); }
}
