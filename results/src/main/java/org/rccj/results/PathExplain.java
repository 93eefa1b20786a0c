package org.rccj.results;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.PathTotals;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.CriticalPath;

/**
 * {@code rcc run CONFIG --explain STAGE}: one op's critical path in a stage, term by term, for the stage's mean call and
 * one sampled call (the first measured one), each term with the profile parameters its size comes from and, for a
 * wait, what it waits for. The terms of each column add up to that column's latency (the mean's up to rounding).
 */
public final class PathExplain {
    private static final Pattern PARAM = Pattern.compile("[a-z_]+\\.[a-z_]+");

    private PathExplain() {}

    /** The names STAGE may take for a protocol with {@code stages}: each stage, then {@value PathTotals#OUTSIDE_NAME}. */
    public static List<String> names(List<Stage> stages) {
        List<String> out = new ArrayList<>();
        for (Stage s : stages) out.add(s.name());
        out.add(PathTotals.OUTSIDE_NAME);
        return out;
    }

    /** Parameter keys in {@code text} followed by their value in {@code profile} ("wire.one_way_ns = 850"). */
    static String withValues(String text, CostProfile profile) {
        Matcher m = PARAM.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = profile == null ? null : profile.value(m.group());
            m.appendReplacement(sb, Matcher.quoteReplacement(v == null ? m.group() : m.group() + " = " + v));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * The path per committed transaction as well as per call: a call that is cheaper one way can still cost more per
     * transaction when that way takes more calls (issue 42: one-sided LOCK 6.0 us a call against 9.6 us over RPC, but
     * 9.76 against 8.54 us per transaction from 82,700 calls for 45,508 invocations).
     */
    static void perTransaction(RunResult r, String stage, double meanLatencyNs, long calls, PrintStream out) {
        long commits = r.commits();
        if (commits <= 0) return;
        double perTxnCalls = (double) calls / commits;
        out.printf(Locale.ROOT, "per call %.2f us; per committed transaction %.3g calls x %.2f us = %.2f us (%,d calls for %,d committed"
                + " transactions", meanLatencyNs / 1e3, perTxnCalls, meanLatencyNs / 1e3, perTxnCalls * meanLatencyNs / 1e3, calls, commits);
        Stage st = Stage.byName(stage);
        org.rccj.framework.stats.Histogram h = st == null ? null : r.stages.get(st);
        if (h != null && h.count() > 0) {
            out.printf(Locale.ROOT, ", in %,d invocations of %s; the stage as a whole: %.3g invocations x %.2f us = %.2f us per committed"
                    + " transaction", h.count(), stage, (double) h.count() / commits, h.mean() / 1e3, h.mean() * h.count() / commits / 1e3);
        }
        out.println("): compare codes per transaction, not per call (rcc compare: \"where the difference comes from\")");
    }

    /** Prints the path of {@code stage} (a name of {@link #names}) of run {@code r}; {@code profile} may be null. */
    public static void print(RunResult r, String stage, CostProfile profile, PrintStream out) {
        int b = CriticalPathReport.bucket(stage);
        PathTotals p = r.paths;
        String name = PathTotals.name(b);
        if (b < 0 || p.calls[b] == 0) {
            out.println("critical path of " + stage + ": no op was waited for in it during the measured interval");
            return;
        }
        long[] sample = p.sample[b];
        out.printf(Locale.ROOT, "critical path of %s: %,d calls (a call: a coroutine's wait for its ops, from its first post"
                + " until it runs again; carried by the op that completed last)%n", name, p.calls[b]);
        out.printf(Locale.ROOT, "%-22s %10s %10s  %s%n", "term", "mean ns", "sample ns", "from");
        for (int t = 0; t < CriticalPath.COUNT; t++) {
            CriticalPath.Term term = CriticalPath.TERMS.get(t);
            long s = sample == null ? 0 : sample[t];
            if (p.ns[b][t] == 0 && s == 0) continue;
            String from = term.waits() ? "wait: " + term.meaning() + " [" + withValues(term.params(), profile) + "]"
                    : withValues(term.params(), profile) + " (" + term.meaning() + ")";
            out.printf(Locale.ROOT, "%-22s %10.1f %10d  %s%n", term.key(), CriticalPathReport.meanNs(p, b, t), s, from);
        }
        out.printf(Locale.ROOT, "%-22s %10.1f %10d  the op's latency: the sum of the terms above%n", "= latency",
                CriticalPathReport.meanLatencyNs(p, b), p.sampleLatencyNs[b]);
        perTransaction(r, name, CriticalPathReport.meanLatencyNs(p, b), p.calls[b], out);
        out.println("not on the path (capacity only: they delay later ops, which shows as their waits): the requester NIC's"
                + " WQE fetch and WQE work (nic.wqe_fetch_ns, nic.wqe_ns, QP misses' nic.qp_miss_ns), the responder NIC's"
                + " service of this op (nic.*_mops, nic.recv_ns), the sending NIC's nic.send_ns, the completion DMA's nic.cqe_ns");
    }
}
