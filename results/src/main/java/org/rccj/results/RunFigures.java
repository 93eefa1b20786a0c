package org.rccj.results;

import org.rccj.framework.run.Config;
import static org.rccj.results.Figures.BREAKDOWN;
import static org.rccj.results.Figures.CDF;
import static org.rccj.results.Figures.BAR_IS_LATENCY_AXIS;
import static org.rccj.results.Figures.STAGE_P99;
import static org.rccj.results.Figures.TIMELINE;
import static org.rccj.results.Figures.WARN_MARK;
import static org.rccj.results.Figures.finite;
import static org.rccj.results.Figures.warnNote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.rccj.results.Figures.Figure;

/**
 * The figures of run directories ({@code rcc plot RUN...}): one stacked bar of stage time per run, labelled with
 * its protocol and hybrid code, each stage's p99, throughput over time (timeline.csv) and the latency CDF
 * (latency.hlog), and on sim each stage's critical path ({@link CriticalPathFigure}). The CDF and timeline also serve the picked codes of an enumeration ({@link HybridFigures}).
 */
final class RunFigures {
    private RunFigures() {}

    /** The figures of run directories: breakdown, stage p99, throughput over time, latency CDF. */
    static List<Figure> of(List<RunMetrics> runs, String prefix) throws IOException {
        List<String> labels = new ArrayList<>();
        List<Set<String>> stageOrders = new ArrayList<>();
        Set<String> workloads = new LinkedHashSet<>();
        for (RunMetrics m : runs) {
            stageOrders.add(m.stages().keySet());
            workloads.add(m.workload());
        }
        List<String> stages = StageOrder.stages(stageOrders);
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (RunMetrics m : runs) {
            String label = m.protocol() + " " + m.config().path(Config.HYBRID.key()).asText(Integer.toString(m.code()));
            seen.merge(label, 1, Integer::sum);
            labels.add(label);
        }
        boolean anyWarned = false;
        for (int i = 0; i < labels.size(); i++) {
            if (seen.get(labels.get(i)) > 1) labels.set(i, labels.get(i) + " [" + runs.get(i).dir().getFileName() + "]");
            if (runs.get(i).warned()) {
                labels.set(i, labels.get(i) + WARN_MARK);
                anyWarned = true;
            }
        }
        double[][] us = new double[runs.size()][stages.size()], p99 = new double[runs.size()][stages.size()];
        for (int i = 0; i < runs.size(); i++) {
            for (int s = 0; s < stages.size(); s++) {
                RunMetrics.StageFigures f = runs.get(i).stages().get(stages.get(s));
                us[i][s] = f == null ? Double.NaN : f.perCommitUs(runs.get(i).commits());
                p99[i][s] = f == null ? Double.NaN : f.p99Us();
            }
        }
        String on = workloads.size() == 1 ? " on " + workloads.iterator().next() : "";
        String note = warnNote(anyWarned);
        List<String> panelOf = new ArrayList<>();
        for (RunMetrics m : runs) panelOf.add(m.protocol());
        List<Figure> figs = new ArrayList<>();
        OutsideStages.Extended bars = OutsideStages.ofRuns(runs, stages, us);
        figs.add(Panels.stageFigure(prefix + BREAKDOWN, "Stage time per committed transaction" + on + note + bars.note(), "protocol and hybrid code",
                BAR_IS_LATENCY_AXIS, labels, panelOf, bars.stages(), bars.values(), true, Figures.passiveAck(runs)));
        Figure p99Figure = Panels.stageP99Figure(prefix + STAGE_P99, "Stage latency, 99th percentile" + on + note, labels, panelOf, stages, p99);
        if (p99Figure != null) figs.add(p99Figure);
        Figure timeline = timeline(runs, labels, prefix, on);
        if (timeline != null) figs.add(timeline);
        Map<String, Path> cdfRuns = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) cdfRuns.put(labels.get(i), runs.get(i).dir());
        Figure cdf = latencyCdf(prefix + CDF, "Latency CDF of committed transactions" + on, cdfRuns);
        if (cdf != null) figs.add(cdf);
        Figure paths = CriticalPathFigure.of(runs, labels, prefix);
        if (paths != null) figs.add(paths);
        return figs;
    }

    /** Throughput over time from each run's timeline.csv (null when no run has one). */
    static Figure timeline(List<RunMetrics> runs, List<String> labels, String prefix, String on) throws IOException {
        List<Plots.Line> lines = new ArrayList<>();
        List<String> panels = new ArrayList<>();
        double max = 0;
        List<CsvTable> tables = new ArrayList<>();
        for (RunMetrics m : runs) {
            Path f = m.dir().resolve(TimelineCsv.FILE_NAME);
            CsvTable t = Files.isRegularFile(f) ? CsvTable.read(f) : null;
            tables.add(t);
            if (t != null) for (int r = 0; r < t.rows().size(); r++) max = Math.max(max, finite(t.number(r, "throughput_tps")));
        }
        Plots.RateUnit unit = Plots.RateUnit.of(max);
        for (int i = 0; i < runs.size(); i++) {
            CsvTable t = tables.get(i);
            if (t == null || t.rows().isEmpty()) continue;
            List<Double> x = new ArrayList<>(), y = new ArrayList<>();
            for (int r = 0; r < t.rows().size(); r++) {
                x.add(t.number(r, "t_ms"));
                y.add(t.number(r, "throughput_tps") / unit.divisor());
            }
            lines.add(new Plots.Line(labels.get(i), x, y, null));
            panels.add(runs.get(i).protocol());
        }
        if (lines.isEmpty()) return null;
        boolean warmups = lines.stream().anyMatch(l -> l.x().stream().anyMatch(v -> v <= 0));   // warmup_ms: auto's rows
        return Panels.linesFigure(prefix + TIMELINE, "Throughput over time" + on,
                warmups ? "time from the measured window's start (ms; up to 0: the warm-up, warmup_ms: auto)"
                        : "time in the measured window (ms); a rising start means the warm-up was too short", "throughput (" + unit.label() + ")", lines, panels, null);
    }

    /**
     * Latency CDFs from latency.hlog files (label to run directory; directories without the file are left out):
     * the x axis ends at the largest p99.9 so the tails do not squeeze the body. Null when no file is found.
     */
    static Figure latencyCdf(String base, String title, Map<String, Path> runDirs) throws IOException {
        List<Plots.Line> lines = new ArrayList<>();
        double xMax = 0, underOneUs = 0;
        for (Map.Entry<String, Path> e : runDirs.entrySet()) {
            Histogram h = LatencyLog.transactions(e.getValue());
            if (h == null || h.getTotalCount() == 0) continue;
            // a step function over the recorded buckets: flat between them, vertical at each
            List<Double> x = new ArrayList<>(), y = new ArrayList<>();
            double total = h.getTotalCount(), before = 0;
            for (HistogramIterationValue v : h.recordedValues()) {
                double at = h.highestEquivalentValue(v.getValueIteratedTo()) / 1e3;
                x.add(at);
                y.add(before / total);
                before = v.getTotalCountToThisValue();
                x.add(at);
                y.add(before / total);
            }
            xMax = Math.max(xMax, h.getValueAtPercentile(99.9) / 1e3);
            underOneUs = Math.max(underOneUs, (double) h.getCountBetweenValues(0, 999) / h.getTotalCount());
            lines.add(new Plots.Line(e.getKey(), x, y, null));
        }
        if (lines.isEmpty()) return null;
        // transactions that finish in well under a network round trip (e.g. touching only tuples served by the local CPU)
        // make a step at 0: say what it is
        String step = underOneUs >= 0.005 ? String.format(Locale.ROOT, "; the step at 0: up to %.1f%% finish in under 1 us",
                100 * underOneUs) : "";
        Figure f = Panels.linesFigure(base, title, "latency (us; axis ends at the largest p99.9" + step + ")", "share of transactions <= latency",
                lines, null, null);
        for (Chart<?, ?> c : f.charts()) {
            XYChart xy = (XYChart) c;
            xy.getStyler().setXAxisMax(xMax * 1.02);
            xy.getStyler().setXAxisMin(0.0);
            xy.getStyler().setYAxisMax(1.0);
            for (XYSeries s : xy.getSeriesMap().values()) s.setMarker(SeriesMarkers.NONE);
            xy.getStyler().setxAxisTickLabelsFormattingFunction(null);
            xy.getStyler().setXAxisDecimalPattern("#,##0.#");
            xy.getStyler().setYAxisDecimalPattern("0.0#");
        }
        return f;
    }

}
