package org.rccj.fabrics.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.WorkerHost;

/**
 * Two tcp nodes in this JVM, two workers each, in both connection layouts: node 1's workers send RPCs and one-sided
 * READs to node 0; node 0 answers every RPC from the <em>other</em> worker than the one it was delivered to (a
 * deferred reply, as a lock queue hands a lock over), so with a connection per thread the reply must still go back
 * on the connection its request came in on. Every answer must arrive, be right, and the layout must be the one asked;
 * idle connections outlive the peer timeout (each one carries heartbeats).
 */
class TcpConnectionLayoutTest {
    private static final int THREADS = 2, OPS = 300, WINDOW = 4, WORDS = 64;
    private static final long PEER_TIMEOUT_MS = 1000;

    @ParameterizedTest
    @EnumSource(TcpSettings.Connections.class)
    void everyAnswerReturnsOnItsConnectionAlsoWhenAnotherWorkerReplies(TcpSettings.Connections layout) throws Exception {
        List<TcpFabric> nodes = join(layout);
        try {
            Thread.sleep(PEER_TIMEOUT_MS * 3 / 2);          // idle connections: heartbeats must keep every one of them alive
            for (TcpFabric f : nodes) assertNull(f.failure());
            assertEquals(layout == TcpSettings.Connections.THREAD ? THREADS : 1, nodes.get(0).connections(), "connections of node 0");
            assertEquals(nodes.get(0).connections(), nodes.get(1).connections());
            for (TcpFabric f : nodes) {
                for (int n = 0; n < 2; n++) f.memory(n).register("test", WORDS * 8);
            }
            RegisteredMemory m0 = nodes.get(0).memory(0);
            for (int i = 0; i < WORDS; i++) m0.putLong(0, i * 8L, 1000L + i);

            AtomicReference<String> wrong = new AtomicReference<>();
            ConcurrentLinkedQueue<Op> toAnswer = new ConcurrentLinkedQueue<>();
            AtomicInteger crossReplies = new AtomicInteger();
            WorkerHost[] servers = new WorkerHost[THREADS];
            Client[] clients = new Client[THREADS];
            for (int t = 0; t < THREADS; t++) {
                servers[t] = new Server(nodes.get(0), t, toAnswer, crossReplies);
                clients[t] = new Client(nodes.get(1), t, wrong);
            }
            List<Thread> runs = new ArrayList<>();
            AtomicReference<Throwable> runFailure = new AtomicReference<>();
            WorkerHost[][] hosts0 = {servers, null}, hosts1 = {null, clients};
            for (int n = 0; n < 2; n++) {
                TcpFabric f = nodes.get(n);
                WorkerHost[][] h = n == 0 ? hosts0 : hosts1;
                Thread th = new Thread(() -> {
                    try {
                        f.run(h);
                    } catch (Throwable e) {
                        runFailure.compareAndSet(null, e);
                    }
                }, "layout-run-" + n);
                th.setDaemon(true);
                th.start();
                runs.add(th);
            }
            for (Thread th : runs) th.join(30_000);
            for (Thread th : runs) assertFalse(th.isAlive(), "the run did not end");
            assertNull(runFailure.get(), () -> String.valueOf(runFailure.get()));
            for (TcpFabric f : nodes) assertNull(f.failure());
            assertNull(wrong.get());
            for (Client c : clients) assertEquals(OPS, c.done, "answers to worker " + c.worker);
            assertEquals(THREADS * OPS / 2, crossReplies.get(), "every RPC is answered by the other worker");
        } finally {
            for (TcpFabric f : nodes) f.close();
        }
    }

    /** Node 0's worker: takes the RPCs the other worker was handed and replies request + 1. */
    private static final class Server implements WorkerHost {
        final TcpFabric fabric;
        final int worker;
        final ConcurrentLinkedQueue<Op> toAnswer;
        final AtomicInteger crossReplies;

