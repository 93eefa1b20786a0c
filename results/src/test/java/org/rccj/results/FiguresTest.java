package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rccj.framework.run.RunResult;

class FiguresTest {
    @TempDir Path dir;

    static final List<String> PROTOCOLS = List.of("nowait", "waitdie", "occ", "mvcc", "sundial", "calvin", "drtm");

    /** A sweep.csv over protocol x hybrid mode (x coroutines when given), metrics made up from the position. */
    static CsvTable sweep(List<Integer> coroutines, boolean ci) throws Exception {
        StringBuilder sb = new StringBuilder("point," + (coroutines.isEmpty() ? "" : "coroutines,") + "protocol,hybrid,runs,throughput_tps,"
                + (ci ? "throughput_tps_ci95," : "") + "latency_mean_us,latency_p99_us,LOCK_mean_us,READ_mean_us,COMMIT_mean_us,"
                + "LOCK_p99_us,READ_p99_us,COMMIT_p99_us\n");
        List<Integer> cs = coroutines.isEmpty() ? List.of(0) : coroutines;
        int i = 0;
        for (int c : cs) {
            for (String p : PROTOCOLS) {
                for (String h : List.of("all-rpc", "all-onesided")) {
                    i++;
                    String point = (coroutines.isEmpty() ? "" : "coroutines=" + c + ",") + "protocol=" + p + ",hybrid=" + h;
                    sb.append('"').append(point).append('"').append(',').append(coroutines.isEmpty() ? "" : c + ",")
                      .append(p).append(',').append(h).append(",1,").append(100_000 + 1000 * i).append(',')
                      .append(ci ? "500.0," : "").append(10 + i % 5).append(',').append(20 + i % 7).append(',')
                      .append("1.0,2.0,").append(h.equals("all-rpc") ? "3.0" : "0.0").append(",2.0,4.0,6.0\n");
                }
            }
        }
        return CsvTable.parse(sb.toString(), "sweep.csv");
    }

