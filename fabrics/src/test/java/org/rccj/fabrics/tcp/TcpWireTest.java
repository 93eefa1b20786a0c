package org.rccj.fabrics.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rccj.fabrics.cluster.ClusterFailure;
import org.rccj.fabrics.cluster.Control;
import org.rccj.fabrics.cluster.Handshake;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Op;
import org.rccj.primitives.WorkerHost;
import org.rccj.primitives.RegisteredMemory;

/**
 * Node 0 of a two-node tcp cluster against a hand-played node 1 on a raw socket: the handshake refuses a wrong
 * secret and names the peer; a one-sided READ is served from registered memory by the network thread; a
 * malformed, oversized or out-of-range request closes the connection with a message and never touches memory.
 */
class TcpWireTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DIGEST = new byte[32];
    private static final int REGION_BYTES = 4096;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private TcpFabric node0;
    private Socket peer;
    /** The hello the next {@link #join} sends instead of a fresh one (a recorded one: replay), and the last one sent. */
    private Handshake.Hello replay, lastHello;
    /** The connection lane the next {@link #join}'s hello claims. */
    private int helloLane;

    @AfterEach
    void close() throws IOException {
        if (peer != null) peer.close();
        if (node0 != null) node0.close();
    }

    /** Starts node 0 (in the background: it waits for node 1) and connects as node 1 with {@code secret}. */
    private DataInputStream join(byte[] secret, long joinTimeoutMs) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        List<InetSocketAddress> hosts = List.of(new InetSocketAddress("127.0.0.1", port), new InetSocketAddress("127.0.0.1", port + 1));
        TcpSettings s = new TcpSettings(0, hosts, SECRET, DIGEST, joinTimeoutMs, 5000, false, new PrintStream(log, true, StandardCharsets.UTF_8),
                TcpSettings.Connections.PAIR);
        CompletableFuture<TcpFabric> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(TcpFabric.join(1, CostProfile.load(CostProfile.DEFAULT), s));
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        t.setDaemon(true);
        t.start();
        peer = null;
        for (int i = 0; i < 100 && peer == null; i++) {
            try {
                peer = new Socket("127.0.0.1", port);
            } catch (IOException e) {
                Thread.sleep(20);
            }
        }
        assertNotNull(peer, "node 0 never listened");
        peer.setSoTimeout(5000);
        DataOutputStream out = new DataOutputStream(peer.getOutputStream());
        DataInputStream in = new DataInputStream(peer.getInputStream());
        byte[] challenge = new byte[Handshake.NONCE];
        in.readFully(challenge);
        Handshake.Hello hello = replay != null ? replay : Handshake.Hello.create(secret, 1, 0, 2, helloLane, DIGEST, new byte[Handshake.NONCE], challenge);
        lastHello = hello;
        hello.write(out);
        int status = in.readUnsignedByte();
        if (status != 0) {
            String why = in.readUTF();
            ExecutionFailure e = new ExecutionFailure(why);
            try {
                f.get(joinTimeoutMs + 5000, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException ex) {
                e.joinFailure = ex.getCause().getMessage();
            }
            throw e;
        }
        in.readFully(new byte[Handshake.MAC]);
        node0 = f.get(5, TimeUnit.SECONDS);
        RegisteredMemory m = node0.memory(0);
        m.register("test", REGION_BYTES);
        for (int i = 0; i < REGION_BYTES; i += 8) m.putLong(0, i, i * 3L + 1);
        return in;
    }

    /** Runs node 0 with {@code host} as its worker until the run fails or the test closes it. */
    private Thread runInBackground(WorkerHost host) {
        Thread run = new Thread(() -> {
            try {
                node0.run(new WorkerHost[][] {{host}, {null}});
            } catch (ClusterFailure ended) {
                // a malformed frame stopped it, or the test closed node 0
            }
        });
        run.setDaemon(true);
        run.start();
        return run;
    }

    private static final class ExecutionFailure extends Exception {
        String joinFailure;
        ExecutionFailure(String m) { super(m); }
    }

    private void send(ByteBuffer frame) throws IOException {
        peer.getOutputStream().write(frame.array(), 0, frame.position());
        peer.getOutputStream().flush();
    }

    private static ByteBuffer frame(byte type, int bodyBytes) {
        ByteBuffer b = ByteBuffer.allocate(5 + bodyBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(1 + bodyBytes).put(type);
        return b;
    }

    private static ByteBuffer read(int region, long offset, int length) {
        return frame(Wire.OS, 2 + 17).putShort((short) 1).put(Wire.READ).putInt(region).putLong(offset).putInt(length);
    }

    /** Waits until node 0 closed the connection (EOF), skipping heartbeats and whatever else it sent. */
    private void assertClosedByNode0() throws IOException {
        InputStream in = peer.getInputStream();
        byte[] buf = new byte[4096];
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            int n;
            try {
                n = in.read(buf);
            } catch (java.net.SocketException e) {
                return;              // reset: closed
            }
            if (n < 0) return;
        }
        throw new AssertionError("node 0 kept the connection open");
    }

    private void assertMemoryUntouched() {
        RegisteredMemory m = node0.memory(0);
        for (int i = 0; i < REGION_BYTES; i += 8) assertEquals(i * 3L + 1, m.getLong(0, i), "word at " + i);
    }

    @Test
    void aReadIsServedFromRegisteredMemoryByTheNetworkThread() throws Exception {
        DataInputStream in = join(SECRET, 5000);
        send(read(0, 64, 16));
        while (true) {
            int len = Integer.reverseBytes(in.readInt());
            byte type = in.readByte();
            byte[] body = new byte[len - 1];
            in.readFully(body);
            if (type == Control.HEARTBEAT || type == Control.CLOCK_REQ) continue;
            assertEquals(Wire.OS_RESP, type);
            ByteBuffer b = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(1, b.getShort());
            assertEquals(64 * 3L + 1, b.getLong());
            assertEquals(72 * 3L + 1, b.getLong());
            break;
        }
        assertEquals(null, node0.failure());
    }

    @Test
    void anOutOfRangeReadClosesTheConnectionWithAMessage() throws Exception {
        join(SECRET, 5000);
        send(read(0, REGION_BYTES - 8, 16));
        assertClosedByNode0();
        String f = node0.failure();
        assertNotNull(f);
        assertTrue(f.contains("node 1 sent a READ outside registered memory (region 0, offset 4088, 16 bytes"), f);
        assertMemoryUntouched();
    }

    @Test
    void anOutOfRangeWriteNeverTouchesMemory() throws Exception {
        join(SECRET, 5000);
        ByteBuffer w = frame(Wire.OS, 2 + 2 * 17 + 8 + 8);
        w.putShort((short) 2);
        w.put(Wire.WRITE).putInt(0).putLong(Long.MAX_VALUE - 4).putInt(8).putLong(-1);       // offset overflows
        w.put(Wire.WRITE).putInt(7).putLong(0).putInt(8).putLong(-1);                         // no such region
        send(w);
        assertClosedByNode0();
        assertTrue(node0.failure().contains("WRITE outside registered memory"), node0.failure());
        assertMemoryUntouched();
    }

    @Test
    void anOversizedFrameClosesTheConnection() throws Exception {
        join(SECRET, 5000);
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(Control.MAX_FRAME + 1).put(Wire.OS);
        send(b);
        assertClosedByNode0();
        assertTrue(node0.failure().contains("node 1 sent frame length " + (Control.MAX_FRAME + 1)), node0.failure());
        assertMemoryUntouched();
    }

    @Test
    void aMalformedFrameClosesTheConnection() throws Exception {
        join(SECRET, 5000);
        // a CAS that claims 8 bytes but the frame ends before its operands
        ByteBuffer b = frame(Wire.OS, 2 + 17).putShort((short) 1).put(Wire.CAS).putInt(0).putLong(0).putInt(8);
        send(b);
        assertClosedByNode0();
        assertTrue(node0.failure().contains("node 1 sent a frame shorter than its content"), node0.failure());
        assertMemoryUntouched();
    }

    @Test
    void anUnknownFrameTypeClosesTheConnection() throws Exception {
        join(SECRET, 5000);
        send(frame((byte) 99, 3).put((byte) 1).put((byte) 2).put((byte) 3));
        assertClosedByNode0();
        assertTrue(node0.failure().contains("node 1 sent a frame of unknown type 99"), node0.failure());
    }

    @Test
    void aHelloRecordedOnAnotherConnectionIsRefused() throws Exception {
        join(SECRET, 5000);
        Handshake.Hello recorded = lastHello;
        close();
        node0 = null;
        peer = null;
        replay = recorded;        // same secret, ids and config: only the acceptor's challenge differs
        ExecutionFailure e = assertThrows(ExecutionFailure.class, () -> join(SECRET, 1000));
        assertEquals("wrong secret (or a hello replayed from another connection)", e.getMessage());
        assertNotNull(e.joinFailure, "node 0 should give up waiting");
    }

    @Test
    void aHelloForASecondConnectionOfAPairIsRefusedWhenThePairHasOne() {
        helloLane = 1;           // node 0 keeps one connection per process pair (TcpSettings.Connections.PAIR)
        ExecutionFailure e = assertThrows(ExecutionFailure.class, () -> join(SECRET, 1000));
        assertEquals("connection 1 of a pair that has 1 (tcp.connections differs)", e.getMessage());
    }

    @Test
    void anRpcToAnUnknownHandlerClosesTheConnection() throws Exception {
        join(SECRET, 5000);
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        WorkerHost host = new WorkerHost() {
            @Override public void onComplete(Op op) {}
            @Override public void onRpc(Op call) { throw new AssertionError("handler " + call.handler + " reached the worker"); }
            @Override public boolean runOne() {
                running.countDown();
                return false;
            }
            @Override public boolean hasReady() { return false; }
            @Override public boolean finished() { return true; }
            @Override public int handlers() { return 2; }
        };
        Thread run = runInBackground(host);
        assertTrue(running.await(5, TimeUnit.SECONDS), "the worker never ran");      // its host is known from now on
        ByteBuffer rpc = frame(Wire.RPC, 4 + 4 + 2 + 4).putInt(1).putInt(7).putShort((short) 0).putInt(0);
        send(rpc);
        assertClosedByNode0();
        String f = node0.failure();
        assertNotNull(f);
        assertTrue(f.contains("node 1 sent an RPC to unknown handler 7 (node 0 has handlers 0..1); closed its connection"), f);
        run.join(5000);
    }

    /** Reads frames until one of {@code type} arrives (skipping heartbeats and clock requests); returns its body. */
    private static ByteBuffer awaitFrame(DataInputStream in, byte type) throws IOException {
        while (true) {
            int len = Integer.reverseBytes(in.readInt());
            byte t = in.readByte();
            byte[] body = new byte[len - 1];
            in.readFully(body);
            if (t == type) return ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** A worker host with two handlers that records the RPCs it is handed. */
    private static WorkerHost recordingHost(java.util.concurrent.BlockingQueue<Op> received) {
        return new WorkerHost() {
            @Override public void onComplete(Op op) {}
            @Override public void onRpc(Op call) { received.add(call); }
            @Override public boolean runOne() { return false; }
            @Override public boolean hasReady() { return false; }
            @Override public boolean finished() { return true; }
            @Override public int handlers() { return 2; }
        };
    }

    /**
     * A peer may send RPCs from the start instant on, before this node's run() has installed the worker hosts that
     * know the handler ids: such an RPC is held and checked once they are, not handed unchecked to the worker.
     */
    @Test
    void anRpcArrivingBeforeRunToAnUnknownHandlerIsStillRefused() throws Exception {
        DataInputStream in = join(SECRET, 5000);
        send(frame(Wire.RPC, 4 + 4 + 2 + 4).putInt(1).putInt(7).putShort((short) 0).putInt(0));
        send(read(0, 64, 8));
        awaitFrame(in, Wire.OS_RESP);      // node 0 handles a connection's frames in order: it has seen the RPC
        assertEquals(null, node0.failure(), "nothing can be checked before run()");
        java.util.concurrent.BlockingQueue<Op> received = new java.util.concurrent.LinkedBlockingQueue<>();
        Thread run = runInBackground(recordingHost(received));
        assertClosedByNode0();
        String f = node0.failure();
        assertNotNull(f);
        assertTrue(f.contains("node 1 sent an RPC to unknown handler 7 (node 0 has handlers 0..1); closed its connection"), f);
        assertEquals(0, received.size(), "the worker was handed the bad RPC");
        run.join(5000);
    }

    @Test
    void rpcsArrivingBeforeRunAreDeliveredInOrderOnceItStarts() throws Exception {
        DataInputStream in = join(SECRET, 5000);
        for (int h = 0; h < 2; h++) send(frame(Wire.RPC, 4 + 4 + 2 + 4 + 1).putInt(h).putInt(h).putShort((short) 0).putInt(1).put((byte) (10 + h)));
        send(read(0, 64, 8));
        awaitFrame(in, Wire.OS_RESP);
        java.util.concurrent.BlockingQueue<Op> received = new java.util.concurrent.LinkedBlockingQueue<>();
        runInBackground(recordingHost(received));
        for (int h = 0; h < 2; h++) {
            Op call = received.poll(5, TimeUnit.SECONDS);
            assertNotNull(call, "RPC " + h + " was never delivered");
            assertEquals(h, call.handler);
            assertEquals(10 + h, call.data[0]);
            assertEquals(1, call.srcNode);
        }
        assertEquals(null, node0.failure());
    }

    @Test
    void aPassiveRpcIsDoneWithoutACompletionAndTheSignaledOneCompletes() throws Exception {
        DataInputStream in = join(SECRET, 5000);
        Op passive = new Op().rpc(1, 0, 8).unsignaled(), signaled = new Op().rpc(1, 0, 8);
        java.util.concurrent.atomic.AtomicInteger completions = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Op> completed = new java.util.concurrent.atomic.AtomicReference<>();
        WorkerHost host = new WorkerHost() {
            boolean posted;
            @Override public void onComplete(Op op) {
                completed.set(op);
                completions.incrementAndGet();
            }
            @Override public void onRpc(Op call) { throw new AssertionError("node 1 sends no requests here"); }
            @Override public boolean runOne() {
                if (posted) return false;
                posted = true;
                node0.endpoint(0, 0).post(passive);
                node0.endpoint(0, 0).post(signaled);
                return true;
            }
            @Override public boolean hasReady() { return !posted; }
            @Override public boolean finished() { return posted; }
        };
        runInBackground(host);
        // node 1 (played here) answers both requests, in order
        for (int answered = 0; answered < 2; ) {
            int len = Integer.reverseBytes(in.readInt());
            byte type = in.readByte();
            byte[] body = new byte[len - 1];
            in.readFully(body);
            if (type != Wire.RPC) continue;
            ByteBuffer b = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            int id = b.getInt();
            assertEquals(0, b.getInt(), "handler");
            send(frame(Wire.RPC_RESP, 8).putInt(id).putInt(0));
            answered++;
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while ((completions.get() == 0 || passive.inFlight) && System.nanoTime() < deadline) Thread.sleep(5);
        Thread.sleep(50);                // a wrong completion of the passive RPC would come by now
        assertEquals(1, completions.get(), "only the signaled RPC completes through onComplete");
        assertEquals(signaled, completed.get());
        assertEquals(false, passive.inFlight, "the passive RPC is done");
        assertEquals(false, signaled.inFlight);
        assertEquals(null, node0.failure());
    }

    /**
     * A hello with another secret from the claimed node's host, for this cluster (decision 0215): refused at once, and
     * once no node 1 with the right secret has come within the grace, node 0's start ends naming the mismatch, long
     * before its join timeout (at 10ebb0c it waited the whole timeout).
     */
    @Test
    void aWrongSecretFromThePeersHostEndsTheStartAfterTheGraceNotTheJoinTimeout() {
        byte[] wrong = "not the secret, not the secret!!".getBytes(StandardCharsets.US_ASCII);
        long t0 = System.nanoTime();
        ExecutionFailure e = assertThrows(ExecutionFailure.class, () -> join(wrong, 60_000));
        long s = (System.nanoTime() - t0) / 1_000_000_000L;
        assertEquals("wrong secret (or a hello replayed from another connection)", e.getMessage());
        assertNotNull(e.joinFailure, "node 0 should give up");
        assertTrue(e.joinFailure.matches("node 1 \\(127\\.0\\.0\\.1:\\d+\\) has another secret: a connection from its host \\(/127\\.0\\.0\\.1:\\d+\\) did not"
                + " prove the run's secret \\(wrong secret \\(or a hello replayed from another connection\\)\\), and no node 1 that proves it joined within"
                + " 5\\.0 s after; give every node the same secret file"), e.joinFailure);
        assertTrue(s >= 4 && s < 30, "ended after the grace, not at the join timeout: " + s + " s");
    }

    @Test
    void aWrongSecretIsRefusedNamedInTheLogAndNodeZeroWaitsOutItsJoinTimeout() {
        byte[] wrong = "not the secret, not the secret!!".getBytes(StandardCharsets.US_ASCII);
        // a hello that does not prove the secret cannot end the start before the grace (anyone can send one, issue 38):
        // node 0 refuses it, keeps waiting for its real peer, and a join timeout shorter than the grace names it
        ExecutionFailure e = assertThrows(ExecutionFailure.class, () -> join(wrong, 1500));
        assertEquals("wrong secret (or a hello replayed from another connection)", e.getMessage());
        String logged = log.toString(StandardCharsets.UTF_8);
        assertTrue(logged.matches("(?s)rcc: node 0 refused a connection from /127\\.0\\.0\\.1:\\d+ claiming to be node 1: wrong secret \\(or a hello replayed from another connection\\)\\R"), logged);
        assertNotNull(e.joinFailure, "node 0 should give up waiting at its join timeout");
        assertTrue(e.joinFailure.matches("node 1 \\(127\\.0\\.0\\.1:\\d+\\) did not join within 1\\.5 s; refused 1 connection that did not prove the run's secret"
                + " \\(the last from /127\\.0\\.0\\.1:\\d+ claiming to be node 1: wrong secret \\(or a hello replayed from another connection\\)\\):"
                + " give every node the same secret file"), e.joinFailure);
    }
}
