package org.rccj.fabrics.tcp;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Who this process is in a {@code tcp} cluster and how it finds and trusts the others.
 *
 * @param self          the node this process hosts
 * @param hosts         every node's listen address, indexed by node; a node binds to its own entry only
 * @param secret        the run's shared secret (handshake MAC key)
 * @param configDigest  SHA-256 of the resolved config; a peer with another config is refused
 * @param joinTimeoutMs how long start-up waits for a missing node before naming it
 * @param peerTimeoutMs how long a connected peer may stay silent (heartbeats every 200 ms) before the run stops
 * @param watchParent   stop when the parent process (the launcher) is gone: no orphan nodes
 * @param log           where refused connections and failures are reported, one line each
 * @param connections   the connection layout (config key {@code tcp.connections})
 */
public record TcpSettings(int self, List<InetSocketAddress> hosts, byte[] secret, byte[] configDigest,
                          long joinTimeoutMs, long peerTimeoutMs, boolean watchParent, PrintStream log, Connections connections) {
    public int nodes() { return hosts.size(); }

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
