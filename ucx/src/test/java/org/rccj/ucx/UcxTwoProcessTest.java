package org.rccj.ucx;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * This JVM is the target: it owns UCX-allocated memory and serves active messages at its progress loop; peers
 * are separate OS processes ({@link UcxPeer}) doing one-sided verbs and RPCs against it, over shared memory
 * (UCX_TLS=posix,self) and over TCP. Every process a test starts is killed in its finally.
 */
class UcxTwoProcessTest {
    static final int AM_REQUEST = 1, AM_REPLY = 2;
    private static final VarHandle LONG = JAVA_LONG.varHandle();

    @ParameterizedTest
    @ValueSource(strings = {"posix,self", "tcp"})
    void verbsAndRpcBetweenTwoProcesses(String tls) throws Exception {
        try (Target t = new Target(tls)) {
            t.mem.segment().set(JAVA_LONG, 0, 4242L);
            t.mem.segment().set(JAVA_LONG, 16, 5L);
            t.mem.segment().set(JAVA_LONG, 24, 100L);
            List<String> out = t.runPeers(1, "verbs").getFirst();
            assertEquals("READ 4242", out.get(0));
            assertEquals("CAS 5", out.get(1), "first CAS finds the expected 5 and swaps in 9");
            assertEquals("CAS 9", out.get(2), "second CAS expects 5, finds 9, leaves it");
            assertEquals("FAA 100", out.get(3));
            assertEquals("RPC HELLO, UNALIGNED", out.get(4));
            assertTrue(out.get(5).startsWith("LANES ") && out.get(5).contains(tls.startsWith("posix") ? "posix" : "tcp"), out.get(5));
            assertEquals("DONE", out.getLast());
            assertEquals(0x1122334455667788L, t.mem.segment().get(JAVA_LONG, 8));
            assertEquals(9L, t.mem.segment().get(JAVA_LONG, 16));
            assertEquals(107L, t.mem.segment().get(JAVA_LONG, 24));
        }
    }

    /**
     * Two processes FAA and CAS-increment two words one-sided while the target's handler increments the same
     * words with CPU atomics (getAndAdd, a CAS loop) for every RPC they send: no update is lost.
     */
    @ParameterizedTest
    @ValueSource(strings = {"posix,self", "tcp"})
    void oneSidedAtomicsFromTwoProcessesRaceHandlerCpuAtomicsAndLoseNothing(String tls) throws Exception {
        int n = tls.equals("tcp") ? 300 : 1000;
        try (Target t = new Target(tls)) {
            List<List<String>> outs = t.runPeers(2, "race", String.valueOf(n));
            for (List<String> o : outs) assertEquals(List.of("DONE"), o);
            assertEquals(2L * n * 2, t.mem.segment().get(JAVA_LONG, 0), "FAA word");
            assertEquals(2L * n * 2, t.mem.segment().get(JAVA_LONG, 8), "CAS word");
            assertEquals(2L * n, t.rpcs);
        }
    }

    /** The target: context, worker, memory, and a thread progressing the worker and serving RPCs. */
    static final class Target implements AutoCloseable {
        final String tls;
        final Arena arena = Arena.ofShared();
        final UcxContext ctx;
        final UcxWorker worker;
        final UcxMemory mem;
        final List<Process> peers = new ArrayList<>();
        volatile long rpcs;
        private final ArrayDeque<Runnable> replies = new ArrayDeque<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread loop;
        private final byte[] address;

        Target(String tls) {
            this.tls = tls;
            ctx = Ucx.load().newContext(Map.of("TLS", tls));
            worker = ctx.newWorker();
            mem = ctx.map(4096, arena);
            address = worker.address();
            MemorySegment replyBuf = arena.allocate(256);
            List<Long> pending = new ArrayList<>();
            worker.setAmHandler(AM_REQUEST, (data, from) -> {
                String text = data.getString(0);
                MemorySegment w = mem.segment();
                if (text.equals("inc")) {
                    LONG.getAndAdd(w, 0L, 1L);
                    long v;
                    do v = (long) LONG.getVolatile(w, 8L); while (!LONG.compareAndSet(w, 8L, v, v + 1));
                    rpcs++;
                }
                String answer = text.toUpperCase();
                // reply at the poll point, after progress returns, not from inside UCX's callback
                replies.add(() -> {
                    replyBuf.setString(0, answer);
                    pending.add(from.send(AM_REPLY, replyBuf.asSlice(0, answer.length() + 1)));
                });
            });
            loop = Thread.ofPlatform().name("ucx-target").start(() -> {
                try {
                    while (!stop.get()) {
                        worker.progress();
                        for (Runnable r; (r = replies.poll()) != null; ) {
                            r.run();
                            // the reply buffer is reused: let this send finish before the next
                            while (!pending.isEmpty()) if (worker.done("am reply", pending.getLast())) pending.removeLast(); else worker.progress();
                        }
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
        }

        /** Starts {@code count} peers with this script, hands them the target, returns each one's output lines. */
        List<List<String>> runPeers(int count, String... script) throws Exception {
            HexFormat hex = HexFormat.of();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            for (int i = 0; i < count; i++) {
                List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp",
                        System.getProperty("java.class.path"), UcxPeer.class.getName(), tls));
                cmd.addAll(List.of(script));
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
                Process p = pb.start();
                peers.add(p);
                PrintWriter w = new PrintWriter(p.getOutputStream(), true);
                w.println(hex.formatHex(address) + " " + hex.formatHex(mem.rkey()) + " " + mem.address());
            }
            List<List<String>> outs = new ArrayList<>();
            for (Process p : peers) {
                List<String> lines = new ArrayList<>();
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
                    for (String l; (l = r.readLine()) != null; ) lines.add(l);
                }
                assertTrue(p.waitFor(120, TimeUnit.SECONDS), "peer did not finish");
                assertEquals(0, p.exitValue(), "peer exit; output " + lines);
                outs.add(lines);
            }
            if (failure.get() != null) throw new AssertionError("target loop failed", failure.get());
            return outs;
        }

        @Override
        public void close() throws InterruptedException, IOException {
            for (Process p : peers) {
                p.destroyForcibly();
                p.waitFor();
            }
            stop.set(true);
            loop.join();
            worker.close();
            arena.close();
            ctx.close();
            if (failure.get() != null) throw new AssertionError("target loop failed", failure.get());
        }
    }
}
