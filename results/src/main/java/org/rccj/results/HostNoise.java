package org.rccj.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.HostLoad;
import org.rccj.framework.run.RunResult;

/**
 * Noise on wall-clock fabrics, recorded and flagged: the host's load around the run (summary.json's
 * {@code environment.host_load}), and warnings when the host was busier than the run's threads allow, when CPU time
 * was stolen, when the throughput of the timeline's intervals varies by more than {@link #MAX_CV_PERCENT}% within
 * the window, when the window is too short for a stable figure, and (tables) when a point's repeats disagree.
 */
public final class HostNoise {
    /**
     * Coefficient of variation of the timeline's interval throughputs above which a run warns, percent: the bound
     * {@code warmup_ms: auto} waits for ({@link org.rccj.framework.run.AutoWarmup#MAX_CV}), one value for both.
     */
    public static final int MAX_CV_PERCENT = (int) Math.round(100 * org.rccj.framework.run.AutoWarmup.MAX_CV);
    /** How the warning of a run whose throughput was not steady within its window begins. */
    public static final String UNSTEADY = "throughput varies by ";
    /** Stolen share of the host's CPU time above which a run warns. */
    public static final double MAX_STEAL = 0.02;
    /** A wall-clock window shorter than this (ms) gives no stable figure. */
    public static final double MIN_WINDOW_MS = 1000;
    /** A 95% CI half-width of a point's throughput above this share of its mean: its repeats disagree. */
    public static final double MAX_CI_SHARE = 0.10;

    private HostNoise() {}

    /** summary.json's {@code environment.host_load}. */
    static Map<String, Object> describe(HostLoad h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("load_avg_1m_before", finite(h.loadBefore(), 2));
        m.put("load_avg_1m_after", finite(h.loadAfter(), 2));
        m.put("cores", h.cores());
        m.put("steal_share", finite(h.stealShare(), 4));
        m.put("involuntary_context_switches", h.involuntarySwitches() < 0 ? null : h.involuntarySwitches());
        return m;
    }

    private static Object finite(double v, int decimals) { return Double.isFinite(v) ? Decimals.round(v, decimals) : null; }

    /** The warnings of a wall-clock run (none on sim). */
    static List<String> warnings(RunResult r) {
        List<String> out = new ArrayList<>();
        Config c = r.config;
        if (c == null || c.fabricFactory().virtualTime()) return out;
        if (c.durationMs() < MIN_WINDOW_MS) {
            out.add(String.format(Locale.ROOT, "measured window %s ms on a wall-clock fabric: too short for a stable figure (timer, scheduler and"
                    + " JIT noise are a large share of it); set %s >= %.0f", fmt(c.durationMs()), Config.DURATION_MS.key(), MIN_WINDOW_MS));
        }
        HostLoad h = r.hostLoad;
        if (h != null) {
            int threads = c.nodes() * c.threads();
            double load = Math.max(finiteOr0(h.loadBefore()), finiteOr0(h.loadAfter()) - threads);
            if (load + threads > h.cores()) {
                out.add(String.format(Locale.ROOT, "busy host: load average %.2f before the run and %.2f after, on %d cores, and the run needs %d"
                        + " for its worker threads: they waited for cores, so the figures understate the protocol", finiteOr0(h.loadBefore()),
                        finiteOr0(h.loadAfter()), h.cores(), threads));
            }
            if (Double.isFinite(h.stealShare()) && h.stealShare() > MAX_STEAL) {
                out.add(String.format(Locale.ROOT, "the hypervisor stole %.1f%% of the host's CPU time during the run (more than %.0f%%): the"
                        + " figures include time the run did not get", 100 * h.stealShare(), 100 * MAX_STEAL));
            }
        }
        out.addAll(WarmupReport.warnings(r));
        double cv = timelineCv(r);
        if (cv * 100 > MAX_CV_PERCENT) {
            out.add(String.format(Locale.ROOT, UNSTEADY + "%.0f%% (coefficient of variation of the %d timeline intervals, bound %d%%)"
                    + " within the window: the host or the warm-up was not steady; see timeline.csv", 100 * cv, r.timeline.length, MAX_CV_PERCENT));
        }
        return out;
    }

    /** Coefficient of variation of the timeline's interval commits (0 with fewer than 2 intervals or no commits). */
    static double timelineCv(RunResult r) {
        long[] t = r.timeline;
        if (t.length < 2) return 0;
        double sum = 0;
        for (long v : t) sum += v;
        double mean = sum / t.length;
        if (mean <= 0) return 0;
        double ss = 0;
        for (long v : t) ss += (v - mean) * (v - mean);
        return Math.sqrt(ss / (t.length - 1)) / mean;
    }

    /**
     * A table row's warning when its runs are on a wall-clock fabric and their throughput's 95% CI is wider than
     * {@value #MAX_CI_SHARE} of the mean either way; null otherwise.
     */
    static String repeatsDisagree(List<RunMetrics> runs, double mean, double halfWidth) {
        if (runs.size() < 2 || !(mean > 0) || !Double.isFinite(halfWidth)) return null;
        for (RunMetrics m : runs) if (m.fabric().equals("sim")) return null;
        if (halfWidth / mean <= MAX_CI_SHARE) return null;
        return String.format(Locale.ROOT, "repeats disagree: the %d seeds' throughput 95%% CI is +-%.0f%% of the mean (bound %.0f%%):"
                + " the host's noise is larger than the differences a point can show; rerun on a quiet host or add --repeat", runs.size(),
                100 * halfWidth / mean, 100 * MAX_CI_SHARE);
    }

    private static String fmt(double ms) { return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms); }

    private static double finiteOr0(double v) { return Double.isFinite(v) ? v : 0; }
}
