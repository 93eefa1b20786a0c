package org.rccj.results;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * How every chart of RCC-J looks: its fonts, the fixed colours (one per stage, per hybrid mode and per protocol,
 * the same in every figure), the styler settings all charts share, upright category labels where they would
 * crowd, and the width a legend below the plot needs. Loading it makes AWT headless.
 */
public final class ChartStyle {
    static {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    }

    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    static final Font PANEL_TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    static final Font AXIS = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    static final Font TICKS = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    /** One colour per stage in every figure (Paul Tol's muted scheme, colour-blind safe; EXECUTE grey). */
    private static final Map<String, Color> STAGE_COLOURS = Map.ofEntries(
            Map.entry("LOCK", new Color(0x332288)), Map.entry("READ", new Color(0x88CCEE)), Map.entry("LOG", new Color(0xDDCC77)),
            Map.entry("RELEASE", new Color(0x117733)), Map.entry("COMMIT", new Color(0xCC6677)), Map.entry("VALIDATE", new Color(0x882255)),
            Map.entry("RENEW", new Color(0x44AA99)), Map.entry("DISPATCH", new Color(0x999933)), Map.entry("FORWARD", new Color(0xAA4499)),
            Map.entry("EPOCH_SYNC", new Color(0x661100)), Map.entry(StageBreakdown.EXECUTE, new Color(0xBBBBBB)));

    /** The time outside stages (pale, so the stages stand out): the derived segment and the usual parts. */
    private static final Map<String, Color> OUTSIDE_COLOURS = Map.of(OutsideStages.DERIVED, new Color(0xD9C9A3),
            "execute", new Color(0xE0E0E0), "between stages", new Color(0xD9C9A3), "aborted attempts", new Color(0xE8A0A0),
            "backoff", new Color(0xA0C4E8), "rolled back transactions", new Color(0xC8E0A0), "window edges", new Color(0xE0C8E8));
    private static final Color[] OUTSIDE_PALETTE = {new Color(0xC8E0A0), new Color(0xE0C8E8), new Color(0xF0D890), new Color(0xB0D8D0)};

    /** Hybrid modes and protocols (Okabe-Ito). */
    private static final Map<String, Color> NAMED_COLOURS = Map.ofEntries(
            Map.entry("all-rpc", new Color(0xD55E00)), Map.entry("all-onesided", new Color(0x0072B2)),
            Map.entry("best hybrid", new Color(0x009E73)),
            Map.entry("nowait", new Color(0x000000)), Map.entry("waitdie", new Color(0xE69F00)),
            Map.entry("occ", new Color(0x56B4E9)), Map.entry("mvcc", new Color(0x009E73)),
            Map.entry("sundial", new Color(0xCC79A7)), Map.entry("calvin", new Color(0x0072B2)),
            Map.entry("drtm", new Color(0xD55E00)), Map.entry("hades", new Color(0x8C6D00)));

