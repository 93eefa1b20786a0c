package org.rccj.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * The text of a figure inside its SVG: XChart draws every letter as an outline, so without this an SVG holds no
 * title, axis title or legend a reader (a screen reader, a search, a test) could find. Right after the opening
 * {@code <svg>} tag a {@code <title>} (the figure's title) and a {@code <metadata>} element hold, as XML:
 * <pre>
 * &lt;rcc:figure title=".."&gt;
 *   &lt;rcc:panel title=".." x-axis=".." y-axis=".." stacked="true|false"&gt;
 *     &lt;rcc:series name=".."&gt;&lt;rcc:point x=".." y=".." err=".."/&gt;...&lt;/rcc:series&gt;...
 *   &lt;/rcc:panel&gt;...
 *   &lt;rcc:legend name=".."/&gt;...   (the legend drawn: a grid's shared one, or a chart's own series)
 * &lt;/rcc:figure&gt;
 * </pre>
 * It is written from the very chart objects that were drawn, so it says what the picture shows.
 */
final class SvgText {
    static final String NS = "https://rcc-j/figure";

    private SvgText() {}

    /** Puts the text of {@code charts} (under {@code title}; {@code legend} null: each chart's own) into the SVG file. */
    static void embed(Path svg, String title, List<Chart<?, ?>> charts, List<String> legend) throws IOException {
        String doc = Files.readString(svg, StandardCharsets.UTF_8);
        int open = doc.indexOf("<svg");
        int end = open < 0 ? -1 : doc.indexOf('>', open);
        if (end < 0) return;
        String meta = "<title>" + esc(title) + "</title>" + metadata(title, charts, legend);
        Files.writeString(svg, doc.substring(0, end + 1) + meta + doc.substring(end + 1), StandardCharsets.UTF_8);
    }

    static String metadata(String title, List<Chart<?, ?>> charts, List<String> legend) {
        StringBuilder sb = new StringBuilder("<metadata><rcc:figure xmlns:rcc=\"" + NS + "\" title=\"" + esc(title) + "\">");
        for (Chart<?, ?> c : charts) {
            sb.append("<rcc:panel title=\"").append(esc(c.getTitle())).append("\" x-axis=\"").append(esc(c.getXAxisTitle()))
              .append("\" y-axis=\"").append(esc(c.getYAxisTitle())).append('"');
            if (c instanceof CategoryChart cc) sb.append(" stacked=\"").append(cc.getStyler().isStacked()).append('"');
            sb.append('>');
            if (c instanceof CategoryChart cc) {
                for (CategorySeries s : cc.getSeriesMap().values()) {
                    sb.append("<rcc:series name=\"").append(esc(s.getName())).append("\">");
                    Iterator<?> x = s.getXData().iterator();
                    Iterator<? extends Number> y = s.getYData().iterator();
                    Iterator<? extends Number> e = s.getExtraValues() == null ? null : s.getExtraValues().iterator();
                    while (x.hasNext() && y.hasNext()) point(sb, String.valueOf(x.next()), y.next().doubleValue(), e != null && e.hasNext() ? e.next() : null);
                    sb.append("</rcc:series>");
                }
            } else if (c instanceof XYChart xy) {
                for (XYSeries s : xy.getSeriesMap().values()) {
                    sb.append("<rcc:series name=\"").append(esc(s.getName())).append("\">");
                    double[] xs = s.getXData(), ys = s.getYData(), es = s.getExtraValues();
                    for (int i = 0; i < Math.min(xs.length, ys.length); i++) point(sb, num(xs[i]), ys[i], es == null || i >= es.length ? null : es[i]);
                    sb.append("</rcc:series>");
                }
            }
            sb.append("</rcc:panel>");
        }
        if (legend != null) {
            for (String l : legend) sb.append("<rcc:legend name=\"").append(esc(l)).append("\"/>");
        } else {
            for (Chart<?, ?> c : charts) {
                if (!c.getStyler().isLegendVisible()) continue;
                for (Object s : c.getSeriesMap().values()) {
                    org.knowm.xchart.internal.series.Series ser = (org.knowm.xchart.internal.series.Series) s;
                    if (ser.isShowInLegend()) sb.append("<rcc:legend name=\"").append(esc(ser.getName())).append("\"/>");
                }
            }
        }
        return sb.append("</rcc:figure></metadata>").toString();
    }

    private static void point(StringBuilder sb, String x, double y, Number err) {
        sb.append("<rcc:point x=\"").append(esc(x)).append("\" y=\"").append(num(y)).append('"');
        if (err != null) sb.append(" err=\"").append(num(err.doubleValue())).append('"');
        sb.append("/>");
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "NaN";
    }

    static String esc(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(ch < 0x20 ? ' ' : ch);
            }
        }
        return sb.toString();
    }
}
