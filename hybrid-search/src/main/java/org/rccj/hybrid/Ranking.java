package org.rccj.hybrid;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** Hybrid codes ranked by throughput (highest first; ties by lower latency, then code) and the winner's gain. */
public final class Ranking {
    private Ranking() {}

    public static final Comparator<CodeResult> BEST_FIRST = Comparator.comparingDouble(CodeResult::throughputTps).reversed()
            .thenComparingDouble(CodeResult::latencyUs).thenComparingInt(CodeResult::code);

    public static List<CodeResult> rank(Collection<CodeResult> results) {
        List<CodeResult> out = new ArrayList<>(results);
        out.sort(BEST_FIRST);
        return out;
    }

    /**
     * The best code's throughput gain over the better of the two pure codes, as a fraction (0.12 = 12%);
     * NaN when a pure code is missing.
     */
    public static double gainOverPure(CodeResult best, CodeResult allRpc, CodeResult allOneSided) {
        if (best == null || allRpc == null || allOneSided == null) return Double.NaN;
        double pure = Math.max(allRpc.throughputTps(), allOneSided.throughputTps());
        return pure <= 0 ? Double.NaN : best.throughputTps() / pure - 1;
    }
}
