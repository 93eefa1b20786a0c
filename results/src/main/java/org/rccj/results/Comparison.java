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

    /** The row of the time outside stages when the tables do not give its parts: latency_mean_us less the stages' us_per_txn. */
    public static final String OUTSIDE = "outside_stages_us_per_txn";
    /** The row that sums the stages' and the outside parts' us_per_txn: the mean latency. */
    public static final String TOTAL = "total_us_per_txn";

    /**
     * The headline metrics first, then the stage latencies (means, then per committed txn, then p99s), in the first
     * table's order; after the per-txn rows, the time outside stages ({@value #OUTSIDE}, unless the tables give
     * {@code outside_<part>_us_per_txn} columns) and {@value #TOTAL}, so that the per-txn rows add up to the mean
     * latency.
     */
    static List<String> metrics(List<Input> inputs) {
        List<List<String>> headers = new ArrayList<>();
        for (Input in : inputs) {
            List<String> h = in.table().header(), mine = new ArrayList<>();
            int runs = h.indexOf("runs");
            for (int i = runs + 1; i < h.size(); i++) if (!h.get(i).endsWith("_ci95") && !h.get(i).equals(ResultTable.WARNINGS)) mine.add(h.get(i));
            headers.add(mine);
        }
        // one stage order with the tables and plots: a stage's row only the second input has goes after its predecessor there
        List<String> list = StageOrder.merge(headers);
        boolean withParts = list.stream().anyMatch(h -> h.startsWith(OutsideStages.PREFIX) && h.endsWith(OutsideStages.SUFFIX));
        // EXECUTE once: with outside parts its committed attempt's time is outside_execute, not a stage row besides it
        list.removeIf(h -> h.endsWith("_us_per_txn") && !h.startsWith(OutsideStages.PREFIX)
                && !OutsideStages.inLatencySum(h.substring(0, h.length() - "_us_per_txn".length()), withParts));
        int last = -1;
        boolean parts = false;
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).endsWith("_us_per_txn")) last = i;
            parts |= list.get(i).startsWith(OutsideStages.PREFIX) && list.get(i).endsWith(OutsideStages.SUFFIX);
        }
        if (last >= 0 && list.contains("latency_mean_us")) {
            List<String> derived = List.of(OUTSIDE, TOTAL);   // with parts: OUTSIDE is their sum
            list.addAll(last + 1, derived);
        }
        return list;
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

    /** The comparison as aligned text, every metric. */
    public static String text(List<Input> inputs) {
        return text(inputs, List.of(), null);
    }

    /**
     * The comparison as aligned text: each input, then {@code preamble} (settings that differ, warnings), then one
     * line per point and metric; {@code only} (null: all) limits the metrics.
     */
    public static String text(List<Input> inputs, List<String> preamble, List<String> only) {
        return text(inputs, preamble, only, true);
    }

    /** The headline metrics, the only rows of a short table of several points. */
    public static final List<String> HEADLINE = List.of("throughput_tps", "latency_mean_us", "latency_p99_us", "abort_rate");

    /**
     * The metrics a short table shows ({@code rcc compare} without {@code --full}): the headline metrics and, for a
     * single point (runs), the rows that add up to the mean latency (each stage's time per committed transaction, the
     * time outside stages, the total); the stages' means per call and p99s only in the full table. Several points show
     * the headline metrics only: "where the difference comes from" explains their winners.
     */
    public static List<String> shortMetrics(List<Input> inputs) {
        List<String> out = new ArrayList<>();
        boolean onePoint = points(inputs).size() == 1;
        for (String m : metrics(inputs)) {
            if (HEADLINE.contains(m) || (onePoint && (m.endsWith("_us_per_txn") || m.equals(OUTSIDE) || m.equals(TOTAL)))) out.add(m);
        }
        return out;
    }

    /**
     * The comparison as aligned text; {@code full} false and {@code only} null: the short table
     * ({@link #shortMetrics}), with a line saying how to get the rest; always ending with "where the difference comes
     * from" ({@link #whereFrom}).
     */
    public static String text(List<Input> inputs, List<String> preamble, List<String> only, boolean full) {
        if (only == null && !full) {
            List<String> s = shortMetrics(inputs);
            String text = textTable(inputs, preamble, s);
            int all = metrics(inputs).size();
            return text + (s.size() < all ? "(short table: " + s.size() + " of " + all + " metrics; --full shows every metric, --metrics M,M... chooses)\n" : "")
                    + whereFrom(inputs);
        }
        return textTable(inputs, preamble, only) + (only == null ? whereFrom(inputs) : "");
    }

    private static String textTable(List<Input> inputs, List<String> preamble, List<String> only) {
        StringBuilder sb = new StringBuilder();
        for (Input in : inputs) sb.append(in.name()).append(" = ").append(in.description()).append('\n');
        for (String l : preamble) sb.append(l).append('\n');
        sb.append("relative differences are to ").append(inputs.get(0).name())
          .append("; '±' is a 95% confidence half-width (Student t over seeds, --repeat);")
          .append(" '*': both intervals known and not overlapping\n");
        List<String> shown = metrics(inputs);
        if (only != null) shown.retainAll(only);
        if (shown.contains(TOTAL)) {
            sb.append("'X-").append(inputs.get(0).name()).append("' is the absolute difference; the _us_per_txn rows are each stage's time per")
              .append(" committed transaction (aborted attempts included)").append(metrics(inputs).contains(OUTSIDE)
                      ? ", " + OUTSIDE + " the rest of the mean latency (negative: the stages exceed it)" : ", outside_* the time outside stages")
              .append(", and they add up to ").append(TOTAL).append(" = latency_mean_us\n");
        }
        Table tb = table(inputs, only);
        List<String> header = tb.header();
        List<List<String>> rows = tb.rows();
        boolean keyed = tb.keyed();
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

    /** One term of a point's latency: a stage (with its calls per committed transaction and time per call) or an outside part. */
    private record Term(String name, double usPerTxn, double callsPerTxn, double usPerCall) {}

    /** The terms that add up to a row's mean latency: each stage's time per committed transaction, then the outside parts. */
    private static List<Term> terms(Input in, int row) {
        CsvTable t = in.table();
        boolean hasParts = t.header().stream().anyMatch(h -> h.startsWith(OutsideStages.PREFIX) && h.endsWith(OutsideStages.SUFFIX));
        List<Term> out = new ArrayList<>();
        for (String h : t.header()) {
            if (!h.endsWith("_us_per_txn") || h.endsWith("_ci95")) continue;
            double v = t.number(row, h);
            if (!Double.isFinite(v)) continue;
            if (h.startsWith(OutsideStages.PREFIX)) {
                out.add(new Term("outside: " + OutsideStages.label(h.substring(OutsideStages.PREFIX.length(), h.length() - OutsideStages.SUFFIX.length())),
                        v, Double.NaN, Double.NaN));
                continue;
            }
            String stage = h.substring(0, h.length() - "_us_per_txn".length());
            if (!OutsideStages.inLatencySum(stage, hasParts)) continue; // EXECUTE: counted once, as outside: execute
            double perCall = t.column(stage + "_mean_us") >= 0 ? t.number(row, stage + "_mean_us") : Double.NaN;
            out.add(new Term(stage, v, perCall > 0 ? v / perCall : 0, perCall));
        }
        if (!hasParts) out.add(new Term("outside stages", value(in, row, OUTSIDE), Double.NaN, Double.NaN));
        return out;
    }

    /** The row of an input's best point by throughput (-1: none). */
    private static int best(Input in) {
        int b = -1;
        for (int r = 0; r < in.table().rows().size(); r++) {
            double v = in.table().number(r, "throughput_tps");
            if (Double.isFinite(v) && (b < 0 || v > in.table().number(b, "throughput_tps"))) b = r;
        }
        return b;
    }

    /**
     * "where the difference comes from": per other input against the first, the terms of the mean latency per committed
     * transaction (stages: calls per transaction x time per call; outside parts) ranked by the size of their difference,
     * so a winner's reason is one command. One point each (runs): that point; several: each input's best point by
     * throughput.
     */
    public static String whereFrom(List<Input> inputs) {
        StringBuilder sb = new StringBuilder();
        Input a = inputs.get(0);
        Map<String, int[]> pts = points(inputs);
        boolean onePoint = pts.size() == 1;
        for (int i = 1; i < inputs.size(); i++) {
            Input b = inputs.get(i);
            int ra, rb;
            if (onePoint) {
                int[] rows = pts.values().iterator().next();
                ra = rows[0];
                rb = rows[i];
            } else {
                ra = best(a);
                rb = best(b);
            }
            if (ra < 0 || rb < 0) continue;
            if (a.table().column("latency_mean_us") < 0 || b.table().column("latency_mean_us") < 0) continue;
            List<Term> ta = terms(a, ra), tb = terms(b, rb);
            if (ta.isEmpty() && tb.isEmpty()) continue;
            Map<String, Term[]> byName = new LinkedHashMap<>();
            for (Term t : ta) byName.computeIfAbsent(t.name(), k -> new Term[2])[0] = t;
            for (Term t : tb) byName.computeIfAbsent(t.name(), k -> new Term[2])[1] = t;
            List<Map.Entry<String, Term[]>> ranked = new ArrayList<>(byName.entrySet());
            ranked.removeIf(e -> us(e.getValue()[0]) == 0 && us(e.getValue()[1]) == 0);
            ranked.sort((x, y) -> Double.compare(Math.abs(us(y.getValue()[1]) - us(y.getValue()[0])), Math.abs(us(x.getValue()[1]) - us(x.getValue()[0]))));
            double la = a.table().number(ra, "latency_mean_us"), lb = b.table().number(rb, "latency_mean_us");
            double tpa = a.table().number(ra, "throughput_tps"), tpb = b.table().number(rb, "throughput_tps");
            sb.append('\n').append("where the difference comes from (").append(b.name()).append(" vs ").append(a.name());
            if (!onePoint) sb.append(": each one's best point, ").append(a.name()).append(' ').append(key(a.table(), ra)).append(", ")
                    .append(b.name()).append(' ').append(key(b.table(), rb));
            sb.append("): mean latency ").append(format("x_us", la)).append(" -> ").append(format("x_us", lb)).append(" us (")
              .append(delta("x_us", lb - la)).append("), throughput ").append(format("throughput_tps", tpa)).append(" -> ")
              .append(format("throughput_tps", tpb)).append(" txn/s; the terms of the mean latency per committed transaction,")
              .append(" largest difference first (a stage's term is its calls per transaction x its time per call):\n");
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("term", a.name() + " calls x us/call = us/txn", b.name() + " calls x us/call = us/txn", b.name() + "-" + a.name() + " us/txn", "why"));
            double sum = 0;
            for (Map.Entry<String, Term[]> e : ranked) {
                Term x = e.getValue()[0], y = e.getValue()[1];
                double d = us(y) - us(x);
                sum += d;
                rows.add(List.of(e.getKey(), product(x), product(y), delta("x_us", d), why(x, y)));
            }
            rows.add(List.of("sum", "", "", delta("x_us", sum), "= the difference of the mean latencies" + (Math.abs(sum - (lb - la)) > 0.01 + 1e-3 * Math.abs(la)
                    ? String.format(Locale.ROOT, " (%s; rounding of the tables)", delta("x_us", lb - la)) : "")));
            int[] w = new int[5];
            for (List<String> r : rows) for (int c = 0; c < 5; c++) w[c] = Math.max(w[c], r.get(c).length());
            for (List<String> r : rows) {
                StringBuilder l = new StringBuilder(r.get(0) + " ".repeat(w[0] - r.get(0).length()));
                for (int c = 1; c < 4; c++) l.append("  ").append(" ".repeat(w[c] - r.get(c).length())).append(r.get(c));
                sb.append(l.append("  ").append(r.get(4)).toString().stripTrailing()).append('\n');
            }
        }
        return sb.toString();
    }

    private static double us(Term t) { return t == null || !Double.isFinite(t.usPerTxn()) ? 0 : t.usPerTxn(); }

    private static String product(Term t) {
        if (t == null) return "-";
        if (!Double.isFinite(t.callsPerTxn()) || !Double.isFinite(t.usPerCall())) return String.format(Locale.ROOT, "%,.2f", t.usPerTxn());
        return String.format(Locale.ROOT, "%.3g x %,.2f = %,.2f", t.callsPerTxn(), t.usPerCall(), t.usPerTxn());
    }

    /** Which factor moved a stage's term: more or fewer calls per transaction, or a dearer or cheaper call. */
    private static String why(Term x, Term y) {
        if (x == null || y == null) return x == null ? "only in the second" : "only in the first";
        if (!Double.isFinite(x.callsPerTxn()) || !Double.isFinite(y.callsPerTxn()) || x.usPerCall() <= 0 || y.usPerCall() <= 0) return "";
        double calls = Math.log(y.callsPerTxn() / x.callsPerTxn()), cost = Math.log(y.usPerCall() / x.usPerCall());
        if (!Double.isFinite(calls) || !Double.isFinite(cost)) return "";
        String c = String.format(Locale.ROOT, "calls %+.0f%%", 100 * (y.callsPerTxn() / x.callsPerTxn() - 1));
        String p = String.format(Locale.ROOT, "per call %+.0f%%", 100 * (y.usPerCall() / x.usPerCall() - 1));
        return Math.abs(calls) >= Math.abs(cost) ? c + ", " + p : p + ", " + c;
    }

    /** The comparison as CSV: the same rows as {@link #text}, one cell per column. */
    public static String csv(List<Input> inputs, List<String> only) {
        Table tb = table(inputs, only);
        StringBuilder sb = new StringBuilder();
        List<String> header = new ArrayList<>(tb.header());
        if (!tb.keyed()) header.add(0, "point");
        sb.append(String.join(",", header.stream().map(ResultTable::cell).toList())).append('\n');
        for (List<String> r : tb.rows()) {
            List<String> cells = new ArrayList<>(r);
            if (!tb.keyed()) cells.add(0, "");
            sb.append(String.join(",", cells.stream().map(ResultTable::cell).toList())).append('\n');
        }
        return sb.toString();
    }

    /** The metric names any input has (for --metrics). */
    public static List<String> metricNames(List<Input> inputs) { return metrics(inputs); }

    private record Table(List<String> header, List<List<String>> rows, boolean keyed) {}

    private static Table table(List<Input> inputs, List<String> only) {
        List<String> metrics = metrics(inputs);
        if (only != null) metrics.retainAll(only);
        Map<String, int[]> points = points(inputs);
        boolean keyed = points.size() > 1 || !points.keySet().iterator().next().isEmpty();
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>();
        if (keyed) header.add("point");
        header.add("metric");
        for (int i = 0; i < inputs.size(); i++) {
            header.add(inputs.get(i).name());
            if (i > 0) {
                header.add(inputs.get(i).name() + "-" + inputs.get(0).name());
                header.add(inputs.get(i).name() + " vs " + inputs.get(0).name());
            }
        }
        for (Map.Entry<String, int[]> p : points.entrySet()) {
            int[] at = p.getValue();
            for (String m : metrics) {
                boolean any = false;
                for (int i = 0; i < inputs.size(); i++) {
                    double v = value(inputs.get(i), at[i], m);
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
                    if (i > 0) {
                        row.add(Double.isFinite(base) && Double.isFinite(v) ? delta(m, v - base) : "-");
                        row.add(relative(base, baseCi, v, ci));
                    }
                }
                rows.add(row);
            }
        }
        return new Table(header, rows, keyed);
    }

    /**
     * The settings whose values differ between the inputs' configs (summary.json's {@code config}, flattened to
     * dotted keys; {@code ignore} are left out, e.g. what a sweep varies), one line each: "  coroutines: A=1, B=8".
     * @param configs one per input (null: unknown)
     */
    public static List<String> differingSettings(List<Input> inputs, List<com.fasterxml.jackson.databind.JsonNode> configs, Set<String> ignore) {
        List<Map<String, String>> flat = new ArrayList<>();
        Set<String> keys = new java.util.TreeSet<>();
        for (com.fasterxml.jackson.databind.JsonNode c : configs) {
            Map<String, String> m = new LinkedHashMap<>();
            if (c != null) flatten("", c, m);
            keys.addAll(m.keySet());
            flat.add(m);
        }
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (ignore.contains(k) || ignore.contains(k.contains(".") ? k.substring(0, k.indexOf('.')) : k)) continue;
            Set<String> values = new LinkedHashSet<>();
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                if (configs.get(i) == null) continue;
                String v = flat.get(i).getOrDefault(k, "(unset)");
                values.add(v);
                parts.add(inputs.get(i).name() + "=" + v);
            }
            if (values.size() > 1) out.add("  " + k + ": " + String.join(", ", parts));
        }
        return out;
    }

    private static void flatten(String prefix, com.fasterxml.jackson.databind.JsonNode n, Map<String, String> out) {
        if (n.isObject()) {
            for (java.util.Iterator<Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e = it.next();
                flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else {
            out.put(prefix, n.isValueNode() ? n.asText() : n.toString());
        }
    }

    private static boolean isStage(String metric) {
        return (metric.endsWith("_mean_us") || metric.endsWith("_p99_us") || metric.endsWith("_us_per_txn")) && !metric.startsWith("latency_")
                && !metric.equals(TOTAL);
    }

    /** An absolute difference in the metric's unit, signed ("+1.90", "-12,345"). */
    public static String delta(String metric, double d) {
        if (d == 0) d = 0; // no "-0.00"
        if (metric.equals("throughput_tps")) return String.format(Locale.ROOT, "%+,.0f", d);
        if (metric.equals("abort_rate")) return String.format(Locale.ROOT, "%+.4f", d);
        if (metric.endsWith("_us") || metric.endsWith("_us_per_txn")) {
            return String.format(Locale.ROOT, Math.abs(d) >= 10 || d == 0 ? "%+,.2f" : "%+.3g", d);
        }
        return String.format(Locale.ROOT, "%+,.4g", d);
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
        if (row < 0) return Double.NaN;
        CsvTable t = in.table();
        if (column.equals(OUTSIDE) || column.equals(TOTAL)) {
            double stages = 0, outside = 0;
            boolean parts = false;
            boolean hasParts = t.header().stream().anyMatch(h -> h.startsWith(OutsideStages.PREFIX) && h.endsWith(OutsideStages.SUFFIX));
            for (String h : t.header()) {
                if (!h.endsWith("_us_per_txn")) continue;
                if (!h.startsWith(OutsideStages.PREFIX) && !OutsideStages.inLatencySum(h.substring(0, h.length() - "_us_per_txn".length()), hasParts)) continue;
                double v = t.number(row, h);
                if (!Double.isFinite(v)) continue;
                if (h.startsWith(OutsideStages.PREFIX)) {
                    outside += v;
                    parts = true;
                } else {
                    stages += v;
                }
            }
            double mean = t.number(row, "latency_mean_us");
            if (!parts) outside = mean - stages;
            return column.equals(OUTSIDE) ? outside : stages + outside;
        }
        if (column.endsWith("_ci95") && (column.startsWith(OUTSIDE) || column.startsWith(TOTAL))) return Double.NaN;
        return t.number(row, column);
    }

    /**
     * "+12.3%" (and "*" when both CIs are known and disjoint), "n/a" without a usable base: zero, or of the other sign
     * than the value (a term of the latency that is negative in one run and positive in the other: -0.086 to +0.085 us
     * read "+199%"; the absolute column says it).
     */
    static String relative(double base, double baseCi, double v, double ci) {
        if (!Double.isFinite(base) || !Double.isFinite(v)) return "-";
        if (base == 0) return v == 0 ? "0.0%" : "n/a";
        if (base * v < 0) return "n/a";
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
