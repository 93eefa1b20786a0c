package org.rccj.results;

import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.primitives.Counters;

/**
 * summary.json (docs/architecture.md): one JSON object per run, fields in the contract's order.
 *
 * <p>Deterministic: the same {@link RunResult} always gives the same bytes, except the
 * {@code environment} block and {@code sim.wall_s} and {@code sim.cpu_s}, which are the only places holding figures that
 * change between identical runs (no timestamps anywhere else). Measured doubles are rounded with fixed
 * decimals (us figures to 4, shares and rates to 6, throughputs to 3) and written in plain notation;
 * latencies are converted from the histograms' ns to us.
 */
public final class SummaryJson {
    public static final String FILE_NAME = "summary.json";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private SummaryJson() {}

    /** The summary as an ordered tree of maps, lists, strings, numbers, booleans and nulls. */
    public static Map<String, Object> tree(RunResult r) {
        Config c = r.config;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("fabric", c.fabric());
        m.put("profile", c.fabricSetting("profile"));
        m.put("protocol", c.protocol());
        m.put("workload", c.workloadName());
        m.put("seed", c.seed());
        Map<String, Object> hybrid = new LinkedHashMap<>();
        hybrid.put("code", c.hybrid().code());
        List<String> onesided = new ArrayList<>();
        for (Stage s : c.hybrid().oneSidedStages()) onesided.add(s.name());
        hybrid.put("onesided", onesided);
        m.put("hybrid", hybrid);
        m.put("config", c.toMap());
        m.put("measured_s", Decimals.round(r.measuredS, Decimals.SECONDS));
        Map<String, Object> warmup = WarmupReport.json(r);
        if (warmup != null) m.put("warmup", warmup);      // warmup_ms: auto only
        m.put("commits", r.commits());
        m.put("aborts", r.aborts());
        m.put("rolled_back", r.rolledBack());
        m.put("abort_rate", Decimals.round(r.abortRate(), Decimals.SHARE));
        m.put("abort_reasons", new LinkedHashMap<>(r.abortReasons));
        m.put("throughput_tps", Decimals.round(r.throughputTps(), Decimals.TPS));
        m.put("latency_us", latencyUs(r.total.latency));

        Map<String, Object> perType = new LinkedHashMap<>();
        for (Map.Entry<String, TxnTypeStats> e : r.perType.entrySet()) {
            TxnTypeStats t = e.getValue();
            Map<String, Object> tm = new LinkedHashMap<>();
            tm.put("commits", t.commits);
            tm.put("aborts", t.aborts);
            tm.put("rolled_back", t.rolledBack);
            tm.put("throughput_tps", Decimals.round(r.measuredS <= 0 ? 0 : t.commits / r.measuredS, Decimals.TPS));
            tm.put("latency_us", latencyUs(t.latency));
            perType.put(e.getKey(), tm);
        }
        m.put("per_txn_type", perType);

        Map<String, Object> stages = new LinkedHashMap<>();
        for (StageBreakdown.Row row : StageBreakdown.of(r)) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("count", row.count());
            sm.put("mean_us", Decimals.us(row.meanNs()));
            sm.put("p50_us", Decimals.us(row.p50Ns()));
            sm.put("p99_us", Decimals.us(row.p99Ns()));
            sm.put("share", Decimals.round(row.share(), Decimals.SHARE));
            stages.put(row.stage(), sm);
        }
        m.put("stages", stages);
        if (!OutsideStages.partsNs(r).isEmpty()) m.put("outside_stages", OutsideStages.json(r));
        Map<String, Object> paths = CriticalPathReport.json(r);
        if (paths != null) m.put("critical_path", paths);
        m.put("network", network(r.network));

        Map<String, Object> cpu = new LinkedHashMap<>();
        List<Object> busy = new ArrayList<>();
        for (double b : r.busyShare) busy.add(Decimals.round(b, Decimals.SHARE));
        cpu.put("busy_share", busy);
        m.put("cpu", cpu);

        RunResult.Verification v = r.verification;
        Map<String, Object> vm = new LinkedHashMap<>();
        vm.put("checked", v.checked());
        vm.put("serializable", v.serializable());
        vm.put("txns_checked", v.txnsChecked());
        vm.put("anomalies", new ArrayList<>(v.anomalies()));
        vm.put("invariants", new LinkedHashMap<>(v.invariants()));
        m.put("verification", vm);
        m.put("warnings", Warnings.of(r));

