package org.rccj.cli.robust;

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
 * <p>"Within noise" of the top code: the code's 95% throughput CI overlaps the top code's ({@link Ranking#verdict},
 * as {@code rcc enumerate} ranks), or it is less than {@link #MIN_MARGIN} below the top code, so a difference of
 * 0.1% is never a win however narrow the intervals. With one seed only the floor applies (no interval is known).
 *
 * @param margin the top code's throughput over the runner-up's, minus 1 (0.05 = 5%)
 * @param marginHalfWidth 95% half-width of {@code margin} (the two codes' relative half-widths in quadrature; NaN
 *                        with one seed)
 * @param leaders the top code and every code within noise of it, in rank order
 * @param baseWinnerShortfall 1 - the base winner's throughput / the top code's (0 when it is the top code)
 */
public record Standing(Variant variant, List<CodeResult> ranked, double margin, double marginHalfWidth, List<CodeResult> leaders,
                       int baseWinner, boolean baseWinnerHolds, double baseWinnerShortfall) {
    /** Below this margin a code is never reported as beating another: 1%. */
    public static final double MIN_MARGIN = 0.01;

    public CodeResult top() { return ranked.get(0); }

    public CodeResult runnerUp() { return ranked.size() > 1 ? ranked.get(1) : null; }

    /** True when the top code is not clear of the runner-up (a tie within noise). */
    public boolean tied() { return leaders.size() > 1; }

    /** True when the base winner is no longer within noise of the top code: another code wins here. */
    public boolean flipped() { return !baseWinnerHolds; }

    /** The ranking of {@code results} (at least one code) with {@code baseWinner} the code that won under the base profile. */
    public static Standing of(Variant v, Collection<CodeResult> results, int baseWinner) {
        List<CodeResult> ranked = Ranking.rank(results);
        CodeResult top = ranked.get(0);
        Ranking.Verdict verdict = Ranking.verdict(ranked);
        List<CodeResult> leaders = new ArrayList<>();
        leaders.add(top);
        for (CodeResult c : ranked.subList(1, ranked.size())) {
            if (verdict.leaders().contains(c) || c.throughputTps() >= (1 - MIN_MARGIN) * top.throughputTps()) leaders.add(c);
        }
        double margin = Double.NaN, hw = Double.NaN;
        if (ranked.size() > 1) {
            CodeResult next = ranked.get(1);
            margin = top.throughputTps() / next.throughputTps() - 1;
            StudentT.Interval a = top.throughputInterval(), b = next.throughputInterval();
            hw = (1 + margin) * Math.hypot(a.halfWidth() / a.mean(), b.halfWidth() / b.mean());
        }
        CodeResult bw = null;
        for (CodeResult c : ranked) if (c.code() == baseWinner) bw = c;
        boolean holds = bw != null && leaders.contains(bw);
        double shortfall = bw == null || top.throughputTps() <= 0 ? Double.NaN : 1 - bw.throughputTps() / top.throughputTps();
        return new Standing(v, List.copyOf(ranked), margin, hw, List.copyOf(leaders), baseWinner, holds, shortfall);
    }
}
