package org.rccj.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rccj.testkit.SmallRuns;

/**
 * Configs run across three {@code rcc node} processes until each one's verification checked at least
 * {@link SmallRuns#MIN_CHECKED} committed transactions (issue 33): a short window on a loaded host can leave a run
 * with a few dozen, which proves little. Every config runs once with its own window; those that checked too few
 * run again, in a fresh set of nodes, with a window lengthened by 2.5 times what they lacked (2x to 8x; rates vary from run to run on a loaded host), up to
 * {@link #ROUNDS} rounds and {@link #MAX_WINDOW_MS} per run. The caller asserts on the summaries (with
 * {@link TcpClusterTest#assertVerified}, which names the count when it is short).
 */
final class ClusterMatrix {
    static final int ROUNDS = 4;
    static final double MAX_WINDOW_MS = 12_000;

    private ClusterMatrix() {}

    /** Runs {@code configs} (file names in {@code dir}); returns each config's summary.json (its last round's), by name. */
    static Map<String, JsonNode> runChecked(Path dir, List<String> configs, Path secret, int joinTimeoutS, int awaitS) throws Exception {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        List<String> todo = configs;
        Path here = dir;
        for (int round = 0; round < ROUNDS && !todo.isEmpty(); round++) {
            List<TcpClusterTest.Node> nodes = TcpClusterTest.threeNodes(here, todo, secret, joinTimeoutS);
            try {
                TcpClusterTest.awaitSuccess(nodes, awaitS);
            } finally {
                for (TcpClusterTest.Node n : nodes) n.close();
            }
            List<String> again = new ArrayList<>();
            Path next = dir.resolve("round" + (round + 1));
            for (String c : todo) {
                String name = c.replace(".yaml", "");
                // rcc node writes a single config's results into --out itself
                JsonNode s = TcpClusterTest.summary(todo.size() == 1 ? here.resolve("results") : here.resolve("results").resolve(name));
                out.put(name, s);
                long checked = s.get("verification").get("txns_checked").asLong();
                double window = s.get("config").get("duration_ms").asDouble();
                System.out.println("ClusterMatrix: " + name + ": " + checked + " checked in " + window + " ms");
                if (checked >= SmallRuns.MIN_CHECKED || round == ROUNDS - 1 || window >= MAX_WINDOW_MS) continue;
                double factor = checked == 0 ? 8 : Math.max(2, Math.min(8, 2.5 * SmallRuns.MIN_CHECKED / checked));
                String yaml = Files.readString(here.resolve(c)).replaceFirst("(?m)^duration_ms: .*$",
                        "duration_ms: " + String.format(Locale.ROOT, "%.0f", Math.min(MAX_WINDOW_MS, window * factor)));
                Files.createDirectories(next);
                Files.writeString(next.resolve(c), yaml);
                again.add(c);
            }
            if (!again.isEmpty()) System.out.println("ClusterMatrix: round " + (round + 1) + " with longer windows for " + again);
            todo = again;
            here = next;
        }
        return out;
    }

    /** {@link #runChecked} with the secret {@code secretText} in a file of {@code dir}. */
    static Map<String, JsonNode> runChecked(Path dir, List<String> configs, String secretText, int joinTimeoutS, int awaitS) throws Exception {
        return runChecked(dir, configs, TcpClusterTest.secretFile(dir, secretText), joinTimeoutS, awaitS);
    }
}
