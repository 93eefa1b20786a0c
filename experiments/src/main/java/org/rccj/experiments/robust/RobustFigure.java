package org.rccj.experiments.robust;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.rccj.hybrid.CodeResult;
import org.rccj.results.ChartStyle;
import org.rccj.results.Plots;
import org.rccj.results.StudentT;

/**
 * {@code robust.png} / {@code robust.svg}: a dot plot with one column per setting (base, each named profile, each
 * parameter down and up) and one marker per top code: its throughput relative to the base winner's under that
 * setting, with the 95% CI as error bars. The base winner sits at 1; a code above its band beats it. Settings where
 * the base winner is no longer within noise of the top are marked "(flips)" on the axis.
 */
public final class RobustFigure {
    public static final String BASE = "robust";

    private RobustFigure() {}

    public static Plots.Saved write(Path dir, RobustStudy.Outcome o, String what) throws IOException {
        List<Standing> st = o.standings();
        int winner = o.base().top().code();
        List<String> labels = new ArrayList<>();
        for (Standing s : st) labels.add(s.variant().label() + (s.flipped() ? " (flips)" : ""));
        int width = Math.max(1000, 420 + 46 * st.size());
        CategoryChart chart = new CategoryChartBuilder().width(width).height(760)
                .title(what + ": throughput relative to code " + winner + " (base winner), mean and 95% CI")
                .xAxisTitle("setting: profile, or one primitive parameter changed").yAxisTitle("throughput / code " + winner + "'s").build();
        CategoryStyler s = chart.getStyler();
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Vertical);
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        s.setToolTipsEnabled(false);
        s.setPlotGridLinesColor(new Color(225, 225, 225));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        s.setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        s.setOverlapped(false);
        s.setMarkerSize(8);
        s.setErrorBarsColorSeriesColor(true);
        s.setXAxisLabelRotation(st.size() > 6 ? 90 : 0);
        s.setYAxisDecimalPattern("0.00");

        List<Integer> codes = o.candidates();
        List<String> names = new ArrayList<>();
        for (int c : codes) names.add(seriesName(o, c, winner));
        Map<String, Color> colours = ChartStyle.seriesColours(names);
        colours.put(seriesName(o, winner, winner), Color.BLACK);
        double lo = 1, hi = 1;
        for (int k = 0; k < codes.size(); k++) {
            int code = codes.get(k);
            List<Double> ys = new ArrayList<>(), es = new ArrayList<>();
            for (Standing x : st) {
                CodeResult c = find(x, code), w = find(x, winner);
                if (c == null || w == null) { // a code with failed runs under this setting: no marker (XChart skips NaN)
                    ys.add(Double.NaN);
                    es.add(Double.NaN);
                    continue;
                }
                StudentT.Interval iv = c.throughputInterval();
                double y = iv.mean() / w.throughputTps();
                double e = Double.isFinite(iv.halfWidth()) ? iv.halfWidth() / w.throughputTps() : 0;
                ys.add(y);
                es.add(e);
                lo = Math.min(lo, y - e);
                hi = Math.max(hi, y + e);
            }
            CategorySeries series = chart.addSeries(names.get(k), labels, ys, es);
            series.setMarker(code == winner ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
            series.setMarkerColor(colours.get(names.get(k)));
            series.setLineColor(colours.get(names.get(k)));
        }
        List<Double> ones = new ArrayList<>();
        for (int i = 0; i < st.size(); i++) ones.add(1.0);
        CategorySeries one = chart.addSeries("code " + winner + " = 1 (a code less than " + Math.round(100 * Standing.MIN_MARGIN)
                + "% from the top is within noise)", labels, ones);
        one.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        one.setMarker(SeriesMarkers.NONE);
        one.setLineColor(Color.GRAY);
        one.setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        double pad = 0.05 * Math.max(0.02, hi - lo);
        chart.getStyler().setYAxisMin(lo - pad);
        chart.getStyler().setYAxisMax(hi + pad);
        return Plots.save(chart, dir, BASE);
    }

    private static String seriesName(RobustStudy.Outcome o, int code, int winner) {
        String label = "?";
        for (CodeResult c : o.base().ranked()) if (c.code() == code) label = c.label();
        String mark = code == 0 ? " all-rpc" : code == maxCode(o) ? " all-onesided" : "";
        return "code " + code + (code == winner ? " (base winner)" : "") + ": " + (mark.isEmpty() ? label : mark.strip());
    }

    private static int maxCode(RobustStudy.Outcome o) {
        int m = 0;
        for (CodeResult c : o.baseTable()) m |= c.code();
        return m;
    }

    private static CodeResult find(Standing s, int code) {
        for (CodeResult c : s.ranked()) if (c.code() == code) return c;
        return null;
    }
}
