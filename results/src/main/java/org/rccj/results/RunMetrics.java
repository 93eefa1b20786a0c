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
     * A builder, by component name: what {@link #of} and synthetic figures (tests) use instead of 22 positional
     * arguments. Unset: {@code latencyP95Us} NaN (results written before summary.json had a p95), {@code
     * onesided}, {@code stages}, {@code warnings} and {@code outsideParts} empty (the time outside the stages is then
     * derived, see {@link #outsideStages()}), numbers 0, {@code config} and names null.
     */
    public static Builder builder() { return new Builder(); }

    /** A builder holding this run's figures (to build a copy with some changed). */
    public Builder toBuilder() {
        Builder b = new Builder();
            b.dir = dir;
            b.name = name;
            b.protocol = protocol;
            b.workload = workload;
            b.fabric = fabric;
            b.seed = seed;
            b.code = code;
            b.onesided = onesided;
            b.config = config;
            b.commits = commits;
            b.throughputTps = throughputTps;
            b.latencyMeanUs = latencyMeanUs;
            b.latencyP50Us = latencyP50Us;
            b.latencyP90Us = latencyP90Us;
            b.latencyP95Us = latencyP95Us;
            b.latencyP99Us = latencyP99Us;
            b.abortRate = abortRate;
            b.stages = stages;
            b.verificationChecked = verificationChecked;
            b.verificationPassed = verificationPassed;
            b.warnings = warnings;
            b.outsideParts = outsideParts;
        return b;
    }

    /** See {@link #builder()}. */
    public static final class Builder {
        private Path dir;
        private String name;
        private String protocol;
        private String workload;
        private String fabric;
        private long seed;
        private int code;
        private List<String> onesided = List.of();
        private JsonNode config;
        private long commits;
        private double throughputTps;
        private double latencyMeanUs;
        private double latencyP50Us;
        private double latencyP90Us;
        private double latencyP95Us = Double.NaN;
        private double latencyP99Us;
        private double abortRate;
        private Map<String, StageFigures> stages = Map.of();
        private boolean verificationChecked;
        private boolean verificationPassed;
        private List<String> warnings = List.of();
        private Map<String, Double> outsideParts = Map.of();

        private Builder() {}

        public Builder dir(Path v) { dir = v; return this; }
        public Builder name(String v) { name = v; return this; }
        public Builder protocol(String v) { protocol = v; return this; }
        public Builder workload(String v) { workload = v; return this; }
        public Builder fabric(String v) { fabric = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder code(int v) { code = v; return this; }
        public Builder onesided(List<String> v) { onesided = v; return this; }
        public Builder config(JsonNode v) { config = v; return this; }
        public Builder commits(long v) { commits = v; return this; }
        public Builder throughputTps(double v) { throughputTps = v; return this; }
        public Builder latencyMeanUs(double v) { latencyMeanUs = v; return this; }
        public Builder latencyP50Us(double v) { latencyP50Us = v; return this; }
        public Builder latencyP90Us(double v) { latencyP90Us = v; return this; }
        public Builder latencyP95Us(double v) { latencyP95Us = v; return this; }
        public Builder latencyP99Us(double v) { latencyP99Us = v; return this; }
        public Builder abortRate(double v) { abortRate = v; return this; }
        public Builder stages(Map<String, StageFigures> v) { stages = v; return this; }
        public Builder verificationChecked(boolean v) { verificationChecked = v; return this; }
        public Builder verificationPassed(boolean v) { verificationPassed = v; return this; }
        public Builder warnings(List<String> v) { warnings = v; return this; }
        public Builder outsideParts(Map<String, Double> v) { outsideParts = v; return this; }

        public RunMetrics build() {
            return new RunMetrics(dir, name, protocol, workload, fabric, seed, code, onesided, config, commits, throughputTps, latencyMeanUs, latencyP50Us, latencyP90Us, latencyP95Us, latencyP99Us, abortRate, stages, verificationChecked, verificationPassed, warnings, outsideParts);
        }
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
        return builder().dir(dir).name(need(s, "name").asText()).protocol(need(s, "protocol").asText())
                .workload(need(s, "workload").asText()).fabric(need(s, "fabric").asText()).seed(need(s, "seed").asLong())
                .code(need(hybrid, "code").asInt()).onesided(Collections.unmodifiableList(onesided)).config(need(s, "config"))
                .commits(need(s, "commits").asLong()).throughputTps(number(s, "throughput_tps"))
                .latencyMeanUs(number(lat, "mean")).latencyP50Us(number(lat, "p50")).latencyP90Us(number(lat, "p90"))
                .latencyP95Us(optionalNumber(lat, "p95")).latencyP99Us(number(lat, "p99")).abortRate(number(s, "abort_rate"))
                .stages(Collections.unmodifiableMap(stages)).verificationChecked(checked).verificationPassed(passed)
                .warnings(List.copyOf(warnings)).outsideParts(Collections.unmodifiableMap(outside)).build();
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
