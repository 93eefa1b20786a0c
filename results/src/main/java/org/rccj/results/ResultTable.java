package org.rccj.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The CSV tables of sweeps ({@code sweep.csv}) and enumerations ({@code hybrid.csv}): one row per
 * point, its key columns (the varied values, or the hybrid code), {@code runs} (finished runs
 * aggregated: one per seed), then the metrics: {@code throughput_tps}, {@code latency_mean_us},
 * {@code latency_p50_us}, {@code latency_p90_us}, {@code latency_p95_us}, {@code latency_p99_us}, {@code abort_rate}, one
 * {@code <STAGE>_mean_us} per stage (summary.json's stage means per call; {@code EXECUTE} last), one
 * {@code <STAGE>_us_per_txn} per stage (what it adds to a committed transaction: mean x count / commits), one
 * {@code outside_<part>_us_per_txn} per part of summary.json's {@code outside_stages} (only when the runs have it), then one
 * {@code <STAGE>_p99_us} per stage (the stages' 99th percentiles, same order). A metric is the
 * mean over the row's runs; when any row has several runs, each metric is followed by
 * {@code <metric>_ci95}, the half-width of its 95% confidence interval (Student t; empty for a single run).
 *
 * <p>Deterministic: the text depends only on the rows (in the given order) and the figures of their
 * summary.json files; numbers have fixed decimals (as in summary.json), "\n" line ends, no timestamps.
 */
public final class ResultTable {
    /**
     * One point: its key values (one per key column), its finished runs in seed order, and why it failed (null
     * when it did not: a failed point has no runs and empty metrics).
     */
    public record Row(List<String> keys, List<RunMetrics> runs, String failed) {
        public Row(List<String> keys, List<RunMetrics> runs) { this(keys, runs, null); }
    }

    /** The column listing the distinct warnings of a row's runs (summary.json's {@code warnings}), "; "-separated. */
    public static final String WARNINGS = "warnings";
    /** The column giving why a point failed; present only when some row failed. */
    public static final String FAILED = "failed";

    /** A metric column: name, how to get it from a run, decimals. */
    private record Column(String name, ToDoubleFunction<RunMetrics> value, int decimals) {}

    private ResultTable() {}

    /** The metric column names of a table over {@code rows} (without _ci95 columns). */
    public static List<String> metricColumns(List<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Column c : columns(rows)) out.add(c.name());
        return out;
    }

    public static String csv(List<String> keyColumns, List<Row> rows) {
        List<Column> cols = columns(rows);
        boolean ci = false, anyFailed = false;
        for (Row r : rows) {
            ci |= r.runs().size() > 1;
            anyFailed |= r.failed() != null;
        }
        StringBuilder sb = new StringBuilder();
        List<String> header = new ArrayList<>(keyColumns);
        header.add("runs");
        for (Column c : cols) {
            header.add(c.name());
            if (ci) header.add(c.name() + "_ci95");
        }
        header.add(WARNINGS);
        if (anyFailed) header.add(FAILED);
        line(sb, header);
        for (Row r : rows) {
            if (r.keys().size() != keyColumns.size()) {
                throw new IllegalArgumentException("row has " + r.keys().size() + " keys, table has " + keyColumns.size() + " key columns");
            }
            List<String> cells = new ArrayList<>(r.keys());
            cells.add(Integer.toString(r.runs().size()));
            if (r.failed() != null) {
                for (int i = 0; i < cols.size() * (ci ? 2 : 1) + 1; i++) cells.add("");
                cells.add(r.failed().replaceAll("\\s*\\R\\s*", " ").strip());
                line(sb, cells);
                continue;
            }
            Set<String> warnings = new LinkedHashSet<>();
            for (RunMetrics m : r.runs()) warnings.addAll(m.warnings());
            double[] tps = new double[r.runs().size()];
            for (int i = 0; i < tps.length; i++) tps[i] = r.runs().get(i).throughputTps();
            StudentT.Interval tpsCi = StudentT.interval95(tps);
            String disagree = HostNoise.repeatsDisagree(r.runs(), tpsCi.mean(), tpsCi.halfWidth());
            if (disagree != null) warnings.add(disagree);
            for (Column c : cols) {
                double[] xs = new double[r.runs().size()];
                for (int i = 0; i < xs.length; i++) xs[i] = c.value().applyAsDouble(r.runs().get(i));
                StudentT.Interval iv = StudentT.interval95(xs);
                cells.add(Decimals.text(Decimals.round(iv.mean(), c.decimals())));
                if (ci) cells.add(Decimals.text(Decimals.round(iv.halfWidth(), c.decimals())));
            }
            cells.add(String.join("; ", warnings));
            if (anyFailed) cells.add("");
            line(sb, cells);
        }
        return sb.toString();
    }

    /**
     * Writes {@code text} to {@code file} through a temporary sibling and a rename (never half-written); the file's
     * permissions follow the umask, as any file the user creates.
     */
    public static void write(Path file, String text) throws IOException {
        Path abs = file.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        // a plain create (not createTempFile, which makes 0600 files) so the file gets the umask's permissions
        Path tmp = abs.getParent().resolve("." + abs.getFileName() + ".tmp-" + java.util.UUID.randomUUID());
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW,
                    java.nio.file.StandardOpenOption.WRITE);
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A CSV cell: quoted (RFC 4180) when it holds a comma, quote or line break. */
    public static String cell(String s) {
        if (s == null) return "";
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static void line(StringBuilder sb, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(cell(cells.get(i)));
        }
        sb.append('\n');
    }

    private static List<Column> columns(List<Row> rows) {
        List<Column> cols = new ArrayList<>();
        cols.add(new Column("throughput_tps", RunMetrics::throughputTps, Decimals.TPS));
        cols.add(new Column("latency_mean_us", RunMetrics::latencyMeanUs, Decimals.US));
        cols.add(new Column("latency_p50_us", RunMetrics::latencyP50Us, Decimals.US));
        cols.add(new Column("latency_p90_us", RunMetrics::latencyP90Us, Decimals.US));
        cols.add(new Column("latency_p95_us", RunMetrics::latencyP95Us, Decimals.US));
        cols.add(new Column("latency_p99_us", RunMetrics::latencyP99Us, Decimals.US));
        cols.add(new Column("abort_rate", RunMetrics::abortRate, Decimals.SHARE));
        for (String stage : stageNames(rows)) {
            cols.add(new Column(stage + "_mean_us", m -> {
                RunMetrics.StageFigures f = m.stages().get(stage);
                return f == null ? Double.NaN : f.meanUs();
            }, Decimals.US));
        }
        for (String stage : stageNames(rows)) {
            cols.add(new Column(stage + "_us_per_txn", m -> {
                RunMetrics.StageFigures f = m.stages().get(stage);
                return f == null ? Double.NaN : f.perCommitUs(m.commits());
            }, Decimals.US));
        }
        Set<String> parts = new LinkedHashSet<>(); // summary.json's outside_stages.parts, when the runs have them
        for (Row r : rows) for (RunMetrics m : r.runs()) parts.addAll(m.outsideParts().keySet());
        for (String part : parts) {
            cols.add(new Column(OutsideStages.PREFIX + part + OutsideStages.SUFFIX,
                    m -> m.outsideParts().getOrDefault(part, Double.NaN), Decimals.US));
        }
        for (String stage : stageNames(rows)) {
            cols.add(new Column(stage + "_p99_us", m -> {
                RunMetrics.StageFigures f = m.stages().get(stage);
                return f == null ? Double.NaN : f.p99Us();
            }, Decimals.US));
        }
        return cols;
    }

    /** Stage names over all runs, each run's in its declared order ({@link StageOrder}), {@link StageBreakdown#EXECUTE} last. */
    public static List<String> stageNames(List<Row> rows) {
        List<Collection<String>> orders = new ArrayList<>();
        for (Row r : rows) for (RunMetrics m : r.runs()) orders.add(m.stages().keySet());
        return StageOrder.stages(orders);
    }
}
