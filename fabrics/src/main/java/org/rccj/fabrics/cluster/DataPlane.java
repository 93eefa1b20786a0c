package org.rccj.fabrics.cluster;

import java.nio.ByteBuffer;

/**
 * What a multi-process fabric adds to the {@link ClusterNode} control plane: its own frames on the cluster's
 * connections (a fabric that moves its data elsewhere, e.g. over a NIC library, has none), and when this node's
 * share of the run is over. Every method runs on the control plane's network thread.
 */
public interface DataPlane {
    /** A connection is up, before the network thread starts: the fabric attaches its side of it. */
    default void connected(Link link) {}

    /**
     * A frame of a data type (1..{@link Control#FIRST}-1) arrived on {@code link}: its body is {@code in}'s remaining
     * bytes, to be consumed exactly. {@code scratch[0]} is a reusable buffer of the network thread.
     */
    default void frame(Link link, byte type, ByteBuffer in, byte[][] scratch) throws Malformed {
        throw new Malformed("a frame of unknown type " + type);
    }

    /** Once per pass of the network thread (before links are flushed): work that waited for something. */
    default void pass() {}

    /** True once this node's workers are finished and nothing they posted is in flight: the node reports done, once. */
    boolean finished();

    /** The run stops on a failure ({@link ClusterNode#stopped} is now true): wake the workers so they see it. */
    void stopping();
}