        Server(TcpFabric fabric, int worker, ConcurrentLinkedQueue<Op> toAnswer, AtomicInteger crossReplies) {
            this.fabric = fabric;
            this.worker = worker;
            this.toAnswer = toAnswer;
            this.crossReplies = crossReplies;
        }

        @Override public void onComplete(Op op) {}
        @Override public void onRpc(Op call) { toAnswer.add(call); }

        @Override
        public boolean runOne() {
            for (Op call : toAnswer) {
                if (call.srcWorker % THREADS == worker || !toAnswer.remove(call)) continue;     // the other worker's only
                Bytes.putLong(call.replyBuffer(8), 0, Bytes.getLong(call.data, 0) + 1);
                crossReplies.incrementAndGet();
                fabric.endpoint(0, worker).reply(call);
                return true;
            }
            return false;
        }

        @Override public boolean hasReady() { return !toAnswer.isEmpty(); }
        @Override public boolean finished() { return true; }
        @Override public int handlers() { return 1; }
    }

    /** Node 1's worker: alternates RPCs and READs to node 0, {@link #WINDOW} outstanding, and checks each answer. */
    private static final class Client implements WorkerHost {
        final TcpFabric fabric;
        final int worker;
        final AtomicReference<String> wrong;
        int issued, done, outstanding;

        Client(TcpFabric fabric, int worker, AtomicReference<String> wrong) {
            this.fabric = fabric;
            this.worker = worker;
            this.wrong = wrong;
        }

        @Override
        public void onComplete(Op op) {
            outstanding--;
            done++;
            long expect = op.verb == org.rccj.primitives.Verb.RPC ? op.tag * 10L + worker + 1 : 1000L + op.tag % WORDS;
            long got = Bytes.getLong(op.verb == org.rccj.primitives.Verb.RPC ? op.reply : op.data, 0);
            if (got != expect) wrong.compareAndSet(null, "worker " + worker + " op " + op.tag + " (" + op.verb + "): got " + got + ", expected " + expect);
        }

        @Override public void onRpc(Op call) { wrong.compareAndSet(null, "node 1 got an RPC"); }

        @Override
        public boolean runOne() {
            if (!hasReady()) return false;
            Op op = new Op();
            int i = issued++;
            op.tag = i;
            if (i % 2 == 0) {
                op.rpc(0, 0, 8);
                Bytes.putLong(op.data, 0, i * 10L + worker);
            } else {
                op.read(0, 0, (i % WORDS) * 8L, 8);
            }
            outstanding++;
            fabric.endpoint(1, worker).post(op);
            return true;
        }

        @Override public boolean hasReady() { return issued < OPS && outstanding < WINDOW; }
        @Override public boolean finished() { return done == OPS; }
    }

    private static List<TcpFabric> join(TcpSettings.Connections layout) throws Exception {
        List<InetSocketAddress> hosts = new ArrayList<>();
        try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket b = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            hosts.add(new InetSocketAddress("127.0.0.1", a.getLocalPort()));
            hosts.add(new InetSocketAddress("127.0.0.1", b.getLocalPort()));
        }
        byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        PrintStream log = new PrintStream(System.err, true, StandardCharsets.UTF_8);
        List<CompletableFuture<TcpFabric>> joins = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            TcpSettings s = new TcpSettings(n, hosts, secret, new byte[32], 10_000, PEER_TIMEOUT_MS, false, log, layout);
            CompletableFuture<TcpFabric> f = new CompletableFuture<>();
            Thread t = new Thread(() -> {          // both join at once (the common pool may have a single thread)
                try {
                    f.complete(TcpFabric.join(THREADS, CostProfile.load(CostProfile.DEFAULT), s));
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                }
            }, "layout-join-" + n);
            t.setDaemon(true);
            t.start();
            joins.add(f);
        }
        List<TcpFabric> out = new ArrayList<>();
        for (CompletableFuture<TcpFabric> j : joins) out.add(j.get(20, TimeUnit.SECONDS));
        return out;
    }
}
