package org.rccj.fabrics.tcp;

/** The tcp cluster cannot go on (a node died, hung, was refused or sent garbage); the message names the node. */
public final class TcpFailure extends RuntimeException {
    public TcpFailure(String message) { super(message, null, false, false); }
}
