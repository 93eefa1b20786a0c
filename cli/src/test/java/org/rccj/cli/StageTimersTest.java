package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;

/**
 * Issue 40, {@code stage_timers: rccj|artifact}: both run on every protocol and code, stage rows plus outside_stages
 * add up to the mean latency in both, the runs are otherwise the same (same commits, same latency: only the accounting
 * differs), and with the log-ack awaited ({@code passive_ack: false}) the artifact's LOG row is below RCC-J's, the
 * log-ack round trip having moved outside the stages.
 */
class StageTimersTest {
    @TempDir Path dir;

    private JsonNode run(String name, ProtocolFactory pf, String code, String timers) throws Exception {
        Path cfg = Files.writeString(dir.resolve(name + ".yaml"), TcpClusterTest.config(name, "fabric: sim", pf.name(), code, "smallbank", 1)
                .replace("warmup_ms: 20", "warmup_ms: 0.2").replace("verify: true", "verify: false").replaceAll("protocol_options: .*\n", ""));
        Cli.runReal(dir, new String[] {"run", cfg.toString(), "--out", "out/" + name, "--set", "stage_timers=" + timers,
                "--set", "passive_ack=false"}).assertOk();
        OutsideStagesTest.assertIdentity(dir.resolve("out/" + name), name);
        return TcpClusterTest.summary(dir.resolve("out/" + name));
    }

    @Test
    void everyProtocolBothTimers() throws Exception {
        int logged = 0;
        for (ProtocolFactory pf : Registry.protocols()) {
            if (pf.name().contains("-") || !pf.getClass().getName().startsWith("org.rccj.protocols.")) continue;   // test-only protocols
            for (String code : new String[] {"all-rpc", "all-onesided"}) {
                String n = pf.name() + "-" + code;
                JsonNode r = run(n + "-rccj", pf, code, "rccj");
                JsonNode a = run(n + "-artifact", pf, code, "artifact");
                assertEquals("artifact", a.get("config").get("stage_timers").asText());
                assertEquals(r.get("commits").asLong(), a.get("commits").asLong(), n + ": the timers change only the accounting");
                assertEquals(r.get("latency_us").get("mean").asDouble(), a.get("latency_us").get("mean").asDouble(), 0, n);
                JsonNode logR = r.get("stages").get("LOG"), logA = a.get("stages").get("LOG");
                // DrTM sends no log-ack (CoordinatorLog): its LOG is the same either way
                boolean ack = logR != null && !pf.name().equals("drtm");
                if (ack) {
                    logged++;
                    assertTrue(logA.get("mean_us").asDouble() < logR.get("mean_us").asDouble(), n + ": LOG " + logA + " vs " + logR);
                    assertTrue(a.get("outside_stages").get("us_per_txn").asDouble() > r.get("outside_stages").get("us_per_txn").asDouble(), n);
                } else if (logR != null) {
                    assertEquals(logR.get("mean_us").asDouble(), logA.get("mean_us").asDouble(), 0, n);
                }
            }
        }
        assertTrue(logged >= 8, "protocols with a log-ack: " + logged / 2);
    }
}
