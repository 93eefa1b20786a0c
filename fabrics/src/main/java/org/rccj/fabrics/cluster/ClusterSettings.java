package org.rccj.fabrics.cluster;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Who this process is in a multi-process cluster and how it finds and trusts the others.
 *
 * @param self          the node this process hosts
 * @param hosts         every node's listen address, indexed by node; a node binds to its own entry only
 * @param secret        the run's shared secret (handshake MAC key)
 * @param configDigest  SHA-256 of the resolved config ({@link ConfigDigest}); a peer with another config is refused
 * @param joinTimeoutMs how long start-up waits for a missing node before naming it
 * @param peerTimeoutMs how long a connected peer may stay silent (heartbeats every 200 ms) before the run stops
 * @param watchParent   stop when the parent process (the launcher) is gone: no orphan nodes
 * @param log           where refused connections and failures are reported, one line each
 */
public record ClusterSettings(int self, List<InetSocketAddress> hosts, byte[] secret, byte[] configDigest,
                              long joinTimeoutMs, long peerTimeoutMs, boolean watchParent, PrintStream log) {
    public int nodes() { return hosts.size(); }
}
