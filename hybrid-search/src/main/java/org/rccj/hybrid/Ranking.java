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
     * Whether the ranking has a winner. With several seeds the top code wins only when its 95% throughput CI
     * lies wholly above every other code's; otherwise {@code leaders} are the top code and every code whose CI
     * overlaps the top code's (a tie within noise), in rank order. With one seed nothing is known about noise:
     * {@code leaders} is the top code alone and {@code oneSeed} is set.
     */
    public record Verdict(List<CodeResult> leaders, boolean oneSeed) {
        /** True when the top code's CI separates from every other code's. */
        public boolean winner() { return !oneSeed && leaders.size() == 1; }

        public CodeResult top() { return leaders.get(0); }
    }

    /** The verdict on a ranking ({@link #rank} order); a code with fewer than two runs counts as one seed. */
    public static Verdict verdict(List<CodeResult> ranked) {
        if (ranked.isEmpty()) throw new IllegalArgumentException("nothing ranked");
        CodeResult top = ranked.get(0);
        boolean oneSeed = false;
        for (CodeResult c : ranked) oneSeed |= c.runs().size() < 2;
        if (oneSeed) return new Verdict(List.of(top), true);
        org.rccj.results.StudentT.Interval t = top.throughputInterval();
        double low = t.mean() - t.halfWidth();
        List<CodeResult> leaders = new ArrayList<>();
        leaders.add(top);
        for (CodeResult c : ranked.subList(1, ranked.size())) {
            org.rccj.results.StudentT.Interval i = c.throughputInterval();
            if (!(i.mean() + i.halfWidth() < low)) leaders.add(c);
        }
        return new Verdict(List.copyOf(leaders), false);
    }

    /**
     * The codes that bind one-sided a stage of {@code nicAtomicMask} (a stage posting NIC atomics, which pays loopback
     * atomics on incoherent NICs) and fall below {@code share} of their twin without those stages one-sided
     * ({@code code & ~nicAtomicMask}): a collapse that binding those stages causes, ascending.
     */
    public static java.util.Set<Integer> collapsed(Collection<CodeResult> codes, int nicAtomicMask, double share) {
        java.util.Map<Integer, CodeResult> byCode = new java.util.HashMap<>();
        for (CodeResult c : codes) byCode.put(c.code(), c);
        java.util.Set<Integer> out = new java.util.TreeSet<>();
        for (CodeResult c : codes) {
            if ((c.code() & nicAtomicMask) == 0) continue;
            CodeResult twin = byCode.get(c.code() & ~nicAtomicMask);
            if (twin != null && c.throughputTps() < share * twin.throughputTps()) out.add(c.code());
        }
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
