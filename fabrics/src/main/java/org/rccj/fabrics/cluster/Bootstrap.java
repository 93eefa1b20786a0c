package org.rccj.fabrics.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link ClusterNode}'s start-up: every connection of the node, each opened by a {@link Handshake}. A connection
 * refused (wrong secret, other config, a replayed hello) costs one log line naming the peer; a node that does not
 * come within the join timeout is named. Only a peer that proves the run's secret and then disagrees (config, size)
 * ends a hand-started node's start at once; a connection that does not prove the secret (a stranger, a garbled or
 * replayed hello, a node given another secret file) is closed and logged, at most one line a second, and the node
 * keeps waiting for its real peers until the join timeout, whose message then names what it refused (issue 38).
 * One exception (decision 0215): a hello that does not prove the secret but comes from the host of the node it
 * claims to be, for this node and this cluster size, is that node with another secret file as far as this node can
 * tell; if no peer proving the secret takes that node's place within {@link #MISMATCH_GRACE_MS}, the start ends
 * then, naming the secret mismatch, rather than at the join timeout.
 */
final class Bootstrap {
    private final ClusterNode node;
    private final ClusterSettings settings;
    private final int self, nodes, lanes;
    private final ServerSocketChannel server;
    private final Link[][] peers;
    private final List<Link> links;
    private final SecureRandom random = new SecureRandom();
    /** Refusals of connections that did not prove the secret: how many, the last one, and the log's rate limit. */
    private int unproven, unlogged;
    private String lastUnproven;
    private long nextLogNs = System.nanoTime();
    static final long LOG_EVERY_NS = 1_000_000_000L;
    /** How long a node claimed by a hello with another secret has to join with the right one (decision 0215). */
    static final long MISMATCH_GRACE_MS = 5_000;
    /** Per peer node: when its grace after a hello with another secret from its host ends (0: none), and that hello. */
    private final long[] mismatchDeadline;
    private final String[] mismatch;

    Bootstrap(ClusterNode node, ClusterSettings settings, int lanes, ServerSocketChannel server, Link[][] peers, List<Link> links) {
        this.node = node;
        this.settings = settings;
        this.self = settings.self();
        this.nodes = settings.nodes();
        this.lanes = lanes;
        this.server = server;
        this.peers = peers;
        this.links = links;
        this.mismatchDeadline = new long[nodes];
        this.mismatch = new String[nodes];
    }

    /** Connects to every lower node and accepts every higher one, {@code lanes} connections each; blocks until done. */
    void meetEveryNode() throws IOException {
        long deadline = System.nanoTime() + settings.joinTimeoutMs() * 1_000_000L;
        for (int j = 0; j < self; j++) {
            for (int l = 0; l < lanes; l++) links.add(peers[j][l] = connect(j, l, deadline));
        }
        server.socket().setSoTimeout(100);
        int missing = (nodes - 1 - self) * lanes;
        while (missing > 0) {
            if (System.nanoTime() > deadline) {
                List<String> names = new ArrayList<>();
                for (int j = self + 1; j < nodes; j++) if (Arrays.asList(peers[j]).contains(null)) names.add("node " + j + " (" + ClusterNode.str(settings.hosts().get(j)) + ")");
                throw new ClusterFailure(String.join(", ", names) + " did not join within "
                        + settings.joinTimeoutMs() / 1000.0 + " s" + (unproven == 0 ? "" : "; refused " + unproven
                        + (unproven == 1 ? " connection" : " connections") + " that did not prove the run's secret (the last "
                        + lastUnproven + "): give every node the same secret file"));
            }
            secretMismatch();
            SocketChannel ch;
            try {
                ch = server.socket().accept().getChannel();
            } catch (java.net.SocketTimeoutException e) {
                continue;
            }
            Link p = accept(ch);
            if (p != null) {
                links.add(peers[p.node][p.lane] = p);
                missing--;
            }
        }
    }

