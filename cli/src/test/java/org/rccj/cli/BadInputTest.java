package org.rccj.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.experiments.Exit;

/** Every kind of bad input: exit 2 and one stderr line "rcc: ..." naming the key; the runner is never reached. */
class BadInputTest {
    @TempDir Path dir;

    private Cli.Outcome runYaml(String yaml, String... extraArgs) throws Exception {
        Path f = Cli.file(dir, "exp.yaml", yaml);
        String[] args = new String[extraArgs.length + 2];
        args[0] = "run";
        args[1] = f.toString();
        System.arraycopy(extraArgs, 0, args, 2, extraArgs.length);
        return Cli.run(dir, args);
    }

    @Test void unknownTopLevelKey() throws Exception {
        runYaml(Cli.yaml("nodez: 3")).assertBadInput("nodez", "unknown key", "nodes");
    }

    @Test void wrongType() throws Exception {
        runYaml(Cli.yaml().replace("nodes: 3", "nodes: abc")).assertBadInput("nodes", "abc", "integer");
    }

    @Test void unknownProtocol() throws Exception {
        runYaml(Cli.yaml().replace("fakeproto", "nosuchproto")).assertBadInput("protocol", "nosuchproto", "fakeproto");
    }

    @Test void unknownWorkload() throws Exception {
        runYaml(Cli.yaml().replace("name: fakewl", "name: nosuchwl")).assertBadInput("workload.name", "nosuchwl", "fakewl");
    }

    @Test void badTcpTimeouts() throws Exception {
        runYaml(Cli.yaml("fabric: tcp"), "--set", "tcp.peer_timeout_s=0.5").assertBadInput("tcp.peer_timeout_s", "0.5", "[1, 3600]");
        runYaml(Cli.yaml("fabric: tcp\ntcp: {join_timeout_s: soon}")).assertBadInput("tcp.join_timeout_s", "soon", "number");
        runYaml(Cli.yaml(), "--set", "tcp.join_timeout_s=10").assertBadInput("tcp.join_timeout_s", "fabric sim cannot honour it");
    }

    @Test void badPassiveAck() throws Exception {
        runYaml(Cli.yaml(), "--set", "passive_ack=sometimes").assertBadInput("passive_ack", "sometimes");
        runYaml(Cli.yaml("fabric: tcp"), "--set", "passive_ack=true").assertBadInput("passive_ack", "tcp", "false");
    }

    @Test void badLocalAccess() throws Exception {
        runYaml(Cli.yaml(), "--set", "local_access=nic").assertBadInput("local_access", "nic", "network", "cpu");
    }

    @Test void badLocationCachePreload() throws Exception {
        runYaml(Cli.yaml(), "--set", "location_cache.preload=sometimes").assertBadInput("location_cache.preload", "sometimes", "auto", "true", "false");
    }

    @Test void badSundialRenew() throws Exception {
        runYaml(Cli.yaml(), "--set", "protocol=sundial", "--set", "protocol_options.renew=eager").assertBadInput("protocol_options.renew", "eager", "artifact", "batched");
    }

    @Test void unknownFabric() throws Exception {
        runYaml(Cli.yaml("fabric: infiniband")).assertBadInput("fabric", "infiniband", "sim", "local");
    }

    @Test void keyTheFabricCannotHonour() throws Exception {
        runYaml(Cli.yaml("fabric: local", "faults:", "  torn_reads: true")).assertBadInput("faults.torn_reads", "local", "sim");
        runYaml(Cli.yaml("fabric: local"), "--set", "faults.torn_reads=false").assertBadInput("faults.torn_reads", "local");
        runYaml(Cli.yaml(), "--set", "faults.lost_writes=true").assertBadInput("faults.lost_writes", "unknown key", "torn_reads");
        runYaml(Cli.yaml(), "--set", "profile=cx9").assertBadInput("profile", "cx9", "cx4-edr");
    }

