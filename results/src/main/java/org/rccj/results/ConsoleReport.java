package org.rccj.results;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.primitives.Counters;

/** The human-readable summary of a run that {@code rcc run} prints: fixed-width, one block per topic. */
public final class ConsoleReport {
    /** Anomalies listed before "... and N more". */
    static final int MAX_ANOMALIES_SHOWN = 10;
    private static final String LABEL = "%-14s";

    private ConsoleReport() {}

    public static void print(RunResult r, PrintStream out) {
        out.print(render(r));
        out.flush();
    }

    /** The report as text ("\n" line ends). */
    public static String render(RunResult r) {
        Config c = r.config;
        StringBuilder sb = new StringBuilder();
        line(sb, c.protocol() + " | hybrid " + c.hybrid().spelled() + " (" + c.hybrid().code() + ") | " + c.workloadName()
                + " | " + c.fabric() + (c.fabricFactory().virtualTime() ? " (" + c.fabricSetting("profile") + ")" : "") + " | "
                + c.nodes() + " nodes x " + c.threads() + " threads x " + c.coroutines() + " coroutines");
        line(sb, "run '" + c.name() + "', seed " + c.seed() + ", measured " + f("%.3f", r.measuredS * 1000) + " ms"
                + (c.fabricFactory().virtualTime() ? " (virtual)" : ""));
        for (String w : Warnings.of(r)) line(sb, label("WARNING") + w);
        line(sb, "");
        line(sb, label("throughput") + human(r.throughputTps(), "/s") + "  (" + f("%.1f", r.throughputTps()) + " tps)");
        line(sb, label("commits") + f("%,d", r.commits()) + "   aborts " + f("%,d", r.aborts())
                + "   abort rate " + pct(r.abortRate())
                + (r.rolledBack() > 0 ? "   rolled back by the workload " + f("%,d", r.rolledBack()) : ""));
        if (!r.abortReasons.isEmpty()) {
            List<String> parts = new ArrayList<>();
            long sum = 0;
            for (long n : r.abortReasons.values()) sum += n;
            for (Map.Entry<String, Long> e : r.abortReasons.entrySet()) {
                parts.add(e.getKey() + " " + f("%,d", e.getValue()) + (sum > 0 ? " (" + pct((double) e.getValue() / sum) + ")" : ""));
            }
            line(sb, label("abort reasons") + String.join(", ", parts));
        }
        Histogram lat = r.total.latency;
        line(sb, label("latency (us)") + "mean " + us(lat.mean()) + "  p50 " + us(lat.quantile(0.5)) + "  p90 " + us(lat.quantile(0.9))
                + "  p95 " + us(lat.quantile(0.95)) + "  p99 " + us(lat.quantile(0.99)) + "  p999 " + us(lat.quantile(0.999)) + "  max " + us(lat.max()));

        if (!r.perType.isEmpty()) {
            line(sb, "");
            String fmt = "%-20s %12s %10s %8s %11s %12s %10s %10s %10s";
            line(sb, f(fmt, "txn type", "commits", "aborts", "abort%", "rolled_back", "throughput", "mean_us", "p50_us", "p99_us"));
            for (Map.Entry<String, TxnTypeStats> e : r.perType.entrySet()) {
                TxnTypeStats t = e.getValue();
                long attempts = t.commits + t.aborts;
                double tps = r.measuredS <= 0 ? 0 : t.commits / r.measuredS;
                line(sb, f(fmt, e.getKey(), f("%,d", t.commits), f("%,d", t.aborts),
                        attempts == 0 ? "-" : f("%.2f", 100.0 * t.aborts / attempts), f("%,d", t.rolledBack), human(tps, "/s"),
                        us(t.latency.mean()), us(t.latency.quantile(0.5)), us(t.latency.quantile(0.99))));
            }
        }

        List<StageBreakdown.Row> rows = StageBreakdown.of(r);
        if (!rows.isEmpty()) {
            line(sb, "");
            line(sb, "stages: mean_us per call; us/txn = mean x count / commits, what the stage adds to a committed transaction");
            String fmt = "%-20s %12s %10s %10s %10s %10s %8s";
            line(sb, f(fmt, "stage", "count", "mean_us", "us/txn", "p50_us", "p99_us", "share"));
            for (StageBreakdown.Row row : rows) {
                Stage s = Stage.byName(row.stage());
                String mode = s == null ? "" : c.hybrid().oneSided(s) ? " (1-sided)" : " (rpc)";
                line(sb, f(fmt, row.stage() + mode, f("%,d", row.count()), us(row.meanNs()), us(row.perTxnNs(r.commits())), us(row.p50Ns()), us(row.p99Ns()),
                        f("%.1f%%", 100 * row.share())));
            }
        }

        line(sb, "");
        Counters n = r.network;
        long commits = r.commits();
        String perCommit = commits == 0 ? "" : "  (per commit: " + f("%.2f", (double) (n.read + n.write + n.cas + n.faa + n.rpc) / commits)
                + " ops, " + humanBytes((double) n.bytes / commits) + ")";
        line(sb, label("network") + "read " + f("%,d", n.read) + "  write " + f("%,d", n.write) + "  cas " + f("%,d", n.cas)
                + "  faa " + f("%,d", n.faa) + "  rpc " + f("%,d", n.rpc) + "  local " + f("%,d", n.local)
                + "  doorbells " + f("%,d", n.doorbells) + "  bytes " + humanBytes(n.bytes) + perCommit);
        if (r.busyShare.length > 0) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < r.busyShare.length; i++) {
                double b = r.busyShare[i];
                parts.add("node" + i + " " + (b < 0 ? "?" : pct(b)));
            }
            line(sb, label("cpu busy") + String.join("  ", parts));
        }
        verification(sb, r.verification);
        if (!r.extra.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, Double> e : r.extra.entrySet()) {
                parts.add(e.getKey() + " " + extraValue(e.getValue()));
            }
            line(sb, label("extra") + String.join("  ", parts));
        }
        if (c.fabricFactory().virtualTime() && (r.simEvents > 0 || r.wallS > 0)) {
            line(sb, label("simulator") + f("%,d", r.simEvents) + " events, " + f("%,d", r.simCommitsTotal)
                    + " transactions simulated in " + f("%.2f", r.wallS) + " s wall, " + f("%.2f", r.cpuS) + " s CPU"
                    + (r.cpuS > 0 ? " (" + human(r.simCommitsTotal / r.cpuS, " txn/s") + " per core, "
                    + human(r.simEvents / r.cpuS, " events/s") + ")" : ""));
        }
        return sb.toString();
    }

    private static void verification(StringBuilder sb, RunResult.Verification v) {
        if (!v.checked()) {
            line(sb, label("verification") + "off (set " + Config.VERIFY.key() + ": true to check serializability and the workload invariants)");
            return;
        }
        String ser = v.nothingCommitted() ? "not checked: nothing committed (0 transactions to check)"
                : v.serializable()
                ? "serializable: yes (" + v.txnsChecked() + " txns checked)"
                : "serializable: NO (" + v.txnsChecked() + " txns checked, " + v.anomalies().size() + " anomalies)";
        List<String> inv = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : v.invariants().entrySet()) {
            inv.add(e.getKey() + (Boolean.TRUE.equals(e.getValue()) ? " ok" : " FAILED"));
        }
        line(sb, label("verification") + ser + "; invariants: " + (inv.isEmpty() ? "none declared" : String.join(", ", inv)));
        int shown = 0;
        for (String a : v.anomalies()) {
            if (shown == MAX_ANOMALIES_SHOWN) {
                line(sb, label("") + "... and " + (v.anomalies().size() - shown) + " more anomalies (see summary.json)");
                break;
            }
            line(sb, label("") + "anomaly: " + a);
            shown++;
        }
    }

    /** "1.23 M/s", "456 K/s", "12.3 /s": three significant digits with a K/M/G prefix. */
    public static String human(double v, String unit) {
        if (!Double.isFinite(v)) return "- " + unit.strip();
        String[] prefixes = {"", " K", " M", " G", " T"};
        int i = 0;
        double x = v;
        while (Math.abs(x) >= 999.5 && i < prefixes.length - 1) {
            x /= 1000;
            i++;
        }
        String num = Math.abs(x) >= 99.95 ? f("%.0f", x) : Math.abs(x) >= 9.995 ? f("%.1f", x) : f("%.2f", x);
        String sep = i == 0 && !unit.startsWith(" ") ? " " : "";
        return num + prefixes[i] + sep + unit;
    }

    static String humanBytes(double b) {
        return human(b, "B").replace("  ", " ");
    }

    private static String us(double ns) {
        double u = ns / 1000.0;
        return u >= 1000 ? f("%.1f", u) : f("%.2f", u);
    }

    private static String pct(double share) { return f("%.2f%%", 100 * share); }

    private static String label(String s) { return f(LABEL, s); }

    private static String f(String fmt, Object... args) { return String.format(Locale.ROOT, fmt, args); }

    /** A protocol or fault figure: a count as a whole number (whatever its size), a rate or share to 6 significant digits. */
    static String extraValue(Double v) {
        if (v == null) return "-";
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString(v.longValue());
        return f("%.6g", v);
    }

    private static void line(StringBuilder sb, String s) { sb.append(s).append('\n'); }
}