    /** Ends the start when a node whose host sent a hello with another secret has not joined with this one in its grace. */
    private void secretMismatch() {
        long now = System.nanoTime();
        for (int j = self + 1; j < nodes; j++) {
            if (mismatch[j] == null || now - mismatchDeadline[j] < 0 || !Arrays.asList(peers[j]).contains(null)) continue;
            throw new ClusterFailure("node " + j + " (" + str(settings.hosts().get(j)) + ") has another secret: a connection from its host "
                    + mismatch[j] + ", and no node " + j + " that proves it joined within " + MISMATCH_GRACE_MS / 1000.0
                    + " s after; give every node the same secret file");
        }
    }

    /**
     * Whether a refused hello that does not prove the secret is, as far as this node can tell, the node it claims to be
     * with another secret: the right magic, for this node and cluster size, claiming a higher node that has not joined,
     * from that node's host. Not for a node that {@code rcc run} launched (they share the launcher's secret; a node of
     * another run may reuse its port).
     */
    private boolean claimsMissingPeerFromItsHost(Handshake.Hello h, SocketChannel ch) throws IOException {
        if (settings.watchParent() || !h.magicOk() || h.to() != self || h.nodes() != nodes || h.from() <= self || h.from() >= nodes) return false;
        if (!Arrays.asList(peers[h.from()]).contains(null)) return false;
        java.net.InetAddress claimed = settings.hosts().get(h.from()).getAddress();
        java.net.InetAddress from = ((InetSocketAddress) ch.getRemoteAddress()).getAddress();
        return claimed != null && (claimed.equals(from) || claimed.isLoopbackAddress() && from.isLoopbackAddress());
    }

