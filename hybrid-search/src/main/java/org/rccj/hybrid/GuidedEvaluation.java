package org.rccj.hybrid;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;

/**
 * How well {@link GuidedModel} would have done on a complete (exhaustive) enumeration: it replays the
 * guided search with the exhaustive results standing in for runs (on the sim fabric the same config and
 * seed give the same result, so the replay is exactly what a guided run would have measured).
 */
public final class GuidedEvaluation {
    /** Share of the winner's throughput within which a code counts as "as good": 2%. */
    public static final double TOLERANCE = 0.02;

    /**
     * One replay: {@code runs} = probes + budget measured; {@code found} the best code guided measured.
     * @param shortfall 1 - found's throughput / the exhaustive winner's (0 when it found the winner)
     */
    public record Outcome(GuidedModel.Probes probes, int budget, int runs, CodeResult found, CodeResult winner, double shortfall) {
        public boolean exact() { return found.code() == winner.code(); }
        public boolean withinTolerance() { return shortfall <= TOLERANCE + 1e-12; }
    }

    /** Runs needed until guided finds the winner exactly and within {@link #TOLERANCE}. */
    public record Needed(GuidedModel.Probes probes, int exact, int withinTolerance, int total) {}

    private GuidedEvaluation() {}

    /** Replays guided search with {@code budget} codes after the probes. @param all every code's result */
    public static Outcome replay(List<Stage> stages, Map<Integer, CodeResult> all, GuidedModel.Probes p, int budget) {
        CodeResult winner = Ranking.rank(all.values()).get(0);
        Map<Integer, CodeResult> probeResults = new HashMap<>();
        for (int c : GuidedModel.probes(stages, p)) probeResults.put(c, need(all, c));
        List<CodeResult> measured = new ArrayList<>(probeResults.values());
        for (int c : GuidedModel.selection(stages, probeResults, p, budget)) measured.add(need(all, c));
        CodeResult found = Ranking.rank(measured).get(0);
        double shortfall = winner.throughputTps() <= 0 ? 0 : 1 - found.throughputTps() / winner.throughputTps();
        return new Outcome(p, budget, measured.size(), found, winner, Math.max(0, shortfall));
    }

    /** The fewest runs (probes + budget) with which guided search finds the winner, exactly and within 2%. */
    public static Needed needed(List<Stage> stages, Map<Integer, CodeResult> all, GuidedModel.Probes p) {
        int probes = GuidedModel.probes(stages, p).size();
        int total = 1 << stages.size();
        int exact = -1, within = -1;
        for (int b = 0; b + probes <= total && (exact < 0 || within < 0); b++) {
            Outcome o = replay(stages, all, p, b);
            if (within < 0 && o.withinTolerance()) within = o.runs();
            if (exact < 0 && o.exact()) exact = o.runs();
        }
        return new Needed(p, exact, within, total);
    }

    private static CodeResult need(Map<Integer, CodeResult> all, int code) {
        CodeResult r = all.get(code);
        if (r == null) throw new IllegalArgumentException("code " + code + " is missing from the exhaustive results");
        return r;
    }
}
