// The HADES figures from the runs examples/hades/reproduce made: CSV tables and PNG/SVG charts.
// Run by the reproduce script as a single-file program on the rcc class path:
//   java -cp "cli/target/rccj-cli-*.jar:cli/target/lib/*" examples/hades/Figures.java OUT
// Layout read: OUT/fig9/<workload>/<system>, OUT/rtt/<us>/<workload>/<system>, OUT/local/<fraction>/<workload>/<system>,
// OUT/scale/<workload>/<system> (the 200-core stand-in, laid out as fig9)
// (each a result directory with summary.json); systems: sw-impl (the baseline), hades, hades-h.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;
import org.rccj.results.Plots;

public class Figures {
    static final String[] SYSTEMS = {"sw-impl", "hades", "hades-h"};
    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode summary(Path dir) throws IOException {
        Path f = dir.resolve("summary.json");
        return Files.exists(f) ? JSON.readTree(f.toFile()) : null;
    }

    static List<String> children(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (var s = Files.list(dir)) { s.filter(Files::isDirectory).forEach(p -> out.add(p.getFileName().toString())); }
        out.sort(null);
        return out;
    }

    static double squashRate(JsonNode s) {
        double squashes = 0;
        var it = s.path("abort_reasons").fields();
        while (it.hasNext()) { var e = it.next(); if (e.getKey().startsWith("hades_")) squashes += e.getValue().asDouble(); }
        return s.path("commits").asDouble() == 0 ? 0 : squashes / (s.path("commits").asDouble() + s.path("aborts").asDouble());
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        perWorkload(out, "fig9", "(HADES paper Fig. 9)");
        perWorkload(out, "scale", "at 8 nodes x 25 cores (stand-in for the paper's 200-core mixes)");
        sweep(out, "rtt", "round trip (us)");
        sweep(out, "local", "local fraction");
    }

    /**
     * Fig. 9 (or the same per-workload figure of another directory, {@code name}): throughput per workload normalised to
     * SW-Impl; mean and p95 latency (the paper's two); filter and squash rates.
     */
    static void perWorkload(Path out, String name, String what) throws IOException {
        Path dir = out.resolve(name);
        List<String> workloads = children(dir);
        if (workloads.isEmpty()) return;
        StringBuilder csv = new StringBuilder("workload,system,throughput_tps,normalized_throughput,latency_mean_us,latency_p50_us,latency_p90_us,latency_p95_us,"
                + "latency_p99_us,mean_latency_change,p95_latency_change,abort_rate,squash_rate,false_positive_rate\n");
        CategoryChart tput = bars("Throughput normalised to SW-Impl " + what, "normalised throughput");
        CategoryChart lat = bars("Mean latency normalised to SW-Impl " + what, "normalised mean latency");
        CategoryChart tail = bars("95th-percentile latency normalised to SW-Impl " + what, "normalised p95 latency");
        List<String> names = new ArrayList<>();
        double[][] norm = new double[2][workloads.size() + 1];
        double[][] latn = new double[2][workloads.size() + 1];
        double[][] p95n = new double[2][workloads.size() + 1];
        for (int w = 0; w < workloads.size(); w++) {
            JsonNode base = summary(dir.resolve(workloads.get(w)).resolve("sw-impl"));
            if (base == null) continue;
            names.add(workloads.get(w));
            for (String sys : SYSTEMS) {
                JsonNode s = summary(dir.resolve(workloads.get(w)).resolve(sys));
                if (s == null) continue;
                double n = s.path("throughput_tps").asDouble() / base.path("throughput_tps").asDouble();
                double l = s.path("latency_us").path("mean").asDouble() / base.path("latency_us").path("mean").asDouble();
                double t = s.path("latency_us").path("p95").asDouble() / base.path("latency_us").path("p95").asDouble();
                if (!sys.equals("sw-impl")) {
                    int k = sys.equals("hades") ? 0 : 1;
                    norm[k][names.size() - 1] = n;
                    latn[k][names.size() - 1] = l;
                    p95n[k][names.size() - 1] = t;
                }
                JsonNode lu = s.path("latency_us");
                csv.append(String.format(Locale.ROOT, "%s,%s,%.0f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f,%.3f,%.4f,%.4f,%.5f%n", workloads.get(w), sys,
                        s.path("throughput_tps").asDouble(), n, lu.path("mean").asDouble(), lu.path("p50").asDouble(), lu.path("p90").asDouble(),
                        lu.path("p95").asDouble(), lu.path("p99").asDouble(), l - 1, t - 1, s.path("abort_rate").asDouble(), squashRate(s),
                        s.path("extra").path("hades.false_positive_rate").asDouble()));
            }
        }
        int m = names.size();
        for (int k = 0; k < 2; k++) {
            double sum = 0, lsum = 0, tsum = 0;
            for (int i = 0; i < m; i++) { sum += norm[k][i]; lsum += latn[k][i]; tsum += p95n[k][i]; }
            norm[k][m] = sum / m;
            latn[k][m] = lsum / m;
            p95n[k][m] = tsum / m;
            csv.append(String.format(Locale.ROOT, "average,%s,,%.3f,,,,,,%.3f,%.3f,,,%n", k == 0 ? "hades" : "hades-h", norm[k][m], latn[k][m] - 1,
                    p95n[k][m] - 1));
        }
        names.add("average");
        for (int k = 0; k < 2; k++) {
            List<Double> y = new ArrayList<>(), yl = new ArrayList<>(), yt = new ArrayList<>();
            for (int i = 0; i <= m; i++) { y.add(norm[k][i]); yl.add(latn[k][i]); yt.add(p95n[k][i]); }
            tput.addSeries(k == 0 ? "HADES" : "HADES-H", names, y);
            lat.addSeries(k == 0 ? "HADES" : "HADES-H", names, yl);
            tail.addSeries(k == 0 ? "HADES" : "HADES-H", names, yt);
        }
        Files.writeString(out.resolve(name + ".csv"), csv);
        Plots.save(tput, out, name + "-throughput");
        Plots.save(lat, out, name + "-latency");
        Plots.save(tail, out, name + "-latency-p95");
    }

