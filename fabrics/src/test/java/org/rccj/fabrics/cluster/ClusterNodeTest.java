package org.rccj.fabrics.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The control plane on its own, as a fabric without frames of its own (one that moves its data elsewhere) uses it:
 * three nodes in this JVM join, exchange a blob each, meet at the start barrier and gather their reports at node 0.
 */
class ClusterNodeTest {
    /** A thread per call: every node's call blocks until the others take part. */
    private static final ExecutorService THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cluster-node-test");
        t.setDaemon(true);
        return t;
    });

    /** A data plane with no frames that is finished at once. */
    private static final DataPlane IDLE = new DataPlane() {
        @Override public boolean finished() { return true; }
        @Override public void stopping() {}
    };

    private static List<ClusterNode> join(int n, byte[] secret) throws Exception {
        List<InetSocketAddress> hosts = new ArrayList<>();
        for (int p : LocalLauncher.freePorts(n)) hosts.add(new InetSocketAddress("127.0.0.1", p));
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        List<CompletableFuture<ClusterNode>> joins = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ClusterSettings s = new ClusterSettings(i, hosts, secret, new byte[Handshake.DIGEST], 10_000, 5_000, false, log);
            joins.add(CompletableFuture.supplyAsync(() -> ClusterNode.join(s, 1, IDLE), THREADS));
        }
        List<ClusterNode> nodes = new ArrayList<>();
        for (CompletableFuture<ClusterNode> j : joins) nodes.add(j.get());
        return nodes;
    }

    /** Runs {@code f} on every node at once (each call blocks until all nodes take part) and returns the results by node. */
    private static <T> List<T> onAll(List<ClusterNode> nodes, Function<ClusterNode, T> f) {
        List<CompletableFuture<T>> runs = new ArrayList<>();
        for (ClusterNode c : nodes) runs.add(CompletableFuture.supplyAsync(() -> f.apply(c), THREADS));
        return runs.stream().map(CompletableFuture::join).toList();
    }

    @Test
    void everyNodeGetsEveryNodesBlobThenTheyStartTogetherAndNodeZeroGathersTheReports() throws Exception {
        List<ClusterNode> nodes = join(3, "a secret of the control plane".getBytes(StandardCharsets.UTF_8));
        try {
            List<byte[][]> tables = onAll(nodes, c -> c.exchange(("address of node " + c.self()).repeat(c.self() + 1).getBytes(StandardCharsets.UTF_8)));
            for (byte[][] t : tables) {
                assertEquals(3, t.length);
                for (int n = 0; n < 3; n++) assertArrayEquals(("address of node " + n).repeat(n + 1).getBytes(StandardCharsets.UTF_8), t[n], "blob of node " + n);
            }
            List<Long> starts = onAll(nodes, c -> c.startBarrier(new byte[] {7}));
            assertEquals(1, starts.stream().distinct().count(), "one start instant: " + starts);
            // warmup_ms: auto (decision 0210): node 0's window start reaches every node; another node's word goes nowhere
            nodes.get(1).announceWindow(99);
            assertEquals(Long.MAX_VALUE, nodes.get(1).announcedWindow(), "only node 0 announces");
            long window = starts.get(0) + 123_456;
            nodes.get(0).announceWindow(window);
            for (ClusterNode c : nodes) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (c.announcedWindow() != window && System.nanoTime() < deadline) Thread.sleep(5);
                assertEquals(window, c.announcedWindow(), "node " + c.self());
            }
            List<byte[][]> reports = onAll(nodes, c -> c.gather(new byte[] {(byte) (40 + c.self())}));
            assertArrayEquals(new byte[][] {{40}, {41}, {42}}, reports.get(0));
            assertNull(reports.get(1));
            for (ClusterNode c : nodes) assertNull(c.failure());
        } finally {
            for (ClusterNode c : nodes) c.close();
        }
    }

    @Test
    void aBlobLargerThanTheLimitIsRefusedBeforeItIsSent() throws Exception {
        List<ClusterNode> nodes = join(2, "another secret of the control plane".getBytes(StandardCharsets.UTF_8));
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> nodes.get(1).exchange(new byte[Control.MAX_BLOB + 1]));
            assertTrue(e.getMessage().contains("at most " + Control.MAX_BLOB), e.getMessage());
        } finally {
            for (ClusterNode c : nodes) c.close();
        }
    }
}