    /** For series with no fixed colour, in order of appearance. */
    private static final Color[] PALETTE = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
            new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0x8C6D00),
            new Color(0x332288), new Color(0x882255), new Color(0x44AA99), new Color(0x999999)};

    /** Marks the points whose runs have warnings. */
    static final Color WARN_COLOUR = new Color(0xC00000);

    private ChartStyle() {}

    /** Makes AWT headless before a chart that was styled elsewhere is drawn (loading this class does it). */
    static void headless() {}

    /** The colour of a stage (any other name: grey-blue). */
    public static Color stageColour(String stage) {
        int note = stage.indexOf(" ("); // a legend name with its note: "COMMIT (~0: passive ACK)"
        String name = note < 0 ? stage : stage.substring(0, note);
        Color c = STAGE_COLOURS.get(name);
        if (c != null) return c;
        c = OUTSIDE_COLOURS.get(name);
        if (c != null) return c;
        c = CriticalPathFigure.COLOURS.get(name);
        if (c != null) return c;
        // another part of the time outside stages (lower case, spaced) or an unknown stage
        return name.equals(name.toUpperCase(Locale.ROOT)) ? new Color(0x5577AA) : OUTSIDE_PALETTE[Math.floorMod(name.hashCode(), OUTSIDE_PALETTE.length)];
    }

    /**
     * The colour of a series: the fixed colour of a hybrid mode or protocol, named whole or as a word
     * ("occ all-rpc" takes all-rpc's), else null.
     */
    public static Color fixedColour(String name) {
        Color c = NAMED_COLOURS.get(name);
        if (c != null) return c;
        String[] words = name.split(" ");
        for (int i = words.length - 1; i >= 0; i--) {
            c = NAMED_COLOURS.get(words[i]);
            if (c != null) return c;
        }
        return null;
    }

    /**
     * Colours for the series {@code names}: the fixed colour where there is one and no earlier series took it,
     * distinct palette colours for the rest.
     */
    public static Map<String, Color> seriesColours(List<String> names) {
        Map<String, Color> out = new LinkedHashMap<>();
        Set<Color> used = new HashSet<>();
        for (String n : names) {
            Color c = fixedColour(n);
            if (c != null && used.add(c)) out.put(n, c);
        }
        int next = 0;
        for (String n : names) {
            if (out.containsKey(n)) continue;
            Color c;
            do {
                c = PALETTE[next++ % PALETTE.length];
            } while (used.contains(c) && next < PALETTE.length * 2);
            used.add(c);
            out.put(n, c);
        }
        return out;
    }

    static void style(Styler s) {
        s.setChartTitleFont(TITLE);
        s.setLegendFont(TICKS);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(Color.GRAY);
        s.setLegendBorderColor(Color.LIGHT_GRAY);
        s.setChartPadding(12);
        if (s instanceof AxesChartStyler a) {
            a.setAxisTitleFont(AXIS);
            a.setAxisTickLabelsFont(TICKS);
            a.setPlotGridLinesColor(new Color(225, 225, 225));
            a.setLocale(Locale.ROOT);
        }
        s.setToolTipsEnabled(false);
    }

    /**
     * Turns category labels that would not fit side by side upright (90 degrees), centred on their tick: a label
     * turned 45 degrees and centred on its tick reads as the next bar's, and right-aligned the first one runs off
     * the chart's left edge.
     */
    static void rotateLabels(CategoryChart chart, List<String> labels) {
        chart.getStyler().setXAxisLabelRotation(crowded(labels, chart.getWidth()) ? 90 : 0);
    }

    /** Whether category labels do not fit side by side under a plot of a chart {@code width} wide (then they stand upright). */
    private static boolean crowded(List<String> labels, int width) {
        // about 7 px a character at the tick font, and a gap
        return labels.size() * (7 * longest(labels) + 12) > width - 220;
    }

    private static int longest(List<String> labels) {
        int longest = 0;
        for (String b : labels) longest = Math.max(longest, b.length());
        return longest;
    }

    /**
     * A category chart's height: 560 px, plus what upright labels take from the plot (about 7 px a character beyond
     * what 560 px leaves for them), at most 900.
     */
    static int heightFor(List<String> labels, int width) {
        return crowded(labels, width) ? Math.min(900, 560 + Math.max(0, 7 * longest(labels) - 140)) : 560;
    }

    /** The width a chart needs for its title on one line (XChart clips a wider one at both edges). */
    static int titleWidth(String title) {
        BufferedImage img = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        int w = g.getFontMetrics(TITLE).stringWidth(title == null ? "" : title) + 2 * 12 + 100;
        g.dispose();
        return w;
    }

    /** The width a legend right of the plot ({@code OutsideE}) takes: its longest entry, the colour box and padding. */
    static int sideLegendWidth(List<String> names) {
        BufferedImage img = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        FontMetrics fm = g.getFontMetrics(TICKS);
        int longest = 0;
        for (String name : names) longest = Math.max(longest, fm.stringWidth(name));
        g.dispose();
        return longest + 24 + 3 * 10 + 2 * 12;
    }

    /** The chart height a legend right of the plot needs for {@code entries} entries (XChart clips a taller one at the top). */
    static int sideLegendHeight(int entries) { return 30 * entries + 140; }

    /** The width a legend below the plot needs for {@code names} in one row (XChart clips a wider one at the right edge). */
    static int legendWidth(List<String> names) {
        BufferedImage img = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        FontMetrics fm = g.getFontMetrics(TICKS);
        int need = 2 * 12 + 2 * 10 + 20;
        for (String name : names) need += fm.stringWidth(name) + 24 + 3 * 10 + 6;
        g.dispose();
        return need;
    }
}
