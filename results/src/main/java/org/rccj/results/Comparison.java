package org.rccj.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Results side by side ({@code rcc compare}): runs, sweeps or enumerations given as tables in the layout of
 * {@link ResultTable} (a run is a one-row table). Points are matched by their key values (a sweep's varied
 * values, an enumeration's code); for each point and metric the table shows every input's value, its 95%
 * confidence half-width where the input has one ({@code --repeat}), and each input's relative difference to
 * the first. A difference is starred when both inputs have confidence intervals and they do not overlap.
 */
public final class Comparison {
    /** One input: a short name (A, B, ...), what it is, and its table. */
    public record Input(String name, String description, CsvTable table) {}

    private Comparison() {}

    /** The headline metrics first, then the stage latencies (means, then p99s), in the first table's order. */
    static List<String> metrics(List<Input> inputs) {
        Set<String> out = new LinkedHashSet<>();
        for (Input in : inputs) {
            List<String> h = in.table().header();
            int runs = h.indexOf("runs");
            for (int i = runs + 1; i < h.size(); i++) if (!h.get(i).endsWith("_ci95")) out.add(h.get(i));
        }
        return new ArrayList<>(out);
    }

    /**
     * A point's key: the key columns that vary in its table (not {@code point}, a directory name, nor
     * {@code onesided}, which the code says), as "key=value ...", or "" for a run.
     */
    static String key(CsvTable t, int row) {
        List<String> parts = new ArrayList<>();
        for (String k : t.keyColumns()) {
            if (k.equals("point") || k.equals("onesided") || !varies(t, k)) continue; // what all its points share is no key
            parts.add(k + "=" + t.get(row, k));
        }
        return String.join(" ", parts);
    }

    private static boolean varies(CsvTable t, String col) {
        Set<String> s = new LinkedHashSet<>();
        for (int r = 0; r < t.rows().size(); r++) s.add(t.get(r, col));
        return s.size() > 1;
    }

    /** Point keys in order of first appearance over the inputs, with the row of each input (-1: absent). */
    static Map<String, int[]> points(List<Input> inputs) {
        Map<String, int[]> out = new LinkedHashMap<>();
        for (int i = 0; i < inputs.size(); i++) {
            CsvTable t = inputs.get(i).table();
            for (int r = 0; r < t.rows().size(); r++) {
                int[] rows = out.computeIfAbsent(key(t, r), k -> {
                    int[] a = new int[inputs.size()];
                    java.util.Arrays.fill(a, -1);
                    return a;
                });
                if (rows[i] < 0) rows[i] = r;
            }
        }
        return out;
    }

    /** How many of the first input's points at least one other input has too. */
    public static int commonPoints(List<Input> inputs) {
        int n = 0;
        for (int[] rows : points(inputs).values()) {
            boolean first = rows[0] >= 0, other = false;
            for (int i = 1; i < rows.length; i++) other |= rows[i] >= 0;
            if (first && other) n++;
        }
        return n;
    }

    /** The comparison as aligned text. */
    public static String text(List<Input> inputs) {
        StringBuilder sb = new StringBuilder();
        for (Input in : inputs) sb.append(in.name()).append(" = ").append(in.description()).append('\n');
        sb.append("relative differences are to ").append(inputs.get(0).name())
          .append("; '±' is a 95% confidence half-width (Student t over seeds, --repeat);")
          .append(" '*': both intervals known and not overlapping\n");
        List<String> metrics = metrics(inputs);
        Map<String, int[]> points = points(inputs);
        boolean keyed = points.size() > 1 || !points.keySet().iterator().next().isEmpty();
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>();
        if (keyed) header.add("point");
        header.add("metric");
        for (int i = 0; i < inputs.size(); i++) {
            header.add(inputs.get(i).name());
            if (i > 0) header.add(inputs.get(i).name() + " vs " + inputs.get(0).name());
        }
        for (Map.Entry<String, int[]> p : points.entrySet()) {
            int[] at = p.getValue();
            for (String m : metrics) {
                boolean any = false;
                for (int i = 0; i < inputs.size(); i++) {
                    double v = at[i] >= 0 ? inputs.get(i).table().number(at[i], m) : Double.NaN;
                    any |= Double.isFinite(v) && (v != 0 || !isStage(m));
                }
                if (!any) continue; // a stage no input ran or that took no time anywhere (EXECUTE on sim)
                List<String> row = new ArrayList<>();
                if (keyed) row.add(p.getKey());
                row.add(m);
                double base = value(inputs.get(0), at[0], m), baseCi = value(inputs.get(0), at[0], m + "_ci95");
                for (int i = 0; i < inputs.size(); i++) {
                    double v = value(inputs.get(i), at[i], m), ci = value(inputs.get(i), at[i], m + "_ci95");
                    row.add(at[i] < 0 ? "-" : format(m, v) + (Double.isFinite(ci) ? " ±" + format(m, ci) : ""));
                    if (i > 0) row.add(relative(base, baseCi, v, ci));
                }
                rows.add(row);
            }
        }
        int[] width = new int[header.size()];
        for (int c = 0; c < header.size(); c++) width[c] = header.get(c).length();
        for (List<String> r : rows) for (int c = 0; c < r.size(); c++) width[c] = Math.max(width[c], r.get(c).length());
        line(sb, header, width, keyed ? 2 : 1);
        String last = null;
        for (List<String> r : rows) {
            if (keyed && last != null && !last.equals(r.get(0))) sb.append('\n');
            last = r.get(0);
            line(sb, r, width, keyed ? 2 : 1);
        }
        return sb.toString();
    }

    private static boolean isStage(String metric) {
        return (metric.endsWith("_mean_us") || metric.endsWith("_p99_us")) && !metric.startsWith("latency_");
    }

    private static void line(StringBuilder sb, List<String> cells, int[] width, int leftAligned) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) l.append("  ");
            String s = cells.get(c);
            String pad = " ".repeat(width[c] - s.length());
            l.append(c < leftAligned ? s + pad : pad + s);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    private static double value(Input in, int row, String column) {
        return row < 0 ? Double.NaN : in.table().number(row, column);
    }

    /** "+12.3%" (and "*" when both CIs are known and disjoint), "n/a" without a usable base. */
    static String relative(double base, double baseCi, double v, double ci) {
        if (!Double.isFinite(base) || !Double.isFinite(v)) return "-";
        if (base == 0) return v == 0 ? "0.0%" : "n/a";
        String s = String.format(Locale.ROOT, "%+.1f%%", 100 * (v - base) / Math.abs(base));
        if (Double.isFinite(baseCi) && Double.isFinite(ci) && Math.abs(v - base) > baseCi + ci) s += "*";
        return s;
    }

    static String format(String metric, double v) {
        if (!Double.isFinite(v)) return "-";
        if (metric.equals("throughput_tps")) return String.format(Locale.ROOT, "%,.0f", v);
        if (metric.equals("abort_rate")) return String.format(Locale.ROOT, "%.4f", v);
        if (metric.endsWith("_us")) return String.format(Locale.ROOT, "%,.2f", v);
        return String.format(Locale.ROOT, "%,.4g", v);
    }
}
