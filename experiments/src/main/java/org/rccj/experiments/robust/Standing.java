package org.rccj.experiments.robust;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.rccj.hybrid.CodeResult;
import org.rccj.hybrid.Ranking;
import org.rccj.results.StudentT;

/**
 * The ranking of the top codes under one {@link Variant}: the winner, its margin over the runner-up with a 95%
 * confidence interval, the codes within noise of it, and how the base winner fares.
 *
 * <p>A code is "within noise" of the top code when the top code's margin over it (mean throughput ratio - 1) is below
 * {@link #MIN_MARGIN}, so that a difference of 0.1% is never a win however narrow the intervals, or when the margin's
 * 95% confidence interval reaches 0: the two codes' relative 95% half-widths over the seeds (Student t) added in
 * quadrature. With one seed only the floor applies (no interval is known).
 *
 * @param margin the top code's throughput over the runner-up's, minus 1 (0.05 = 5%)
 * @param marginHalfWidth 95% half-width of {@code margin} (NaN with one seed)
 * @param leaders the top code and every code within noise of it, in rank order
 * @param baseWinnerShortfall 1 - the base winner's throughput / the top code's (0 when it is the top code)
 */
public record Standing(Variant variant, List<CodeResult> ranked, double margin, double marginHalfWidth, List<CodeResult> leaders,
                       int baseWinner, boolean baseWinnerHolds, double baseWinnerShortfall) {
    /** Below this margin a code is never reported as beating another: 1%. */
    public static final double MIN_MARGIN = 0.01;

    public CodeResult top() { return ranked.get(0); }

    public CodeResult runnerUp() { return ranked.size() > 1 ? ranked.get(1) : null; }

    /** True when the runner-up is within noise of the top code (no clear winner). */
    public boolean tied() { return runnerUp() != null && leaders.contains(runnerUp()); }

    /** True when the base winner is no longer within noise of the top code: another code wins here. */
    public boolean flipped() { return !baseWinnerHolds; }

    /** The ranking of {@code results} (at least one code) with {@code baseWinner} the code that won under the base profile. */
    public static Standing of(Variant v, Collection<CodeResult> results, int baseWinner) {
        List<CodeResult> ranked = Ranking.rank(results);
        CodeResult top = ranked.get(0);
        List<CodeResult> leaders = new ArrayList<>();
        leaders.add(top);
        for (CodeResult c : ranked.subList(1, ranked.size())) if (withinNoise(top, c)) leaders.add(c);
        CodeResult next = ranked.size() > 1 ? ranked.get(1) : null;
        CodeResult bw = null;
        for (CodeResult c : ranked) if (c.code() == baseWinner) bw = c;
        boolean holds = bw != null && leaders.contains(bw);
        double shortfall = bw == null || top.throughputTps() <= 0 ? Double.NaN : 1 - bw.throughputTps() / top.throughputTps();
        return new Standing(v, List.copyOf(ranked), next == null ? Double.NaN : margin(top, next), next == null ? Double.NaN : halfWidth(top, next),
                List.copyOf(leaders), baseWinner, holds, shortfall);
    }

    /** Whether {@code c} is within noise of {@code top} (see the class comment). */
    public static boolean withinNoise(CodeResult top, CodeResult c) {
        double m = margin(top, c), hw = halfWidth(top, c);
        return m < MIN_MARGIN || (Double.isFinite(hw) && m - hw <= 0);
    }

    /** {@code a}'s mean throughput over {@code b}'s, minus 1. */
    public static double margin(CodeResult a, CodeResult b) { return a.throughputTps() / b.throughputTps() - 1; }

    /** The 95% half-width of {@link #margin}: the relative half-widths in quadrature, times the ratio (NaN with one seed). */
    public static double halfWidth(CodeResult a, CodeResult b) {
        StudentT.Interval x = a.throughputInterval(), y = b.throughputInterval();
        return x.mean() / y.mean() * Math.hypot(x.halfWidth() / x.mean(), y.halfWidth() / y.mean());
    }
}
