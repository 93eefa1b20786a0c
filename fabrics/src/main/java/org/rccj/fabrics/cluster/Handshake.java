package org.rccj.fabrics.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How a connection between two nodes proves the run's secret. The acceptor sends a fresh random challenge
 * ({@link #NONCE} bytes); the connector answers with a {@link Hello} whose MAC covers its own nonce and that
 * challenge; the acceptor answers a status byte and (0 = ok) its own MAC over both. A recorded hello is useless on
 * another connection (other challenge): no replay. The hello also carries the cluster size, the config digest and
 * which of a node pair's connections this is (its lane).
 */
public final class Handshake {
    private Handshake() {}

    public static final int MAGIC = 0x52434a32;              // "RCJ2" (RCJ1 had no connection lane in its hello)
    public static final int DIGEST = 32, NONCE = 16, MAC = 32;

    static byte[] mac(byte[] secret, String label, int a, int b, int nodes, int lane, byte[] digest, byte[] nonce, byte[] challenge) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(secret, "HmacSHA256"));
            m.update(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            m.update(ByteBuffer.allocate(16).putInt(a).putInt(b).putInt(nodes).putInt(lane).array());
            m.update(digest);
            m.update(nonce);
            m.update(challenge);
            return m.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The first message on a connection, from the connecting node {@code from} to node {@code to}; {@code lane} says
     * which of the pair's connections this is (always 0 with one connection per process pair).
     */
    public record Hello(int magic, int from, int to, int nodes, int lane, byte[] digest, byte[] nonce, byte[] mac) {
        /** True when the peer speaks this version's handshake (an rcc node, not a stranger). */
        public boolean magicOk() { return magic == MAGIC; }

        /** A hello answering the acceptor's {@code challenge}. */
        public static Hello create(byte[] secret, int from, int to, int nodes, int lane, byte[] digest, byte[] nonce, byte[] challenge) {
            return new Hello(MAGIC, from, to, nodes, lane, digest, nonce, Handshake.mac(secret, "hello", from, to, nodes, lane, digest, nonce, challenge));
        }

        public void write(DataOutputStream out) throws IOException {
            out.writeInt(magic);
            out.writeInt(from);
            out.writeInt(to);
            out.writeInt(nodes);
            out.writeInt(lane);
            out.write(digest);
            out.write(nonce);
            out.write(mac);
            out.flush();
        }

        static Hello read(DataInputStream in) throws IOException {
            int magic = in.readInt();
            if (magic != MAGIC) return new Hello(magic, -1, -1, -1, -1, null, null, null);
            int from = in.readInt(), to = in.readInt(), nodes = in.readInt(), lane = in.readInt();
            byte[] d = new byte[DIGEST], n = new byte[NONCE], m = new byte[MAC];
            in.readFully(d);
            in.readFully(n);
            in.readFully(m);
            return new Hello(magic, from, to, nodes, lane, d, n, m);
        }

        /**
         * True when this hello's MAC shows that its sender knows {@code secret} and answers this connection's
         * {@code challenge}: only such a peer is a node of this cluster, whatever else it claims (issue 38).
         */
        boolean proves(byte[] secret, byte[] challenge) {
            return magic == MAGIC && MessageDigest.isEqual(mac, Handshake.mac(secret, "hello", from, to, nodes, lane, digest, nonce, challenge));
        }

        /**
         * Why the acceptor {@code self}, which sent {@code challenge} and keeps {@code lanes} connections per peer,
         * refuses this hello, or null.
         */
        String problem(byte[] secret, int self, int clusterNodes, int lanes, byte[] ourDigest, byte[] challenge) {
            if (magic != MAGIC) return "not an rcc node of this version (bad magic)";
            if (!proves(secret, challenge)) return "wrong secret (or a hello replayed from another connection)";
            if (to != self) return "it wanted node " + to + ", this is node " + self;
            if (nodes != clusterNodes) return "cluster size " + nodes + ", ours is " + clusterNodes;
            if (from <= self || from >= clusterNodes) return "node id " + from + " does not connect to node " + self;
            if (!MessageDigest.isEqual(digest, ourDigest)) return "its resolved config differs from ours (config digest)";
            if (lane < 0 || lane >= lanes) return "connection " + lane + " of a pair that has " + lanes + " (tcp.connections differs)";
            return null;
        }
    }
}
