package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;

/**
 * The ucx fabric end to end, one OS process per node on the cluster control plane: every protocol in all-rpc,
 * all-onesided and a mixed code on SmallBank and YCSB verifies across 3 processes over shared memory
 * (UCX_TLS=posix,self) and over TCP; rcc run spawns the nodes; a killed node, a stopped node, a wrong secret and a
 * missing libucp each end with one line; and no process outlives this class.
 */
class UcxClusterTest {
    @TempDir Path dir;

    @AfterAll
    static void noProcessOutlivesTheTests() throws InterruptedException { TcpClusterTest.assertNoProcessOutlives("the ucx tests"); }

    private Path secret(String text) throws IOException { return TcpClusterTest.secretFile(dir, text); }

    private static String hosts(int n) throws IOException { return TcpClusterTest.hosts(n); }

    static String config(String name, String tls, String protocol, String hybrid, String workload, double durationMs) {
        String wl = workload.equals("ycsb")
                ? "workload: {name: ycsb, keys_per_thread: 2000, compute_us: 0}\n"
                : "workload: {name: smallbank, accounts_per_thread: 1000}\n";
        // as on tcp: CALVIN's epochs and DrTM's leases long enough for millisecond round trips on a loaded 2-core host
        String options = protocol.equals("calvin") ? "protocol_options: {epoch_us: 200}\n"
                : protocol.equals("drtm") ? "protocol_options: {lease_us: 20000, ro_lease_us: 20000}\n" : "";
        return "name: " + name + "\nfabric: ucx\nucx: {tls: '" + tls + "'}\nnodes: 3\nthreads: 1\ncoroutines: 4\nprotocol: " + protocol
                + "\nhybrid: " + hybrid + "\n" + options + wl + "warmup_ms: 20\nduration_ms: " + durationMs + "\nverify: true\nseed: 7\n";
    }

