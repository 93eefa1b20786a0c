package org.rccj.results;

import org.rccj.framework.run.Config;
import java.awt.Dimension;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Which charts RCC-J draws from which results (the data side of {@link Plots}):
 * <ul>
 * <li>run directories ({@link RunFigures}): {@code stage-breakdown} (one stacked bar per run, labelled protocol
 *     and hybrid code), {@code stage-p99} (each stage's 99th percentile), {@code throughput-over-time}
 *     (timeline.csv: is the warm-up long enough?) and {@code latency-cdf} (latency.hlog);
 * <li>an enumeration's {@code hybrid.csv} ({@link HybridFigures}): {@code hybrid-scatter} (latency against
 *     throughput; the pure codes, the three fastest and the Pareto front labelled), {@code stage-breakdown} (one
 *     bar per code, panels of at most 32 codes), {@code stage-p99} and {@code latency-cdf} of the pure and fastest
 *     codes;
 * <li>several enumerations: {@code protocols}, RCC Fig. 14's comparison (every protocol: all-rpc, all-onesided
 *     and its best hybrid code; throughput and latency; a row per workload);
 * <li>a sweep's {@code sweep.csv} ({@link SweepFigures}): {@code sweep-throughput}, {@code sweep-latency} and
 *     {@code sweep-p99} against the first varied key (lines for a numeric key, grouped bars for a category such as
 *     the protocol; 95% CI with repeats), {@code stage-breakdown} and {@code stage-p99} (a bar per point).
 * </ul>
 * Busy figures become panels under one title and legend ({@link Panels}): more than six lines or bar series split
 * by protocol (else by workload, else by another varied key), more than {@value #MAX_BARS} bars likewise; panels
 * share their y range. Points whose summary.json lists warnings are marked: a red cross on lines and scatters,
 * " (!)" after a bar's label.
 */
public final class Figures {
    /** File base names. */
    public static final String BREAKDOWN = "stage-breakdown", SCATTER = "hybrid-scatter",
            SWEEP_THROUGHPUT = "sweep-throughput", SWEEP_LATENCY = "sweep-latency", SWEEP_P99 = "sweep-p99",
            STAGE_P99 = "stage-p99", TIMELINE = "throughput-over-time", CDF = "latency-cdf", PROTOCOLS = "protocols";

    /** Series a chart holds before it is split into panels. */
    static final int MAX_SERIES = 6;
    /** Bars a chart holds before it is split into panels. */
    static final int MAX_BARS = 32;
    /** Appended to the label of a bar whose run has warnings. */
    public static final String WARN_MARK = " (!)";

    /** A chart, or a grid of panels, and the base name of its files. */
    public record Figure(String base, Chart<?, ?> chart, Grid grid) {
        public Figure(String base, Chart<?, ?> chart) { this(base, chart, null); }
        public Figure(String base, Grid grid) { this(base, null, grid); }

        /** The charts drawn: the chart, or the grid's panels. */
        public List<Chart<?, ?>> charts() { return chart != null ? List.of(chart) : grid.panels(); }

        /** The title: the chart's, or the grid's. */
        public String title() { return chart != null ? chart.getTitle() : grid.title(); }

        /** Writes BASE.png and BASE.svg in {@code dir}. */
        public Plots.Saved save(Path dir) throws IOException {
            return chart != null ? Plots.save(chart, dir, base) : grid.save(dir, base);
        }

        /** Draws the figure onto {@code g} at the size it is saved at, and returns that size (for checks of its layout). */
        Dimension draw(Graphics2D g) {
            if (grid != null) return grid.draw(g);
            chart.paint(g, chart.getWidth(), chart.getHeight());
            return new Dimension(chart.getWidth(), chart.getHeight());
        }
    }

    private Figures() {}

    /** Writes each figure as BASE.png and BASE.svg in {@code out}. */
    public static List<Plots.Saved> save(List<Figure> figures, Path out) throws IOException {
        List<Plots.Saved> saved = new ArrayList<>();
        for (Figure f : figures) saved.add(f.save(out));
        return saved;
    }

    public static List<Plots.Saved> ofRuns(List<RunMetrics> runs, Path out, String prefix) throws IOException {
        return save(runs(runs, prefix), out);
    }

    public static List<Plots.Saved> ofHybridTable(CsvTable t, Path dir, Path out, String prefix) throws IOException {
        return save(hybridTable(t, prefix, dir), out);
    }

    public static List<Plots.Saved> ofSweepTable(CsvTable t, String experiment, Path dir, Path out, String prefix) throws IOException {
        return save(sweepTable(t, experiment, prefix, dir), out);
    }

    /** The figures of run directories: breakdown, stage p99, throughput over time, latency CDF. */
    public static List<Figure> runs(List<RunMetrics> runs, String prefix) throws IOException {
        return RunFigures.of(runs, prefix);
    }

    /** The charts of an enumeration's hybrid.csv (no run directories: nothing is marked, no CDF). */
    public static List<Figure> hybridTable(CsvTable t, String prefix) throws IOException {
        return HybridFigures.of(t, prefix, null);
    }

    /** The charts of an enumeration's hybrid.csv; {@code dir} (may be null) holds its run directories. */
    public static List<Figure> hybridTable(CsvTable t, String prefix, Path dir) throws IOException {
        return HybridFigures.of(t, prefix, dir);
    }

    /**
     * RCC Fig. 14's comparison from several enumerations: for every protocol its all-rpc, all-onesided and best
     * hybrid code, throughput and mean latency side by side, one row of panels per workload. Null when no table
     * has rows.
     */
    public static Figure protocols(List<CsvTable> tables, String prefix) {
        return HybridFigures.protocols(tables, Collections.nCopies(tables.size(), null), prefix);
    }

    /**
     * As {@link #protocols(List, String)}; {@code dirs} (entries may be null) hold each table's run directories,
     * whose warnings mark a protocol's label with " (!)" when any of its three runs has some.
     */
    public static Figure protocols(List<CsvTable> tables, List<Path> dirs, String prefix) {
        return HybridFigures.protocols(tables, dirs, prefix);
    }

    /** The charts of a sweep's sweep.csv (no run directories: nothing is marked). */
    public static List<Figure> sweepTable(CsvTable t, String experiment, String prefix) throws IOException {
        return SweepFigures.of(t, experiment, prefix, null);
    }

    /** The charts of a sweep's sweep.csv; {@code dir} (may be null) holds its run directories. */
    public static List<Figure> sweepTable(CsvTable t, String experiment, String prefix, Path dir) throws IOException {
        return SweepFigures.of(t, experiment, prefix, dir);
    }

    // ------------------------------------------------------------------ what every figure family reads

    /** The breakdown's y axis: time per committed transaction, as RCC Fig. 13 stacks it. */
    static final String PER_TXN_AXIS = "us per committed txn (mean x count / commits), stacked";
    /** The stacked breakdown's y axis once the time outside stages is drawn: each bar is the mean latency. */
    static final String BAR_IS_LATENCY_AXIS = "us per committed txn, stacked; bar = mean latency";

    /** The y axis for a table: per transaction, or (a table written before 2026-11-26) per call. */
    static String perTxnAxis(CsvTable t) {
        for (String h : t.header()) if (h.endsWith("_us_per_txn")) return PER_TXN_AXIS;
        return "stage latency, mean per call (us), stacked";
    }

    /** A stage's time per committed transaction in row {@code r} ({@code _us_per_txn}; older tables: the per-call mean). */
    static double perTxn(CsvTable t, int r, String stage) {
        return t.column(stage + "_us_per_txn") >= 0 ? t.number(r, stage + "_us_per_txn") : t.number(r, stage + "_mean_us");
    }

    /** Stage names from the {@code <STAGE>_mean_us} columns (not their _ci95 partners), in column order. */
    static List<String> stageColumns(CsvTable t) {
        List<String> out = new ArrayList<>();
        for (String h : t.header()) {
            if (h.endsWith("_mean_us") && !h.startsWith("latency_")) out.add(h.substring(0, h.length() - "_mean_us".length()));
        }
        return out;
    }

    /** Whether the table has a {@code <STAGE><suffix>} column for some stage. */
    static boolean hasColumnsFor(CsvTable t, List<String> stages, String suffix) {
        for (String s : stages) if (t.column(s + suffix) >= 0) return true;
        return false;
    }

    /** The finished runs in the run directories directly inside {@code dir} (none for null or unreadable ones). */
    static List<RunMetrics> runsIn(Path dir) {
        List<RunMetrics> out = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) return out;
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) if (!p.getFileName().toString().startsWith(".") && RunMetrics.isResultDir(p)) children.add(p);
        } catch (IOException e) {
            return out;
        }
        children.sort(null);
        for (Path p : children) {
            try {
                out.add(RunMetrics.read(p));
            } catch (IOException e) {
                // not a summary of this version: plotted from the table without its marks
            }
        }
        return out;
    }

    /** Whether there are runs and every one has {@code passive_ack} on (what a legend may then say of COMMIT). */
    static boolean passiveAck(List<RunMetrics> runs) {
        if (runs == null || runs.isEmpty()) return false;
        for (RunMetrics m : runs) if (!m.config().path(Config.PASSIVE_ACK.key()).asBoolean(false)) return false;
        return true;
    }

    /** Whether any of {@code runs} (may be null) has warnings. */
    static boolean warned(List<RunMetrics> runs) {
        if (runs == null) return false;
        for (RunMetrics m : runs) if (m.warned()) return true;
        return false;
    }

    /** The largest throughput in the table (0 without a finite one): picks the rate unit of an axis. */
    static double maxTps(CsvTable t) {
        double max = 0;
        for (int r = 0; r < t.rows().size(); r++) max = Math.max(max, finite(t.number(r, "throughput_tps")));
        return max;
    }

    /** The note a title gets when some of its points are marked: " [(!): run has warnings (summary.json)]". */
    static String warnNote(boolean anyWarned) {
        return anyWarned ? " [" + WARN_MARK.trim() + ": " + Plots.WARNED + "]" : "";
    }

    /** {@code v}, or 0 for NaN and infinities. */
    static double finite(double v) { return Double.isFinite(v) ? v : 0; }
}
