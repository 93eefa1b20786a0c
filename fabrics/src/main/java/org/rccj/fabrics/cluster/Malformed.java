package org.rccj.fabrics.cluster;

/** A peer sent a frame this node refuses: the run stops and the peer's connection is closed. */
public final class Malformed extends Exception {
    public Malformed(String m) { super(m, null, false, false); }
}