    private List<TcpClusterTest.Node> threeNodes(List<String> configs, String secretText) throws IOException {
        String hosts = hosts(3);
        Path secret = secret(secretText);
        List<TcpClusterTest.Node> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<String> args = new ArrayList<>(List.of("node"));
            args.addAll(configs);
            args.addAll(List.of("--id", Integer.toString(i), "--hosts", hosts, "--secret-file", secret.toString(), "--out", "results",
                    "--join-timeout", "30"));   // the configs say fabric: ucx, which rcc node keeps
            nodes.add(new TcpClusterTest.Node(args, Map.of(), dir));
        }
        return nodes;
    }

    private static JsonNode summary(Path resultDir) throws IOException {
        return new ObjectMapper().readTree(resultDir.resolve("summary.json").toFile());
    }

    @ParameterizedTest(name = "UCX_TLS={0}")
    @ValueSource(strings = {"posix,self", "tcp"})
    void everyProtocolVerifiesAcrossThreeProcessesInThreeCodesOnSmallBankAndYcsb(String tls) throws Exception {
        List<String> configs = TcpClusterTest.writeProtocolMatrix(dir, (name, protocol, hybrid, wl) -> config(name, tls, protocol, hybrid, wl, 120));
        List<TcpClusterTest.Node> nodes = threeNodes(configs, "a secret for the ucx protocol matrix");
        TcpClusterTest.awaitSuccess(nodes, 600);
        String mode = tls.equals("tcp") ? "emulated" : "shared_memory";
        for (String c : configs) {
            String name = c.replace(".yaml", "");
            JsonNode s = summary(dir.resolve("results").resolve(name));
            assertEquals("ucx", s.get("fabric").asText(), name);
            JsonNode v = s.get("verification");
            // as on tcp, commits inside the short window are not asserted (a loaded 2-core host can leave CALVIN's empty);
            // every transaction of the run is verified and there must be some
            assertTrue(v.get("txns_checked").asLong() > 0, name + ": nothing committed");
            assertTrue(v.get("checked").asBoolean() && v.get("serializable").asBoolean(), name + ": " + v);
            assertTrue(v.get("txns_checked").asLong() >= s.get("commits").asLong(), name + ": " + v);
            v.get("invariants").fields().forEachRemaining(e -> assertTrue(e.getValue().asBoolean(), name + ": invariant " + e.getKey()));
            assertTrue(v.get("invariants").size() > 0, name + ": no invariants checked");
            JsonNode net = s.get("network");
            long oneSided = net.get("read").asLong() + net.get("write").asLong() + net.get("cas").asLong() + net.get("faa").asLong();
            if (c.contains("all-rpc")) assertEquals(0, oneSided, name);
            // (a mixed code's one-sided stage may not have come up in a short run on a loaded host, as on tcp)
            if (c.contains("all-onesided")) assertTrue(oneSided > 0, name + ": no one-sided verbs");
            // and every protocol whose LOG is CommitTail's sends the log-clean RPC after it (issue 22; HybridCodesSuite
            // checks those codes without a log on sim): here only DrTM and HADES post no RPC at all
            if (c.contains("all-onesided") && (name.startsWith("drtm") || name.startsWith("hades"))) assertEquals(0, net.get("rpc").asLong(), name);
            // node 0 reaches both other nodes, one-sided by shared memory or emulated over TCP as UCX_TLS says
            assertEquals(2.0, s.get("extra").get("ucx.peers.onesided." + mode).asDouble(), name + ": " + s.get("extra"));
        }
    }

    @Test
    void rccRunSpawnsTheNodes() throws Exception {
        Path cfg = Files.writeString(dir.resolve("run.yaml"), config("run", "posix,self", "occ", "READ+COMMIT", "smallbank", 150));
        Cli.Outcome o = Cli.run(dir, Launcher.around(org.rccj.framework.run.ExperimentRunner::run), "run", cfg.toString(), "--out", "out/run");
        assertEquals(Exit.OK, o.code(), o.err());
        JsonNode s = summary(dir.resolve("out/run"));
        assertEquals("ucx", s.get("fabric").asText());
        assertEquals(3, s.get("cpu").get("busy_share").size());
        assertTrue(s.get("verification").get("serializable").asBoolean());
        assertTrue(o.err().contains("[node 0] rcc: occ on smallbank, ucx"), o.err());
    }

    private static void awaitRunning(TcpClusterTest.Node n) throws InterruptedException { TcpClusterTest.awaitRunning(n); }

    @Test
    void aKilledNodeStopsTheRunEverywhereWithOneLineNamingIt() throws Exception {
        Path cfg = Files.writeString(dir.resolve("long.yaml"), config("long", "posix,self", "occ", "all-onesided", "smallbank", 60_000));
        try (TcpClusterTest.Node launcher = new TcpClusterTest.Node(List.of("run", cfg.toString(), "--out", "killed"), Map.of(), dir)) {
            awaitRunning(launcher);
            List<ProcessHandle> nodes = launcher.process.descendants().toList();
            ProcessHandle victim = TcpClusterTest.nodeWithId(nodes, 2);
            victim.destroyForcibly();
            assertEquals(Exit.INTERNAL_ERROR, launcher.await(60), launcher.output.toString());
            String last = launcher.output.toString().lines().reduce((a, b) -> b).orElse("");
            assertTrue(last.startsWith("rcc: ucx run stopped: node 2 failed"), launcher.output.toString());
            assertFalse(Files.exists(dir.resolve("killed")), "a result directory after a failed run");
            for (ProcessHandle p : nodes) p.onExit().get(20, TimeUnit.SECONDS);
        }
    }

    /** A stopped (SIGSTOP) node: one-sided ops by shared memory need nothing of it, the control plane notices. */
    @Test
    void aStoppedNodeStopsTheRunAfterThePeerTimeout() throws Exception {
        Path cfg = Files.writeString(dir.resolve("hang.yaml"), config("hang", "posix,self", "nowait", "all-onesided", "smallbank", 60_000)
                .replace("nodes: 3", "nodes: 2\nreplication: 2"));
        String hosts = hosts(2);
        Path secret = secret("a secret for the stopped ucx node");
        List<TcpClusterTest.Node> nodes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            nodes.add(new TcpClusterTest.Node(List.of("node", cfg.toString(), "--id", Integer.toString(i), "--hosts", hosts, "--secret-file",
                    secret.toString(), "--peer-timeout", "2", "--out", "hung", "--set", "fabric=ucx"), Map.of(), dir));
        }
        try {
            awaitRunning(nodes.get(0));
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(nodes.get(1).process.pid())).start().waitFor());
            assertEquals(Exit.INTERNAL_ERROR, nodes.get(0).await(60), nodes.get(0).output.toString());
            assertTrue(nodes.get(0).output.toString().matches("(?s).*rcc: node 1 \\(127\\.0\\.0\\.1:\\d+\\) sent nothing for 2\\.0 s: it hung or the network failed\\n"),
                    nodes.get(0).output.toString());
            assertFalse(Files.exists(dir.resolve("hung")));
        } finally {
            for (TcpClusterTest.Node n : nodes) {
                n.process.destroyForcibly();
                n.process.waitFor(20, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aWrongSecretIsRefused() throws Exception {
        Path cfg = Files.writeString(dir.resolve("two.yaml"), config("two", "posix,self", "occ", "all-rpc", "smallbank", 50)
                .replace("nodes: 3", "nodes: 2\nreplication: 2").replace("ucx: {tls: 'posix,self'}", "ucx: {tls: 'posix,self', join_timeout_s: 120}"));
        String hosts = hosts(2);
        TcpClusterTest.Node n0 = new TcpClusterTest.Node(List.of("node", cfg.toString(), "--id", "0", "--hosts", hosts, "--secret-file",
                secret("the right secret, the right one").toString(), "--set", "fabric=ucx"), Map.of(), dir);
        TcpClusterTest.Node n1 = new TcpClusterTest.Node(List.of("node", cfg.toString(), "--id", "1", "--hosts", hosts, "--secret-file",
                secret("a wrong secret, quite the wrong").toString(), "--set", "fabric=ucx"), Map.of(), dir);
        // the cluster never forms: the user's to fix (exit 2), and node 0 stops on the refusal, not at its join timeout
        assertEquals(Exit.BAD_INPUT, n1.await(60), n1.output.toString());
        assertTrue(n1.printed(") refused this node: wrong secret"), n1.output.toString());
        assertEquals(Exit.BAD_INPUT, n0.await(60), n0.output.toString());
        assertTrue(n0.printed("; start every node with the same secret file and config"), n0.output.toString());
    }

    /** Without libucp (here: pointed at an empty directory) a ucx run is refused before it starts, in one line. */
    @Test
    void aMissingLibraryIsBadInputNamingThePackage() throws Exception {
        Path cfg = Files.writeString(dir.resolve("nolib.yaml"), config("nolib", "posix,self", "occ", "all-rpc", "smallbank", 50));
        Files.createDirectories(dir.resolve("empty"));
        TcpClusterTest.Node n = new TcpClusterTest.Node(List.of("run", cfg.toString(), "--out", "nolib"),
                Map.of("RCC_UCX_LIB_DIR", dir.resolve("empty").toString()), dir);
        assertEquals(Exit.BAD_INPUT, n.await(60), n.output.toString());
        String out = n.output.toString().trim();
        assertEquals(1, out.lines().count(), out);
        assertTrue(out.contains("fabric: ucx: UCX library") && out.contains("not found") && out.contains("apt-get install libucx0"), out);
    }

    @Test
    void doctorReportsTheLibraryAndItsTransports() {
        Cli.Outcome o = Cli.run(dir, "doctor");
        assertEquals(Exit.OK, o.code(), o.err());
        assertTrue(o.out().matches("(?s).*\nucx: 1\\.\\d+\\.\\d+ \\(libucp from .*"), o.out());
        assertTrue(o.out().matches("(?s).*\nucx transports: [^\n]*posix/memory[^\n]*tcp/[^\n]*\n.*")
                || o.out().matches("(?s).*\nucx transports: [^\n]*tcp/[^\n]*posix/memory[^\n]*\n.*"), o.out());
        assertTrue(o.out().contains("\nlocked memory limit (ulimit -l): "), o.out());
        assertTrue(o.out().contains("\nrdma devices: "), o.out());
    }
}
