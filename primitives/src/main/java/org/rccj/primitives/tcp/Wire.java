package org.rccj.primitives.tcp;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The tcp fabric's wire format. After the handshake every message is a frame: a little-endian int length
 * (of what follows), a type byte and the body. Op frames:
 * <pre>
 * OS       count:u16, per op: verb:u8 region:i32 offset:i64 length:i32 [CAS: compare:i64 value:i64] [FAA: value:i64] [WRITE: data]
 * OS_RESP  count:u16, per op in order: [READ: data (the requested length)] [CAS/FAA: found:i64]
 * RPC      id:i32 handler:i32 srcWorker:u16 length:i32 data
 * RPC_RESP id:i32 length:i32 data
 * </pre>
 * A doorbell batch to one node is one OS frame, executed in order by the target's network thread; responses
 * to OS frames come back in the order the frames were sent (one thread serves a connection), so they need no id.
 *
 * <p>Handshake: the acceptor sends a fresh random challenge ({@link #NONCE} bytes); the connector answers with a
 * {@link Hello} whose MAC covers its own nonce and that challenge; the acceptor answers a status byte and (0 = ok)
 * its own MAC over both. A recorded hello is useless on another connection (other challenge): no replay.
 */
final class Wire {
    private Wire() {}

    static final int MAGIC = 0x52434a32;              // "RCJ2" (RCJ1 had no connection lane in its hello)
    /** Largest frame accepted (report chunks are 4 MiB; one READ/WRITE at most 16 MiB). */
    static final int MAX_FRAME = 64 << 20;
    static final int MAX_BATCH = 4096;
    static final int MAX_OP_BYTES = 16 << 20;
    static final int REPORT_CHUNK = 4 << 20;

    static final byte OS = 1, OS_RESP = 2, RPC = 3, RPC_RESP = 4,
            HEARTBEAT = 10, DONE = 11, STOP = 12, ABORT = 13, BYE = 14, CLOCK_REQ = 15, CLOCK_RESP = 16,
            READY = 17, GO = 18, REPORT = 19;

    /** Verb codes on the wire (only one-sided verbs travel in OS frames). */
    static final byte READ = 0, WRITE = 1, CAS = 2, FAA = 3;

    static final int DIGEST = 32, NONCE = 16, MAC = 32;

    static byte[] sha256(byte[] in) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(in);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

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
    record Hello(int magic, int from, int to, int nodes, int lane, byte[] digest, byte[] nonce, byte[] mac) {
        /** True when the peer speaks this version's handshake (an rcc node, not a stranger). */
        boolean magicOk() { return magic == MAGIC; }

        /** A hello answering the acceptor's {@code challenge}. */
        static Hello create(byte[] secret, int from, int to, int nodes, int lane, byte[] digest, byte[] nonce, byte[] challenge) {
            return new Hello(MAGIC, from, to, nodes, lane, digest, nonce, Wire.mac(secret, "hello", from, to, nodes, lane, digest, nonce, challenge));
        }

        void write(DataOutputStream out) throws IOException {
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
         * Why the acceptor {@code self}, which sent {@code challenge} and keeps {@code lanes} connections per peer,
         * refuses this hello, or null.
         */
        String problem(byte[] secret, int self, int clusterNodes, int lanes, byte[] ourDigest, byte[] challenge) {
            if (magic != MAGIC) return "not an rcc node of this version (bad magic)";
            if (!MessageDigest.isEqual(mac, Wire.mac(secret, "hello", from, to, nodes, lane, digest, nonce, challenge))) {
                return "wrong secret (or a hello replayed from another connection)";
            }
            if (to != self) return "it wanted node " + to + ", this is node " + self;
            if (nodes != clusterNodes) return "cluster size " + nodes + ", ours is " + clusterNodes;
            if (from <= self || from >= clusterNodes) return "node id " + from + " does not connect to node " + self;
            if (!MessageDigest.isEqual(digest, ourDigest)) return "its resolved config differs from ours (config digest)";
            if (lane < 0 || lane >= lanes) return "connection " + lane + " of a pair that has " + lanes + " (tcp.connections differs)";
            return null;
        }
    }
}