    /** A sensitivity sweep: HADES and HADES-H throughput normalised to SW-Impl against the swept value, per workload. */
    static void sweep(Path out, String name, String xTitle) throws IOException {
        Path dir = out.resolve(name);
        List<String> values = children(dir);
        if (values.isEmpty()) return;
        StringBuilder csv = new StringBuilder(name + ",workload,system,throughput_tps,normalized_throughput,latency_mean_us,latency_p95_us,latency_p99_us\n");
        List<Plots.Line> lines = new ArrayList<>();
        List<String> workloads = children(dir.resolve(values.get(0)));
        for (String w : workloads) {
            for (String sys : new String[] {"hades", "hades-h"}) {
                List<Double> x = new ArrayList<>(), y = new ArrayList<>();
                for (String v : values) {
                    JsonNode base = summary(dir.resolve(v).resolve(w).resolve("sw-impl"));
                    JsonNode s = summary(dir.resolve(v).resolve(w).resolve(sys));
                    if (base == null || s == null) continue;
                    double n = s.path("throughput_tps").asDouble() / base.path("throughput_tps").asDouble();
                    x.add(Double.parseDouble(v));
                    y.add(n);
                    csv.append(String.format(Locale.ROOT, "%s,%s,%s,%.0f,%.3f,%.2f,%.2f,%.2f%n", v, w, sys, s.path("throughput_tps").asDouble(), n,
                            s.path("latency_us").path("mean").asDouble(), s.path("latency_us").path("p95").asDouble(),
                            s.path("latency_us").path("p99").asDouble()));
                }
                if (!x.isEmpty()) lines.add(new Plots.Line(w + " " + (sys.equals("hades") ? "HADES" : "HADES-H"), x, y, null));
            }
        }
        Files.writeString(out.resolve(name + ".csv"), csv);
        if (!lines.isEmpty()) Plots.lines("Throughput normalised to SW-Impl vs " + xTitle, xTitle, "normalised throughput", lines, null, out, name);
    }

    static CategoryChart bars(String title, String yTitle) {
        CategoryChart c = new CategoryChartBuilder().width(900).height(560).title(title).xAxisTitle("workload").yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        c.getStyler().setPlotBackgroundColor(java.awt.Color.WHITE);
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setLocale(Locale.ROOT);
        c.getStyler().setYAxisDecimalPattern("0.0#");
        c.getStyler().setToolTipsEnabled(false);
        return c;
    }
}