        if (!r.extra.isEmpty()) {
            Map<String, Object> extra = new LinkedHashMap<>();
            for (Map.Entry<String, Double> e : r.extra.entrySet()) {
                extra.put(e.getKey(), e.getValue() == null ? null : Decimals.significant(e.getValue(), 10));
            }
            m.put("extra", extra);
        }
        if (c.fabricFactory().virtualTime()) {
            Map<String, Object> sim = new LinkedHashMap<>();
            sim.put("events", r.simEvents);
            sim.put("commits_total", r.simCommitsTotal);
            sim.put("wall_s", Decimals.round(r.wallS, 3));
            sim.put("cpu_s", Decimals.round(r.cpuS, 3));
            m.put("sim", sim);
        }
        Map<String, Object> env = Environment.describe();
        if (r.hostLoad != null) {
            Map<String, Object> hl = HostNoise.describe(r.hostLoad);
            if (r.nodeHosts.size() > 1) {   // a multi-process run: every node's host, the figures above being node 0's
                List<Map<String, Object>> nodes = new java.util.ArrayList<>();
                for (org.rccj.framework.run.RunResult.NodeHost n : r.nodeHosts) {
                    Map<String, Object> node = new LinkedHashMap<>();
                    node.put("node", n.node());
                    node.put("host", n.host());
                    if (n.load() != null) node.putAll(HostNoise.describe(n.load()));
                    nodes.add(node);
                }
                hl.put("nodes", nodes);
            }
            env.put("host_load", hl);
        }
        if (r.simThreads > 0) env.put("sim_threads", r.simThreads);       // here: the result is the same on any number
        if (r.simThreadsNote != null) env.put("sim_threads_note", r.simThreadsNote);
        Path profileFile = profileFile(c);
        if (profileFile != null) {   // what the file held: its hash here, a copy beside summary.json
            Map<String, Object> pf = new LinkedHashMap<>();
            pf.put("path", profileFile.toAbsolutePath().normalize().toString());
            try {
                pf.put("sha256", Environment.sha256(profileFile));
            } catch (java.io.IOException e) {
                pf.put("sha256", null);
            }
            pf.put("copy", PROFILE_COPY);
            env.put("profile_file", pf);
        }
        m.put("environment", env);
        return m;
    }

    /** The copy of a run's profile file in its result directory. */
    public static final String PROFILE_COPY = "profile.properties";

    /** The profile file a run used (its {@code profile} names a file, not a built-in profile), or null. */
    public static Path profileFile(org.rccj.framework.run.Config c) {
        Object p = c == null ? null : c.fabricSetting("profile");
        if (p == null || org.rccj.primitives.CostProfile.isBuiltIn(String.valueOf(p))) return null;
        Path f = Path.of(String.valueOf(p));
        return java.nio.file.Files.isRegularFile(f) ? f : null;
    }

    /** The summary as pretty-printed JSON text (two-space indent, "\n" line ends, final newline). */
    public static String toJson(RunResult r) {
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(new DefaultIndenter("  ", "\n"));
        try {
            return MAPPER.writer(pp).writeValueAsString(tree(r)) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code file} (prefer {@link ResultWriter}, which writes a whole result directory atomically). */
    public static void write(RunResult r, Path file) throws IOException {
        Files.writeString(file, toJson(r), StandardCharsets.UTF_8);
    }

    /** Reads a summary.json (or any JSON file) back as a tree, for commands that aggregate results. */
    public static JsonNode read(Path file) throws IOException {
        return MAPPER.readTree(file.toFile());
    }

    static Map<String, Object> latencyUs(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mean", Decimals.us(h.mean()));
        m.put("p50", Decimals.us(h.quantile(0.50)));
        m.put("p90", Decimals.us(h.quantile(0.90)));
        m.put("p95", Decimals.us(h.quantile(0.95)));
        m.put("p99", Decimals.us(h.quantile(0.99)));
        m.put("p999", Decimals.us(h.quantile(0.999)));
        m.put("max", Decimals.us(h.max()));
        return m;
    }

    static Map<String, Object> network(Counters n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("read", n.read);
        m.put("write", n.write);
        m.put("cas", n.cas);
        m.put("faa", n.faa);
        m.put("rpc", n.rpc);
        m.put("bytes", n.bytes);
        m.put("doorbells", n.doorbells);
        m.put("local", n.local);
        return m;
    }
}