    /** A breakdown with every stage and outside part: the legend right of the plot is whole, and the long title has room. */
    @Test
    void aFullLegendAndALongTitleAreNotClipped() throws Exception {
        List<String> stages = new ArrayList<>(List.of("DISPATCH", "FORWARD", "EPOCH_SYNC", "LOCK", "READ", "LOG", "COMMIT", "VALIDATE",
                "RELEASE", "RENEW"));
        for (String p : List.of("execute", "between stages", "aborted attempts", "backoff", "rolled back transactions", "window edges")) stages.add(p);
        List<String> bars = new ArrayList<>();
        double[][] us = new double[16][stages.size()];
        for (int b = 0; b < 16; b++) {
            bars.add("protocol" + b + " all-onesided");
            for (int s = 0; s < stages.size(); s++) us[b][s] = s == 0 ? 1e-4 : 1;   // the first stage: no visible bar segment
        }
        String title = "Stage time per committed transaction on smallbank [(!): " + Plots.WARNED + "]";
        CategoryChart c = Plots.stageBreakdownChart(title, "protocol and hybrid code", bars, stages, us);
        assertTrue(c.getWidth() >= ChartStyle.titleWidth(title), "width " + c.getWidth());
        BufferedImage img = org.knowm.xchart.BitmapEncoder.getBufferedImage(c);
        int rgb = ChartStyle.stageColour("DISPATCH").getRGB(), top = Integer.MAX_VALUE, count = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = img.getWidth() / 2; x < img.getWidth(); x++) {
                if (img.getRGB(x, y) == rgb) {
                    top = Math.min(top, y);
                    count++;
                }
            }
        }
        assertTrue(count >= 150, "the first legend entry's colour box is drawn whole: " + count + " pixels");
        assertTrue(top > 0, "the first legend entry starts inside the picture, at y " + top);
    }

    @Test
    void categoricalFirstKeyGivesGroupedBarsWithLabels() throws Exception {
        List<Figures.Figure> figs = Figures.sweepTable(sweep(List.of(), false), "stage-breakdown", "");
        assertEquals(List.of("sweep-throughput", "sweep-latency", "sweep-p99", "stage-breakdown", "stage-p99"),
                figs.stream().map(Figures.Figure::base).toList());
        CategoryChart tput = (CategoryChart) figs.get(0).chart();
        assertNotNull(tput, "two series: one chart, not panels");
        assertEquals(List.of("all-rpc", "all-onesided"), List.copyOf(tput.getSeriesMap().keySet()), "one bar per hybrid mode");
        assertEquals(PROTOCOLS, new ArrayList<>(tput.getSeriesMap().get("all-rpc").getXData()), "the protocols label the x axis");
        assertEquals(ChartStyle.fixedColour("all-rpc"), tput.getSeriesMap().get("all-rpc").getFillColor());
        assertEquals(ChartStyle.fixedColour("all-onesided"), tput.getSeriesMap().get("all-onesided").getFillColor());
        assertTrue(figs.get(2).title().startsWith("99th-percentile latency vs protocol"), figs.get(2).title());
        for (Plots.Saved s : Figures.save(figs, dir)) {
            BufferedImage img = PlotsTest.assertChart(s.png(), 800, 500, 3);
            assertTrue(img.getWidth() <= 2100, s.png() + " is " + img.getWidth() + " px wide");
        }
    }

    @Test
    void aSweepOverHybridCodesIsCategorical() throws Exception {
        StringBuilder sb = new StringBuilder("point,hybrid,runs,throughput_tps,throughput_tps_ci95,latency_mean_us,latency_p99_us,"
                + "LOCK_mean_us,LOCK_p99_us\n");
        List<String> codes = List.of("6", "12", "4", "14", "0");
        for (int i = 0; i < codes.size(); i++) {
            sb.append("hybrid=").append(codes.get(i)).append(',').append(codes.get(i)).append(",3,").append(900_000 + 10_000 * i)
              .append(",3000.0,10.0,20.0,1.0,2.0\n");
        }
        List<Figures.Figure> figs = Figures.sweepTable(CsvTable.parse(sb.toString(), "sweep.csv"), "tpcc", "");
        CategoryChart tput = assertInstanceOf(CategoryChart.class, figs.get(0).chart(), "grouped bars, not a line over 0..14");
        assertEquals(List.of("6 (READ+LOG)", "12 (LOG+RELEASE)", "4 (LOG)", "14 (READ+LOG+RELEASE)", "0 (all-rpc)"),
                new ArrayList<>(tput.getSeriesMap().values().iterator().next().getXData()), "labelled by code name, in the sweep's order");
    }

    @Test
    void everyStageKeepsItsColourInEveryFigure() throws Exception {
        CategoryChart a = Plots.stageBreakdownChart("a", "x", List.of("1", "2"), List.of("READ", "LOCK", "COMMIT"),
                new double[][] {{1, 2, 3}, {1, 2, 3}});
        CategoryChart b = Plots.stageBreakdownChart("b", "x", List.of("1"), List.of("COMMIT", "VALIDATE", "READ"),
                new double[][] {{1, 2, 3}});
        for (String s : List.of("READ", "COMMIT")) {
            assertEquals(a.getSeriesMap().get(s).getFillColor(), b.getSeriesMap().get(s).getFillColor(), s);
            assertEquals(ChartStyle.stageColour(s), a.getSeriesMap().get(s).getFillColor(), s);
        }
        Set<Color> colours = new HashSet<>();
        for (String s : List.of("LOCK", "READ", "LOG", "RELEASE", "COMMIT", "VALIDATE", "RENEW", "DISPATCH", "FORWARD", "EPOCH_SYNC",
                "EXECUTE")) {
            colours.add(ChartStyle.stageColour(s));
        }
        assertEquals(11, colours.size(), "eleven stages, eleven colours");
        // every part of the time outside the stages has its own colour, none a stage's
        List<String> parts = new java.util.ArrayList<>(org.rccj.framework.run.RunResult.OUTSIDE_PARTS);
        parts.add(org.rccj.framework.run.RunResult.ROLLED_BACK);
        parts.add(org.rccj.framework.run.RunResult.WINDOW_EDGES);
        for (String p : parts) colours.add(ChartStyle.stageColour(OutsideStages.label(p)));
        assertEquals(11 + parts.size(), colours.size(), "a colour per outside part: " + parts);
        // grouped per-stage p99 bars of a sweep use the same colours... by series; the stage on the x axis
        List<Figures.Figure> figs = Figures.sweepTable(sweep(List.of(), false), "s", "");
        Figures.Figure breakdown = figs.get(3);
        for (Chart<?, ?> c : breakdown.charts()) {
            for (Object o : c.getSeriesMap().values()) {
                CategorySeries s = (CategorySeries) o;
                assertEquals(ChartStyle.stageColour(s.getName()), s.getFillColor(), s.getName());
            }
        }
    }

    @Test
    void busySweepsSplitIntoPanelsPerProtocolWithOneYRange() throws Exception {
        List<Figures.Figure> figs = Figures.sweepTable(sweep(List.of(1, 3, 5, 7, 9, 11), true), "coroutines", "");
        Figures.Figure tput = figs.get(0);
        assertNull(tput.chart(), "14 lines: panels");
        assertEquals(7, tput.grid().panels().size(), "one panel per protocol");
        Set<Double> maxes = new HashSet<>();
        for (Chart<?, ?> c : tput.grid().panels()) {
            XYChart xy = (XYChart) c;
            assertEquals(List.of("all-rpc", "all-onesided"), List.copyOf(xy.getSeriesMap().keySet()), xy.getTitle());
            assertEquals(6, xy.getSeriesMap().get("all-rpc").getXData().length);
            maxes.add(xy.getStyler().getYAxisMax());
        }
        assertEquals(1, maxes.size(), "panels share the y range");
        assertEquals(PROTOCOLS, tput.grid().panels().stream().map(Chart::getTitle).toList());
        assertEquals(List.of("all-rpc", "all-onesided"), tput.grid().legend().stream().map(Grid.LegendEntry::name).toList());

        Figures.Figure breakdown = figs.stream().filter(f -> f.base().equals(Figures.BREAKDOWN)).findFirst().orElseThrow();
        assertEquals(7, breakdown.grid().panels().size(), "84 bars: a panel per protocol");
        CategoryChart occ = (CategoryChart) breakdown.grid().panels().get(2);
        assertEquals("occ", occ.getTitle());
        assertEquals(12, occ.getSeriesMap().get("LOCK").getXData().size());
        assertEquals("all-rpc coroutines=1", new ArrayList<>(occ.getSeriesMap().get("LOCK").getXData()).get(0), "labels lose the panel's protocol");

        for (Plots.Saved s : Figures.save(figs, dir)) {
            BufferedImage img = PlotsTest.assertChart(s.png(), 800, 500, 3);
            assertTrue(img.getWidth() <= 2100, s.png() + " is " + img.getWidth() + " px wide");
            PlotsTest.assertSvg(s.svg());
        }
    }

    @Test
    void scatterLabelsPureBestAndParetoCodes() {
        List<HybridScatter.Point> pts = List.of(
                new HybridScatter.Point(0, "all-rpc", 100, 10, HybridScatter.Kind.ALL_RPC),
                new HybridScatter.Point(1, "A", 150, 6, HybridScatter.Kind.CODE),      // front
                new HybridScatter.Point(2, "B", 120, 12, HybridScatter.Kind.CODE),     // beaten by 1
                new HybridScatter.Point(3, "C", 90, 5, HybridScatter.Kind.CODE),       // front: the lowest latency
                new HybridScatter.Point(4, "D", 200, 9, HybridScatter.Kind.BEST),      // front: the fastest
                new HybridScatter.Point(5, "E", 80, 20, HybridScatter.Kind.CODE),      // beaten
                new HybridScatter.Point(6, "E", 180, 9.5, HybridScatter.Kind.CODE),    // front? 200 at 9 beats it: no
                new HybridScatter.Point(7, "all", 110, 11, HybridScatter.Kind.ALL_ONESIDED));
        assertEquals(List.of(3, 1, 4), HybridScatter.paretoFront(pts).stream().map(HybridScatter.Point::code).toList());
        Map<HybridScatter.Point, String> labels = HybridScatter.labels(pts);
        Set<String> texts = new HashSet<>(labels.values());
        assertEquals(Set.of("all-rpc", "all-onesided", "4", "6", "1", "3"), texts, "pure, three fastest (4, 6, 1), front (3, 1, 4)");
        assertFalse(texts.contains("5"));
    }

    /** A hybrid.csv of a protocol with stages LOCK, READ (codes 0..3); code {@code fastest} wins. */
    static CsvTable hybrid(String protocol, String workload, int fastest) throws Exception {
        StringBuilder sb = new StringBuilder("code,onesided,protocol,workload,runs,throughput_tps,latency_mean_us,LOCK_mean_us,READ_mean_us,"
                + "LOCK_p99_us,READ_p99_us\n");
        String[] names = {"all-rpc", "LOCK", "READ", "LOCK+READ"};
        for (int c = 0; c < 4; c++) {
            sb.append(c).append(',').append(names[c]).append(',').append(protocol).append(',').append(workload).append(",1,")
              .append(c == fastest ? 300_000 : 100_000 + c * 10_000).append(',').append(c == fastest ? 5 : 10 - c)
              .append(",1.0,2.0,3.0,4.0\n");
        }
        return CsvTable.parse(sb.toString(), "hybrid.csv");
    }

    @Test
    void protocolsFigureInTheStyleOfRccFig14() throws Exception {
        Figures.Figure f = Figures.protocols(List.of(hybrid("occ", "smallbank", 2), hybrid("nowait", "smallbank", 1),
                hybrid("occ", "tpcc", 1)), "");
        assertEquals(Figures.PROTOCOLS, f.base());
        assertEquals(4, f.grid().panels().size(), "throughput and latency per workload");
        CategoryChart tput = (CategoryChart) f.grid().panels().get(0);
        assertEquals("smallbank: throughput", tput.getTitle());
        assertEquals(List.of("all-rpc", "all-onesided", "best hybrid"), List.copyOf(tput.getSeriesMap().keySet()));
        assertEquals(List.of("occ (best: 2)", "nowait (best: 1)"), new ArrayList<>(tput.getSeriesMap().get("best hybrid").getXData()));
        assertEquals(List.of(300.0, 300.0), new ArrayList<>(tput.getSeriesMap().get("best hybrid").getYData()), "K txns/s");
        assertEquals(List.of(130.0, 130.0), new ArrayList<>(tput.getSeriesMap().get("all-onesided").getYData()), "code 3 = LOCK+READ");
        CategoryChart lat = (CategoryChart) f.grid().panels().get(1);
        assertEquals(List.of(10.0, 10.0), new ArrayList<>(lat.getSeriesMap().get("all-rpc").getYData()));
        Plots.Saved s = Figures.save(List.of(f), dir).get(0);
        PlotsTest.assertChart(s.png(), 1000, 800, 4);

        // a warned run of one of the three codes marks its protocol
        Path occDir = dir.resolve("occ-enum");
        RunResult r = SampleResults.sample("sim"); // code 18 (READ+COMMIT): not one of occ's three here
        addWarning(ResultWriter.write(r, occDir.resolve("hybrid=18")), "few commits");
        Figures.Figure clean = Figures.protocols(List.of(hybrid("occ", "smallbank", 2)), java.util.Arrays.asList(occDir), "");
        assertFalse(clean.title().contains(Plots.WARNED), "code 18 is not plotted");
        Path occDir2 = dir.resolve("occ-enum2");
        Path d2 = ResultWriter.write(SampleResults.sample("sim"), occDir2.resolve("hybrid=2"));
        addWarning(d2, "few commits");
        ObjectMapper m = new ObjectMapper();
        ObjectNode tree = (ObjectNode) m.readTree(d2.resolve("summary.json").toFile());
        ((ObjectNode) tree.get("hybrid")).put("code", 2); // the run of code 2, occ's best here
        m.writeValue(d2.resolve("summary.json").toFile(), tree);
        Figures.Figure marked = Figures.protocols(List.of(hybrid("occ", "smallbank", 2)), java.util.Arrays.asList(occDir2), "");
        CategoryChart mt = (CategoryChart) marked.grid().panels().get(0);
        assertEquals(List.of("occ (best: 2)" + Figures.WARN_MARK), new ArrayList<>(mt.getSeriesMap().get("all-rpc").getXData()));
        assertTrue(marked.title().contains(Plots.WARNED), marked.title());
        PlotsTest.assertSvg(s.svg());
    }

    /** Adds summary.json's {@code warnings} list (the field the run writes when its figures are doubtful). */
    private static void addWarning(Path runDir, String warning) throws Exception {
        ObjectMapper m = new ObjectMapper();
        ObjectNode tree = (ObjectNode) m.readTree(runDir.resolve("summary.json").toFile());
        tree.putArray("warnings").add(warning);
        m.writeValue(runDir.resolve("summary.json").toFile(), tree);
    }

    /** Run directories written by ResultWriter; the second has a warning in its summary.json. */
    private List<RunMetrics> runDirs() throws Exception {
        List<RunMetrics> out = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            RunResult r = SampleResults.sample("sim");
            for (int k = 1; k <= 2000; k++) r.total.latency.record(1000L * (k % 200 + 1) * (i + 1));
            Path d = ResultWriter.write(r, dir.resolve("run" + i));
            if (i == 1) addWarning(d, "only 12 commits: figures are noise");
            out.add(RunMetrics.read(d));
        }
        return out;
    }

    @Test
    void runsGiveTimelineCdfAndStageP99AndMarkWarnings() throws Exception {
        List<RunMetrics> runs = runDirs();
        assertFalse(runs.get(0).warned());
        assertEquals(List.of("only 12 commits: figures are noise"), runs.get(1).warnings());
        List<Figures.Figure> figs = Figures.runs(runs, "");
        assertEquals(List.of("stage-breakdown", "stage-p99", "throughput-over-time", "latency-cdf"),
                figs.stream().map(Figures.Figure::base).toList());
        CategoryChart bd = (CategoryChart) figs.get(0).chart();
        List<?> labels = new ArrayList<>(bd.getSeriesMap().get("READ").getXData());
        assertFalse(labels.get(0).toString().endsWith(Figures.WARN_MARK), labels.toString());
        assertTrue(labels.get(1).toString().endsWith(Figures.WARN_MARK), "the warned run is marked: " + labels);
        assertTrue(figs.get(0).title().contains(Plots.WARNED), figs.get(0).title());

        CategoryChart p99 = (CategoryChart) figs.get(1).chart();
        assertEquals(List.of("READ", "LOCK", "COMMIT", "EXECUTE"), new ArrayList<>(p99.getSeriesMap().values().iterator().next().getXData()),
                "stages on the x axis");

        XYChart timeline = (XYChart) figs.get(2).chart();
        XYSeries first = timeline.getSeriesMap().values().iterator().next();
        assertEquals(List.of(5.0, 10.0, 15.0, 20.0), toList(first.getXData()), "timeline.csv's t_ms");
        assertEquals(48.0, first.getYData()[0], 1e-9, "240 commits in 5 ms = 48 K txns/s");

        XYChart cdf = (XYChart) figs.get(3).chart();
        assertEquals(2, cdf.getSeriesMap().size());
        for (XYSeries s : cdf.getSeriesMap().values()) {
            double[] y = s.getYData(), x = s.getXData();
            assertEquals(1.0, y[y.length - 1], 1e-9, "a CDF ends at 1");
            for (int i = 1; i < y.length; i++) assertTrue(y[i] >= y[i - 1] && x[i] >= x[i - 1], "non-decreasing");
        }
        double max0 = last(cdf.getSeriesMap().values().stream().toList().get(0).getXData());
        double max1 = last(cdf.getSeriesMap().values().stream().toList().get(1).getXData());
        assertEquals(400, max1, 1, "run 1's slowest: 2 x 200 us");
        assertEquals(200, max0, 1);
        for (Plots.Saved s : Figures.save(figs, dir.resolve("plots"))) PlotsTest.assertChart(s.png(), 800, 500, 3);
    }

    @Test
    void warnedSweepPointsAreMarkedOnLines(@TempDir Path sweepDir) throws Exception {
        // a sweep directory whose point coroutines=2 has a warning
        StringBuilder csv = new StringBuilder("point,coroutines,protocol,hybrid,runs,throughput_tps,latency_mean_us,READ_mean_us\n");
        for (int c = 1; c <= 3; c++) {
            csv.append("coroutines=").append(c).append(',').append(c).append(",occ,all-rpc,1,").append(1000 * c).append(".0,")
               .append(10 + c).append(".0,1.0\n");
            RunResult r = SampleResults.sample("sim");
            Path d = ResultWriter.write(r, sweepDir.resolve("coroutines=" + c));
            if (c == 2) addWarning(d, "window shorter than the latency");
        }
        List<Figures.Figure> figs = Figures.sweepTable(CsvTable.parse(csv.toString(), "sweep.csv"), "w", "", sweepDir);
        XYChart tput = (XYChart) figs.get(0).chart();
        XYSeries marks = tput.getSeriesMap().get(Plots.WARNED);
        assertNotNull(marks, "a series marks warned points: " + tput.getSeriesMap().keySet());
        assertEquals(List.of(2.0), toList(marks.getXData()));
        assertEquals(2.0, marks.getYData()[0], 1e-9, "at the point's own value (K txns/s)");
        CategoryChart bd = (CategoryChart) figs.get(figs.size() - 1).chart();
        assertTrue(new ArrayList<>(bd.getSeriesMap().get("READ").getXData()).get(1).toString().endsWith(Figures.WARN_MARK));
        // without the directory nothing is marked
        XYChart plain = (XYChart) Figures.sweepTable(CsvTable.parse(csv.toString(), "sweep.csv"), "w", "").get(0).chart();
        assertNull(plain.getSeriesMap().get(Plots.WARNED));
    }

    @Test
    void enumerationFiguresLabelAndSplitManyCodes() throws Exception {
        StringBuilder sb = new StringBuilder("code,onesided,protocol,workload,runs,throughput_tps,latency_mean_us,LOCK_mean_us,READ_mean_us,"
                + "LOG_mean_us,RELEASE_mean_us,COMMIT_mean_us,VALIDATE_mean_us,LOCK_p99_us,READ_p99_us\n");
        for (int c = 0; c < 64; c++) {
            sb.append(c).append(",x,occ,smallbank,1,").append(100_000 + 997 * ((c * 37) % 64)).append(',')
              .append(String.format(Locale.ROOT, "%.2f", 10 + ((c * 11) % 17) / 3.0)).append(",1.0,1.0,1.0,1.0,1.0,1.0,3.0,5.0\n");
        }
        List<Figures.Figure> figs = Figures.hybridTable(CsvTable.parse(sb.toString(), "hybrid.csv"), "");
        assertEquals(List.of("hybrid-scatter", "stage-breakdown", "stage-p99"), figs.stream().map(Figures.Figure::base).toList());
        assertTrue(((XYChart) figs.get(0).chart()).getXAxisTitle().contains("LOCK=1, READ=2"), "the axis says what codes mean");
        assertEquals(2, figs.get(1).grid().panels().size(), "64 codes: two panels of 32");
        CategoryChart p99 = (CategoryChart) figs.get(2).chart();
        assertEquals(5, p99.getSeriesMap().size(), "all-rpc, all-onesided and the three fastest: " + p99.getSeriesMap().keySet());
        assertTrue(p99.getSeriesMap().containsKey("all-rpc (0)"));
        assertTrue(p99.getSeriesMap().containsKey("all-onesided (63)"));
        for (Plots.Saved s : Figures.save(figs, dir)) {
            BufferedImage img = PlotsTest.assertChart(s.png(), 800, 500, 3);
            assertTrue(img.getWidth() <= 2100, s.png() + " is " + img.getWidth() + " px wide");
        }
    }

    @Test
    void gridPngHasEveryPanelAndTheLegend() throws Exception {
        List<Figures.Figure> figs = Figures.sweepTable(sweep(List.of(1, 4), false), "coroutines", "");
        Plots.Saved s = Figures.save(List.of(figs.get(0)), dir).get(0);
        BufferedImage img = ImageIO.read(s.png().toFile());
        assertEquals(3 * 660, img.getWidth(), "three panels a row");
        // the legend swatch of all-rpc is drawn in its colour somewhere in the bottom strip
        int rgb = ChartStyle.fixedColour("all-rpc").getRGB();
        boolean found = false;
        for (int y = img.getHeight() - 40; y < img.getHeight() && !found; y++) {
            for (int x = 0; x < img.getWidth() && !found; x++) found = img.getRGB(x, y) == rgb;
        }
        assertTrue(found, "shared legend at the bottom");
        assertNotEquals(0, Files.size(s.svg()));
    }

    private static List<Double> toList(double[] a) {
        List<Double> out = new ArrayList<>();
        for (double d : a) out.add(d);
        return out;
    }

    private static double last(double[] a) { return a[a.length - 1]; }
}
