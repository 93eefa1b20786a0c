package org.rccj.fabrics.tcp;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import org.rccj.fabrics.cluster.ClusterSettings;

/**
 * A {@code tcp} node's settings: who it is in the cluster and how it trusts the others ({@link ClusterSettings}),
 * and the connection layout of its data plane.
 *
 * @param cluster     the control plane's settings
 * @param connections the connection layout (config key {@code tcp.connections})
 */
public record TcpSettings(ClusterSettings cluster, Connections connections) {
    public TcpSettings(int self, List<InetSocketAddress> hosts, byte[] secret, byte[] configDigest,
                       long joinTimeoutMs, long peerTimeoutMs, boolean watchParent, PrintStream log, Connections connections) {
        this(new ClusterSettings(self, hosts, secret, configDigest, joinTimeoutMs, peerTimeoutMs, watchParent, log), connections);
    }

    public int self() { return cluster.self(); }
    public int nodes() { return cluster.nodes(); }

    /** How a node's workers reach a peer node. */
    public enum Connections {
        /** One connection per process pair, shared by every worker (and the network threads). */
        PAIR,
        /** One connection per (worker thread, peer node): worker t's requests to node j and their answers use lane t. */
        THREAD;

        /** The config spelling. */
        public String key() { return name().toLowerCase(java.util.Locale.ROOT); }

        public static Connections of(String key) { return valueOf(key.toUpperCase(java.util.Locale.ROOT)); }
    }
}
