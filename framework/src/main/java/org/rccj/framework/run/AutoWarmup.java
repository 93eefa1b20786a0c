package org.rccj.framework.run;

import java.util.Locale;
import org.rccj.framework.config.Param;

/**
 * {@code warmup_ms: auto} (or {@code auto:MAX_MS}) on a wall-clock fabric (decision 0210): the warm-up ends once the
 * throughput is steady, or at {@code boundMs} at the latest, and the measured window ({@code duration_ms}) follows.
 * The rule ({@link #steady}) looks at the commits of this process's workers (on tcp and ucx: node 0's, which tells
 * every node when the window starts) per interval of {@link #BUCKET_MS}.
 */
public record AutoWarmup(double boundMs) {
    /** The bound of a plain {@code auto}, ms. */
    public static final double DEFAULT_BOUND_MS = 30_000;
    /** The interval the throughput is counted in, ms. */
    public static final long BUCKET_MS = 200;
    /** Intervals in each of the two halves the rule compares. */
    public static final int HALF = 5;
    /** Largest change of the mean throughput between the two halves, relative to the later one. */
    public static final double MAX_TREND = 0.05;
    /**
     * Largest coefficient of variation of the later half's intervals; also the value above which a window's timeline
     * warns ({@code results.HostNoise.MAX_CV_PERCENT} is derived from it).
     */
    public static final double MAX_CV = 0.15;
    /**
     * The window opens this long after the decision, ms: every worker (and, on tcp and ucx, every node, told by a
     * control message) knows the start before it comes.
     */
    public static final long LEAD_MS = 200;

    /** The rule in words (summary.json's {@code warmup.rule}, the guide). */
    public static final String RULE = String.format(Locale.ROOT,
            "steady when the mean throughput of the last %d intervals of %d ms is within %.0f%% of the %d before and varies"
            + " by at most %.0f%% (coefficient of variation) among them", HALF, BUCKET_MS, 100 * MAX_TREND, HALF, 100 * MAX_CV);

    /** The setting as resolved ({@code "auto"}, {@code "auto:N"}, or a number), or null for a fixed warm-up. */
    static AutoWarmup of(Object resolved) {
        if (!(resolved instanceof String s) || !s.startsWith(Param.AUTO)) return null;
        return new AutoWarmup(s.equals(Param.AUTO) ? DEFAULT_BOUND_MS : Double.parseDouble(s.substring(Param.AUTO.length() + 1)));
    }

    /**
     * The rule: true when the last {@code 2 x HALF} of {@code tps[0..n)} (each interval's throughput) show a mean over
     * the later half above zero, within {@link #MAX_TREND} of the earlier half's, with a coefficient of variation of
     * at most {@link #MAX_CV}. Fewer intervals: false.
     */
    public static boolean steady(double[] tps, int n) {
        if (n < 2 * HALF) return false;
        double before = 0, after = 0;
        for (int i = n - 2 * HALF; i < n - HALF; i++) before += tps[i];
        for (int i = n - HALF; i < n; i++) after += tps[i];
        before /= HALF;
        after /= HALF;
        if (after <= 0 || Math.abs(after - before) > MAX_TREND * after) return false;
        double var = 0;
        for (int i = n - HALF; i < n; i++) var += (tps[i] - after) * (tps[i] - after);
        return Math.sqrt(var / (HALF - 1)) <= MAX_CV * after;
    }
}