    @Test void hybridStageTheProtocolLacks() throws Exception {
        runYaml(Cli.yaml("hybrid: READ+RENEW")).assertBadInput("hybrid", "RENEW", "fakeproto");
        runYaml(Cli.yaml("hybrid: 64")).assertBadInput("hybrid", "64", "RENEW");
        runYaml(Cli.yaml("hybrid: READ+TELEPORT")).assertBadInput("hybrid", "TELEPORT");
    }

    @Test void fewerNodesThanReplication() throws Exception {
        runYaml(Cli.yaml("replication: 4")).assertBadInput("replication", "nodes");
    }

    @Test void nonPositiveCounts() throws Exception {
        runYaml(Cli.yaml().replace("threads: 2", "threads: 0")).assertBadInput("threads", "'0'");
        runYaml(Cli.yaml().replace("coroutines: 4", "coroutines: -1")).assertBadInput("coroutines", "'-1'");
        runYaml(Cli.yaml(), "--set", "nodes=0").assertBadInput("nodes");
    }

    @Test void unknownWorkloadKey() throws Exception {
        runYaml(Cli.yaml("  hot_prob: 0.5")).assertBadInput("workload.hot_prob", "unknown key", "hot_probability");
    }

    @Test void outOfRangeWorkloadValue() throws Exception {
        runYaml(Cli.yaml("  hot_probability: 1.5")).assertBadInput("workload.hot_probability", "1.5", "[0, 1]");
        runYaml(Cli.yaml(), "--set", "workload.accounts=0").assertBadInput("workload.accounts");
        runYaml(Cli.yaml(), "--set", "workload.mix=read-heavy").assertBadInput("workload.mix", "write-heavy");
    }

    @Test void unknownProtocolOption() throws Exception {
        runYaml(Cli.yaml("protocol_options: {lease: 5}")).assertBadInput("protocol_options.lease", "lease_us");
    }

    @Test void badSetSyntax() throws Exception {
        runYaml(Cli.yaml(), "--set", "nodes").assertBadInput("--set nodes", "key=value");
        runYaml(Cli.yaml(), "--set", "=5").assertBadInput("--set", "empty key");
        runYaml(Cli.yaml(), "--set", "workload..accounts=5").assertBadInput("--set", "empty key");
        runYaml(Cli.yaml(), "--set").assertBadInput("--set", "needs a value");
    }

    @Test void setBelowAKeyThatIsNotAMapping() throws Exception {
        runYaml(Cli.yaml(), "--set", "nodes.x=1").assertBadInput("--set nodes.x", "nodes", "not a mapping");
        runYaml("workload: fakewl\nprotocol: fakeproto\n", "--set", "workload.accounts=5").assertBadInput("workload", "not a mapping");
    }

    @Test void missingConfigFile() {
        Cli.run(dir, "run", "nosuch.yaml").assertBadInput("nosuch.yaml", "no such config file");
        Cli.run(dir, "run", dir.toString()).assertBadInput("directory");
    }

    @Test void yamlSyntaxError() throws Exception {
        Path f = Cli.file(dir, "broken.yaml", "protocol: fakeproto\nworkload: [fakewl\nnodes: 3\n");
        Cli.run(dir, "run", f.toString()).assertBadInput("broken.yaml:3:", "YAML syntax error");
        Path tab = Cli.file(dir, "tab.yml", "protocol:\tfakeproto\n");
        Cli.run(dir, "run", tab.toString()).assertBadInput("tab.yml:1:", "YAML syntax error");
        Path dup = Cli.file(dir, "dup.yaml", "nodes: 3\nnodes: 4\n");
        Cli.run(dir, "run", dup.toString()).assertBadInput("dup.yaml:2:", "duplicate key 'nodes'");
    }

    @Test void jsonSyntaxError() throws Exception {
        Path f = Cli.file(dir, "broken.json", "{\n  \"protocol\": \"fakeproto\",\n  \"nodes\": 3,\n}\n");
        Cli.run(dir, "run", f.toString()).assertBadInput("broken.json:4:", "JSON syntax error");
    }

