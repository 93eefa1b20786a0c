package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;

/**
 * Decision 0176, {@code fetch_items: one_by_one}: every protocol runs verified with it (serializable, invariants
 * kept); where it applies a fetch of several accesses becomes one stage call per access, so SmallBank's fetch stage
 * (NOWAIT's LOCK) has more calls per commit than with {@code together}; CALVIN, where it does not apply, runs as
 * before and says so in its warnings. The default, {@code artifact}, is each as RCC's artifact does (decision 0201).
 */
class FetchItemsTest {
    @TempDir Path dir;

    /**
     * 3 ms (DrTM 8: one by one, its all-rpc code commits fewer than the 500 transactions the verification needs in 3);
     * {@code fetch} null: the config's default.
     */
    private JsonNode run(String name, String protocol, String hybrid, String fetch) throws Exception {
        Path cfg = Files.writeString(dir.resolve(name + ".yaml"), TcpClusterTest.config(name, "fabric: sim", protocol, hybrid, "smallbank",
                        protocol.equals("drtm") ? 8 : 3)
                .replace("warmup_ms: 20", "warmup_ms: 0.2").replaceAll("protocol_options: .*\n", ""));
        String[] args = fetch == null ? new String[] {"run", cfg.toString(), "--out", "out/" + name}
                : new String[] {"run", cfg.toString(), "--out", "out/" + name, "--set", "fetch_items=" + fetch};
        Cli.runReal(dir, args).assertOk();
        OutsideStagesTest.assertIdentity(dir.resolve("out/" + name), name);
        JsonNode s = TcpClusterTest.summary(dir.resolve("out/" + name));
        TcpClusterTest.assertVerified(s, name);
        return s;
    }

    private static double callsPerCommit(JsonNode s, String stage) {
        return s.get("stages").get(stage).get("count").asDouble() / s.get("commits").asDouble();
    }

    @Test
    void everyProtocolOneByOne() throws Exception {
        for (ProtocolFactory pf : Registry.protocols()) {
            if (pf.name().contains("-") || !pf.getClass().getName().startsWith("org.rccj.protocols.")) continue;   // test-only protocols
            for (String code : new String[] {"all-rpc", "all-onesided"}) {
                JsonNode s = run(pf.name() + "-" + code, pf.name(), code, "one_by_one");
                boolean warned = s.get("warnings").toString().contains("fetch_items: one_by_one has no effect");
                assertEquals(!pf.fetchOneByOneApplies(), warned, pf.name() + ": " + s.get("warnings"));
            }
        }
    }

    /**
     * Decision 0201: the default, {@code artifact}, is the artifact's structure for the protocol and code: one by one where
     * its transactions lock and read item by item (NOWAIT, MVCC, SUNDIAL, OCC with a one-sided READ), together where it
     * batches (OCC's RPC READ) or the protocol is not one of RCC's (DrTM). Same run as the explicit setting, no warning.
     */
    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource({
            "nowait, all-rpc, one_by_one",
            "nowait, all-onesided, one_by_one",
            "mvcc, all-rpc, one_by_one",
            "sundial, LOCK+LOG, one_by_one",
            "occ, all-onesided, one_by_one",
            "occ, READ, one_by_one",
            "occ, all-rpc, together",
            "occ, LOCK+VALIDATE+LOG, together",
            "drtm, all-onesided, together"})
    void theDefaultIsTheArtifactsStructure(String protocol, String code, String same) throws Exception {
        JsonNode byDefault = run(protocol + code + "-default", protocol, code, null);
        assertEquals("artifact", byDefault.get("config").get("fetch_items").asText(), "the default");
        JsonNode explicit = run(protocol + code + "-" + same, protocol, code, same);
        assertEquals(explicit.get("commits").asLong(), byDefault.get("commits").asLong(), protocol + " " + code);
        assertEquals(explicit.get("latency_us").get("mean").asDouble(), byDefault.get("latency_us").get("mean").asDouble(), protocol + " " + code);
        assertFalse(byDefault.get("warnings").toString().contains("fetch_items"), byDefault.get("warnings").toString());
    }

    @Test
    void oneStageCallPerAccess() throws Exception {
        for (String code : new String[] {"all-rpc", "all-onesided"}) {
            double together = callsPerCommit(run("t" + code, "nowait", code, "together"), "LOCK");
            double oneByOne = callsPerCommit(run("o" + code, "nowait", code, "one_by_one"), "LOCK");
            // SmallBank: 1 to 3 accesses per transaction (about 1.8 on average), one fetch each; failed calls count too
            assertTrue(oneByOne > 1.3 * together, code + ": LOCK calls per commit " + together + " together, " + oneByOne + " one by one");
        }
    }
}
