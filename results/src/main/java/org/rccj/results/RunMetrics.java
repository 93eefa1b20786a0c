package org.rccj.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.run.Config;

/**
 * The figures of one finished run that sweeps, enumerations and plots aggregate, read back from its
 * summary.json (docs/architecture.md). Reading the file rather than the in-memory result means a fresh run, a
 * resumed one and a merged one give exactly the same figures (summary.json is already rounded).
 */
public record RunMetrics(
        Path dir,
        String name,
        String protocol,
        String workload,
        String fabric,
        long seed,
        int code,
        List<String> onesided,
        JsonNode config,
        long commits,
        double throughputTps,
        double latencyMeanUs,
        double latencyP50Us,
        double latencyP90Us,
        double latencyP95Us,
        double latencyP99Us,
        double abortRate,
        Map<String, StageFigures> stages,
        boolean verificationChecked,
        boolean verificationPassed,
        List<String> warnings,
        Map<String, Double> outsideParts) {

    /**
     * Without summary.json's {@code outside_stages} (results written before it existed): the time outside stages
     * is then derived, see {@link #outsideStages()}.
     */
    public RunMetrics(Path dir, String name, String protocol, String workload, String fabric, long seed, int code, List<String> onesided,
                      JsonNode config, long commits, double throughputTps, double latencyMeanUs, double latencyP50Us, double latencyP90Us,
                      double latencyP95Us, double latencyP99Us, double abortRate, Map<String, StageFigures> stages, boolean verificationChecked,
                      boolean verificationPassed, List<String> warnings) {
        this(dir, name, protocol, workload, fabric, seed, code, onesided, config, commits, throughputTps, latencyMeanUs, latencyP50Us,
                latencyP90Us, latencyP95Us, latencyP99Us, abortRate, stages, verificationChecked, verificationPassed, warnings, Map.of());
    }

    /** Without a p95 (NaN) and warnings (synthetic figures). */
    public RunMetrics(Path dir, String name, String protocol, String workload, String fabric, long seed, int code, List<String> onesided,
                      JsonNode config, long commits, double throughputTps, double latencyMeanUs, double latencyP50Us, double latencyP90Us,
                      double latencyP99Us, double abortRate, Map<String, StageFigures> stages, boolean verificationChecked,
                      boolean verificationPassed) {
        this(dir, name, protocol, workload, fabric, seed, code, onesided, config, commits, throughputTps, latencyMeanUs, latencyP50Us,
                latencyP90Us, Double.NaN, latencyP99Us, abortRate, stages, verificationChecked, verificationPassed, List.of());
    }

    /** One row of summary.json's {@code stages}: executions, mean and 99th-percentile duration (us). */
    public record StageFigures(long count, double meanUs, double p99Us) {
        /** Time spent in the stage per committed transaction, us (aborted attempts included). */
        public double perCommitUs(long commits) { return commits <= 0 ? 0 : count * meanUs / commits; }

        /** Without a p99 (NaN). */
        public StageFigures(long count, double meanUs) { this(count, meanUs, Double.NaN); }
    }

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    /** True when {@code dir} holds a finished result (a summary.json). */
    public static boolean isResultDir(Path dir) {
        return Files.isRegularFile(dir.resolve(SummaryJson.FILE_NAME));
    }

    /** Reads {@code dir/summary.json}. */
    public static RunMetrics read(Path dir) throws IOException {
        JsonNode s = SummaryJson.read(dir.resolve(SummaryJson.FILE_NAME));
        try {
            return of(dir, s);
        } catch (RuntimeException e) {
            throw new IOException(dir.resolve(SummaryJson.FILE_NAME) + ": not a summary.json of this version: " + e.getMessage(), e);
        }
    }

    /** The figures of a summary.json tree found in {@code dir}. */
    public static RunMetrics of(Path dir, JsonNode s) {
        JsonNode lat = need(s, "latency_us");
        Map<String, StageFigures> stages = new LinkedHashMap<>();
        JsonNode st = need(s, "stages");
        for (Iterator<Map.Entry<String, JsonNode>> it = st.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode p99 = e.getValue().get("p99_us");
            stages.put(e.getKey(), new StageFigures(need(e.getValue(), "count").asLong(), number(e.getValue(), "mean_us"),
                    p99 != null && p99.isNumber() ? p99.asDouble() : Double.NaN));
        }
        JsonNode hybrid = need(s, "hybrid");
        List<String> onesided = new ArrayList<>();
        for (JsonNode n : need(hybrid, "onesided")) onesided.add(n.asText());
        JsonNode v = s.path("verification");
        boolean checked = v.path("checked").asBoolean(false);
        // a verification that checked no transaction verified nothing: not a pass (decision 0161)
        boolean passed = checked && v.path("serializable").asBoolean(false) && v.path("txns_checked").asLong(1) > 0;
        for (JsonNode inv : v.path("invariants")) passed &= inv.asBoolean(false);
        List<String> warnings = new ArrayList<>();
        for (JsonNode w : s.path("warnings")) warnings.add(w.asText());
        Map<String, Double> outside = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = s.path("outside_stages").path("parts").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            outside.put(e.getKey(), e.getValue().isNumber() ? e.getValue().asDouble() : Double.NaN);
        }
        return new RunMetrics(dir, need(s, "name").asText(), need(s, "protocol").asText(), need(s, "workload").asText(),
                need(s, "fabric").asText(), need(s, "seed").asLong(), need(hybrid, "code").asInt(),
                Collections.unmodifiableList(onesided), need(s, "config"), need(s, "commits").asLong(),
                number(s, "throughput_tps"), number(lat, "mean"), number(lat, "p50"), number(lat, "p90"),
                optionalNumber(lat, "p95"), number(lat, "p99"),
                number(s, "abort_rate"), Collections.unmodifiableMap(stages), checked, passed, List.copyOf(warnings),
                Collections.unmodifiableMap(outside));
    }

    /** The config as canonical JSON text: what "the same experiment" means when resuming and merging. */
    public String configText() { return config.toString(); }

    /** {@link Config#toMap()} as the same canonical JSON text that {@link #configText()} gives for its result. */
    public static String configText(Config c) {
        return MAPPER.valueToTree(c.toMap()).toString();
    }

    /** {@link #configTextWithout} of a config not yet run (compares with a result's). */
    public static String configTextWithout(Config c, String... keys) {
        ObjectNode o = MAPPER.valueToTree(c.toMap());
        for (String k : keys) o.remove(k);
        return o.toString();
    }

    /**
     * The config as canonical JSON text with some top-level keys removed (e.g. {@code hybrid} and
     * {@code seed}: the experiment an enumeration's runs share).
     */
    public String configTextWithout(String... keys) {
        ObjectNode o = config.deepCopy();
        for (String k : keys) o.remove(k);
        return o.toString();
    }

    /**
     * The time of a committed transaction outside its stages, us, as segments named for the legend: summary.json's
     * {@code outside_stages.parts} (key with underscores as spaces) when it has them, else one segment
     * {@value OutsideStages#DERIVED} = the mean latency less the stages' time per committed transaction.
     * The stages' time per txn plus these segments is the mean latency (derived: unless the stages exceed it, when
     * the segment is 0 and {@link OutsideStages#excessUs} says by how much).
     */
    public Map<String, Double> outsideStages() {
        double stagesUs = 0;
        for (StageFigures f : stages.values()) stagesUs += f.perCommitUs(commits);
        return OutsideStages.segments(outsideParts, latencyMeanUs, stagesUs);
    }

    /** True when summary.json lists warnings (few commits, a window shorter than the latency, ...). */
    public boolean warned() { return !warnings.isEmpty(); }

    /** Latency mean, us (the hybrid scatter's y axis). */
    public double latencyUs() { return latencyMeanUs; }

    private static JsonNode need(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) throw new IllegalArgumentException("missing field '" + field + "'");
        return v;
    }

    /** A number that may be null in summary.json (non-finite figures): NaN then. */
    /** A field that results of older versions lack (summary.json had no p95 before 2026-11-23): NaN then. */
    private static double optionalNumber(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isNumber() ? v.asDouble() : Double.NaN;
    }

    private static double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null) throw new IllegalArgumentException("missing field '" + field + "'");
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }
}