    @Test void topLevelNotAMapping() throws Exception {
        Path f = Cli.file(dir, "list.yaml", "- protocol: fakeproto\n");
        Cli.run(dir, "run", f.toString()).assertBadInput("list.yaml", "mapping");
    }

    @Test void commandLineMistakes() throws Exception {
        Path f = Cli.file(dir, "ok.yaml", Cli.yaml());
        Cli.run(dir).assertBadInput("missing command", "run");
        Cli.run(dir, "rnu", f.toString()).assertBadInput("unknown command 'rnu'", "run, sweep, enumerate, merge, plot, list, verify");
        Cli.run(dir, "--frobnicate").assertBadInput("unknown option --frobnicate");
        Cli.run(dir, "run").assertBadInput("missing CONFIG");
        Cli.run(dir, "run", f.toString(), "extra.yaml").assertBadInput("expected one CONFIG");
        Cli.run(dir, "run", f.toString(), "--threads", "3").assertBadInput("unknown option --threads");
        Cli.run(dir, "list", "extra").assertBadInput("list", "unknown argument 'extra'", "examples, schema");
        Cli.run(dir, "help", "bogus").assertBadInput("unknown command 'bogus'");
    }

    @Test void nodeWithoutPlacementSecretOrMatchingHosts() throws Exception {
        Cli.run(dir, "node", "x.yaml").assertBadInput("node: give --id I and --hosts");
        Cli.run(dir, "node", "x.yaml", "--id", "0").assertBadInput("--id and --hosts go together");
        Cli.run(dir, "node", "x.yaml", "--id", "0", "--hosts", "a:1,b:2").assertBadInput("--secret-file FILE is required");
        Cli.run(dir, "node", "x.yaml", "--id", "2", "--hosts", "a:1,b:2").assertBadInput("--id '2'", "0..1");
        Cli.run(dir, "node", "x.yaml", "--id", "0", "--hosts", "a:x,b:2").assertBadInput("'a:x' has no port number");
        Path secret = Cli.file(dir, "secret", "0123456789abcdef0123456789abcdef");
        java.nio.file.Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Cli.run(dir, "node", "x.yaml", "--id", "0", "--hosts", "a:1,b:2", "--secret-file", "secret").assertBadInput("accessible to other users", "chmod 600");
        java.nio.file.Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Path f = Cli.file(dir, "three.yaml", Cli.yaml());
        Cli.run(dir, "node", f.toString(), "--id", "0", "--hosts", "a:1,b:2", "--secret-file", "secret").assertBadInput("2 nodes", "nodes: 3");
        Cli.run(dir, "node", f.toString(), "--set", "fabric=sim", "--id", "0", "--hosts", "a:1,b:2", "--secret-file", "secret")
                .assertBadInput("fabric sim runs in one process", "multi-process fabric");
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of("n01", "n02", "n03", "n07", "gpu", "c9", "c10"), org.rccj.fabrics.cluster.Membership.expandHostList("n[01-03,07],gpu,c[9-10]"));
    }

    @Test void outDirThatIsNotAResult() throws Exception {
        Path f = Cli.file(dir, "ok.yaml", Cli.yaml());
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("keep.txt"), "precious");
        Cli.run(dir, "run", f.toString(), "--out", "src").assertBadInput("--out", "not a result directory");
        org.junit.jupiter.api.Assertions.assertEquals("precious", Files.readString(src.resolve("keep.txt")));
    }

    @Test void configErrorsThroughTheRealEntryPoint() throws Exception {
        // Main.run(String[], out, err) with the real ExperimentRunner: bad input never reaches it
        Path f = Cli.file(dir, "bad.yaml", Cli.yaml().replace("threads: 2", "threads: 0"));
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = Main.run(new String[] {"run", f.toString()}, new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
                new java.io.PrintStream(err, true));
        org.junit.jupiter.api.Assertions.assertEquals(Exit.BAD_INPUT, code);
        org.junit.jupiter.api.Assertions.assertTrue(err.toString().startsWith("rcc: threads"), err.toString());
    }
}