    private Link connect(int j, int lane, long deadline) throws IOException {
        InetSocketAddress addr = settings.hosts().get(j);
        String lastProblem = "";
        while (true) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.socket().connect(addr, 1000);
                // on loopback a connect to a port nobody listens on can pick that very port as its own and "succeed"
                if (ch.getLocalAddress().equals(ch.getRemoteAddress())) throw new IOException("connected to itself");
            } catch (IOException e) {
                ch.close();
                lastProblem = e.getMessage();
                if (System.nanoTime() > deadline) {
                    throw new ClusterFailure("node " + j + " (" + str(addr) + ") did not join within " + settings.joinTimeoutMs() / 1000.0 + " s"
                            + (lastProblem == null || lastProblem.equals("Connection refused") ? "" : " (" + lastProblem + ")"));
                }
                sleep(50);
                continue;
            }
            configure(ch);
            ch.socket().setSoTimeout((int) Math.max(1000, settings.joinTimeoutMs()));
            DataOutputStream out = new DataOutputStream(ch.socket().getOutputStream());
            DataInputStream in = new DataInputStream(ch.socket().getInputStream());
            byte[] nonce = new byte[Handshake.NONCE], challenge = new byte[Handshake.NONCE];
            random.nextBytes(nonce);
            int status;
            try {
                in.readFully(challenge);
                Handshake.Hello.create(settings.secret(), self, j, nodes, lane, settings.configDigest(), nonce, challenge).write(out);
                status = in.readUnsignedByte();
            } catch (IOException e) {
                ch.close();         // e.g. a listener of a previous run about to close: try again
                settings.log().println("rcc: node " + self + ": handshake with node " + j + " (" + str(addr) + ") failed (" + e + "); trying again");
                if (System.nanoTime() > deadline) {
                    throw new ClusterFailure("node " + j + " (" + str(addr) + ") closed the connection during the handshake");
                }
                sleep(50);
                continue;
            }
            if (status != 0) {
                String why = in.readUTF();
                ch.close();
                throw new ClusterFailure("node " + j + " (" + str(addr) + ") refused this node: " + why);
            }
            byte[] ack = new byte[Handshake.MAC];
            in.readFully(ack);
            if (!java.security.MessageDigest.isEqual(ack, Handshake.mac(settings.secret(), "ack", j, self, nodes, lane, settings.configDigest(), nonce, challenge))) {
                ch.close();
                throw new ClusterFailure("node " + j + " (" + str(addr) + ") does not know the run's secret: refused");
            }
            ch.socket().setSoTimeout(0);
            return new Link(node, j, lane, ch);
        }
    }

    /** Reads and checks a handshake; null (and one log line naming the peer) when refused. */
    private Link accept(SocketChannel ch) throws IOException {
        String who = String.valueOf(ch.getRemoteAddress());
        try {
            configure(ch);
            ch.socket().setSoTimeout(2000);
            DataInputStream in = new DataInputStream(ch.socket().getInputStream());
            DataOutputStream out = new DataOutputStream(ch.socket().getOutputStream());
            byte[] challenge = new byte[Handshake.NONCE];
            random.nextBytes(challenge);
            out.write(challenge);
            out.flush();
            Handshake.Hello h = Handshake.Hello.read(in);
            String problem = h.problem(settings.secret(), self, nodes, lanes, settings.configDigest(), challenge);
            boolean duplicate = problem == null && peers[h.from()][h.lane()] != null;
            if (duplicate) problem = "node " + h.from() + (lanes > 1 ? " (connection " + h.lane() + ")" : "") + " is already connected";
            if (problem != null) {
                String claimed = h.from() >= 0 ? " claiming to be node " + h.from() : "";
                boolean proven = h.proves(settings.secret(), challenge);
                if (proven) settings.log().println("rcc: node " + self + " refused a connection from " + who + claimed + ": " + problem);
                else refusedUnproven("from " + who + claimed + ": " + problem);
                if (!proven && claimsMissingPeerFromItsHost(h, ch) && mismatch[h.from()] == null) {
                    mismatch[h.from()] = "(" + who + ") did not prove the run's secret (" + problem + ")";
                    mismatchDeadline[h.from()] = System.nanoTime() + MISMATCH_GRACE_MS * 1_000_000L;
                }
                out.writeByte(1);
                out.writeUTF(problem);
                out.flush();
                ch.close();
                // a node started by hand that proves the secret but has another config or size: the run cannot start,
                // so stop now rather than wait out the join timeout. Anyone who does not prove the secret (a stranger
                // who knows the public magic, a node given another secret file) or a duplicate is only refused, and so
                // is anyone knocking at a node that rcc run launched (a node of another run may reuse its port)
                if (!settings.watchParent() && proven && !duplicate) {
                    throw new ClusterFailure("node " + self + " refused a node of this cluster (" + who + claimed + "): " + problem
                            + "; start every node with the same secret file and config");
                }
                return null;
            }
            out.writeByte(0);
            out.write(Handshake.mac(settings.secret(), "ack", self, h.from(), nodes, h.lane(), settings.configDigest(), h.nonce(), challenge));
            out.flush();
            ch.socket().setSoTimeout(0);
            return new Link(node, h.from(), h.lane(), ch);
        } catch (IOException e) {
            refusedUnproven("from " + who + ": handshake failed (" + e.getMessage() + ")");
            ch.close();
            return null;
        }
    }

    /** One refused connection that did not prove the secret: counted, and logged at most once a second. */
    private void refusedUnproven(String what) {
        unproven++;
        lastUnproven = what;
        long now = System.nanoTime();
        if (now - nextLogNs < 0) {
            unlogged++;
            return;
        }
        nextLogNs = now + LOG_EVERY_NS;
        settings.log().println("rcc: node " + self + " refused a connection " + what
                + (unlogged == 0 ? "" : " (and " + unlogged + " more since the last such line)"));
        unlogged = 0;
    }

    private static void configure(SocketChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
    }

    private static String str(InetSocketAddress a) { return ClusterNode.str(a); }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterFailure("interrupted during start-up");
        }
    }
}
