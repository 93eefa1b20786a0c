package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.experiments.config.ConfigLoader;

class SetOverridesTest {
    @TempDir Path dir;

    @Test
    void scalarTyping() {
        assertEquals(2, ConfigLoader.scalar("2"));
        assertEquals(-5, ConfigLoader.scalar("-5"));
        assertEquals(10, ConfigLoader.scalar("010"), "decimal, not YAML 1.1 octal");
        assertEquals(1000, ConfigLoader.scalar("1_000"));
        assertEquals(16, ConfigLoader.scalar("0x10"));
        assertEquals(8, ConfigLoader.scalar("0o10"));
        assertEquals(12345678901L, ConfigLoader.scalar("12345678901"));
        assertEquals("99999999999999999999", ConfigLoader.scalar("99999999999999999999"));
        assertEquals(0.5, ConfigLoader.scalar("0.5"));
        assertEquals(0.5, ConfigLoader.scalar(".5"));
        assertEquals(1000.0, ConfigLoader.scalar("1e3"));
        assertEquals(Double.POSITIVE_INFINITY, ConfigLoader.scalar(".inf"));
        assertEquals(true, ConfigLoader.scalar("true"));
        assertEquals(false, ConfigLoader.scalar("False"));
        assertEquals("no", ConfigLoader.scalar("no"), "YAML 1.2: no is a string");
        assertEquals("yes", ConfigLoader.scalar("yes"));
        assertNull(ConfigLoader.scalar("null"));
        assertNull(ConfigLoader.scalar("~"));
        assertNull(ConfigLoader.scalar(""));
        assertEquals("READ+COMMIT", ConfigLoader.scalar("READ+COMMIT"));
        assertEquals("all-onesided", ConfigLoader.scalar("all-onesided"));
        assertEquals("0.5", ConfigLoader.scalar("'0.5'"));
        assertEquals("true", ConfigLoader.scalar("\"true\""));
        assertEquals("a: b", ConfigLoader.scalar("a: b"), "never a mapping");
        assertEquals("[1, 2]", ConfigLoader.scalar("[1, 2]"), "never a list");
        assertEquals("#1", ConfigLoader.scalar("#1"), "never a comment");
        assertEquals("x=y", ConfigLoader.scalar("x=y"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void nestingCreatesAndReachesMappings() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("workload", new LinkedHashMap<>(Map.of("name", "fakewl")));
        ConfigLoader.applySet(tree, "workload.hot_probability=0.25");
        ConfigLoader.applySet(tree, "faults.torn_reads=true");
        ConfigLoader.applySet(tree, "a.b.c=x=y");
        ConfigLoader.applySet(tree, "nodes=2");
        ConfigLoader.applySet(tree, "nodes=3");
        assertEquals(0.25, ((Map<String, Object>) tree.get("workload")).get("hot_probability"));
        assertEquals("fakewl", ((Map<String, Object>) tree.get("workload")).get("name"));
        assertEquals(true, ((Map<String, Object>) tree.get("faults")).get("torn_reads"));
        assertEquals("x=y", ((Map<String, Object>) ((Map<String, Object>) tree.get("a")).get("b")).get("c"));
        assertEquals(3, tree.get("nodes"), "later --set wins");
        tree.put("history", null);
        ConfigLoader.applySet(tree, "history.x=1"); // a null parent becomes a mapping
        assertEquals(Map.of("x", 1), tree.get("history"));
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.applySet(tree, "nodes.max=4"));
        assertTrue(e.getMessage().contains("nodes is '3', not a mapping"), e.getMessage());
    }

    @Test
    void setsReachTheResolvedConfig() throws Exception {
        Path f = Cli.file(dir, "smallbank-occ.yaml", Cli.yaml("hybrid: all-rpc", "verify: false"));
        Config c = RunCommand.resolve(f, new String[] {"hybrid=READ+COMMIT", "nodes=2", "replication=2", "workload.hot_probability=0.5",
                "workload.skew=null", "workload.read_only=true", "verify=true", "seed=-7", "warmup_ms=0", "faults.torn_reads=true",
                "protocol_options.lease_us=20"});
        assertEquals(18, c.hybrid().code());
        assertEquals(List.of(Stage.READ, Stage.COMMIT), c.hybrid().oneSidedStages());
        assertEquals(2, c.nodes());
        assertEquals(2, c.replication());
        assertEquals(0.5, c.workload().get("hot_probability"));
        assertNull(c.workload().get("skew"));
        assertEquals(true, c.workload().get("read_only"));
        assertEquals(true, c.verify());
        assertEquals(-7L, c.seed());
        assertEquals(0.0, c.warmupMs());
        assertEquals(true, c.fabricSetting("faults.torn_reads"));
        assertEquals(20, c.protocolOptions().get("lease_us"));
        assertEquals("smallbank-occ", c.name(), "default name is the config file name");
        assertEquals("renamed", RunCommand.resolve(f, new String[] {"name=renamed"}).name());
        assertEquals("18", String.valueOf(RunCommand.resolve(f, new String[] {"hybrid=18"}).hybrid().code()));
    }

    @Test
    void jsonConfigAndSets() throws Exception {
        Path f = Cli.file(dir, "exp.json", "{\"name\": \"j\", \"protocol\": \"fakeproto\", \"nodes\": 3, \"workload\": {\"name\": \"fakewl\", \"accounts\": 7}}");
        Config c = RunCommand.resolve(f, new String[] {"workload.accounts=9"});
        assertEquals("j", c.name());
        assertEquals(9, c.workload().get("accounts"));
    }

    @Test
    void emptyYamlIsAllDefaultsPlusSets() throws Exception {
        Path f = Cli.file(dir, "empty.yaml", "# nothing here\n");
        Config c = RunCommand.resolve(f, new String[] {"protocol=fakeproto", "workload.name=fakewl"});
        assertEquals(4, c.nodes());
        assertEquals("empty", c.name());
    }
}
