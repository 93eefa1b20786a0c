package org.rccj.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rccj.framework.api.Stage;

class GuidedModelTest {
    static final List<Stage> S = Synthetic.OCC_LIKE;
    /** READ+LOCK+VALIDATE: the stages whose one-sided cost is below the RPC cost in {@link Synthetic#additive}. */
    static final int WINNER = 2 | 1 | 32;

    static Map<Integer, CodeResult> only(Map<Integer, CodeResult> all, List<Integer> codes) {
        Map<Integer, CodeResult> m = new HashMap<>();
        for (int c : codes) m.put(c, all.get(c));
        return m;
    }

    @Test
    void probes() {
        assertEquals(List.of(0, 63), GuidedModel.probes(S, GuidedModel.Probes.PURE));
        List<Integer> flips = GuidedModel.probes(S, GuidedModel.Probes.FLIPS);
        assertEquals(14, flips.size(), "2 + 2 x 6");
        assertTrue(flips.containsAll(List.of(0, 63, 1, 2, 4, 8, 16, 32, 62, 61, 59, 55, 47, 31)));
        assertEquals(GuidedModel.Probes.FLIPS, GuidedModel.Probes.parse(" Flips "));
        assertEquals(null, GuidedModel.Probes.parse("some"));
    }

    @Test
    void pureModelIsExactForAdditiveStageCosts() {
        Map<Integer, CodeResult> all = Synthetic.all(S, Synthetic::additive, 1.0);
        List<GuidedModel.Prediction> p = GuidedModel.predict(S, only(all, List.of(0, 63)), GuidedModel.Probes.PURE);
        assertEquals(64, p.size());
        for (GuidedModel.Prediction pr : p) {
            assertEquals(all.get(pr.code()).latencyUs(), pr.latencyUs(), 1e-9, "code " + pr.code());
            assertEquals(all.get(pr.code()).throughputTps(), pr.throughputTps(), 1e-6 * pr.throughputTps(), "Little's law, code " + pr.code());
        }
        assertEquals(WINNER, p.get(0).code(), "ranked by predicted latency");
        for (int i = 1; i < p.size(); i++) assertTrue(p.get(i - 1).latencyUs() <= p.get(i).latencyUs());
        assertEquals(List.of(WINNER), GuidedModel.selection(S, only(all, List.of(0, 63)), GuidedModel.Probes.PURE, 1));
        List<Integer> five = GuidedModel.selection(S, only(all, List.of(0, 63)), GuidedModel.Probes.PURE, 5);
        assertEquals(5, five.size());
        assertFalse(five.contains(0) || five.contains(63), "probes are not chosen again");
        // at most one code per predicted latency (the additive costs give few distinct sums; both probes take 15 + 1 us)
        java.util.Set<Double> distinct = new java.util.HashSet<>();
        for (GuidedModel.Prediction pr : p) distinct.add(pr.latencyUs());
        assertEquals(all.get(0).latencyUs(), all.get(63).latencyUs(), 1e-12);
        assertEquals(distinct.size() - 1, GuidedModel.selection(S, only(all, List.of(0, 63)), GuidedModel.Probes.PURE, 1000).size());
    }

    @Test
    void twinsThatDifferOnlyInAStageThatNeverRanAreMeasuredOnce() {
        // RELEASE never runs: codes c and c | RELEASE behave alike, and the budget goes to six different codes
        int r = Stage.RELEASE.bit, rest = Stage.mask(S) & ~r;
        java.util.function.ToDoubleBiFunction<Stage, Integer> cost = (s, c) -> s == Stage.RELEASE ? 0 : Synthetic.additive(s, c);
        Map<Integer, CodeResult> all = Synthetic.all(S, cost, 1.0);
        for (GuidedModel.Probes probes : GuidedModel.Probes.values()) {
            Map<Integer, CodeResult> measured = only(all, GuidedModel.probes(S, probes));
            List<GuidedModel.Prediction> p = GuidedModel.predict(S, measured, probes);
            Map<Integer, Double> byCode = new java.util.HashMap<>();
            for (GuidedModel.Prediction pr : p) byCode.put(pr.code(), pr.latencyUs());
            for (int c : byCode.keySet()) assertEquals(byCode.get(c & rest), byCode.get(c | r), probes + ": twins " + (c & rest) + " and " + (c | r));
            List<Integer> chosen = GuidedModel.selection(S, measured, probes, 6);
            assertEquals(6, chosen.size());
            java.util.Set<Integer> kinds = new java.util.HashSet<>();
            for (int c : GuidedModel.probes(S, probes)) kinds.add(c & rest);
            for (int c : chosen) assertTrue(kinds.add(c & rest), probes + ": code " + c + " is a twin of one measured or chosen: " + chosen);
        }
    }

    @Test
    void flipsModelIsExactForAdditiveLatencies() {
        Map<Integer, CodeResult> all = Synthetic.all(S, Synthetic::additive, 1.0);
        Map<Integer, CodeResult> probes = only(all, GuidedModel.probes(S, GuidedModel.Probes.FLIPS));
        for (GuidedModel.Prediction pr : GuidedModel.predict(S, probes, GuidedModel.Probes.FLIPS)) {
            assertEquals(all.get(pr.code()).latencyUs(), pr.latencyUs(), 1e-9, "code " + pr.code());
        }
        assertThrows(IllegalArgumentException.class, () -> GuidedModel.predict(S, only(all, List.of(0, 63)), GuidedModel.Probes.FLIPS),
                "flip probes missing");
    }

    @Test
    void interactionsMislead() {
        // RPC stages get slower the more stages use RPC (the remote CPUs that serve them are busier); the pure
        // all-rpc run then overstates every RPC stage. The pure model still predicts the probes exactly.
        Map<Integer, CodeResult> all = Synthetic.all(S, (s, code) -> (code & s.bit) != 0 ? 1 + 0.6 * S.indexOf(s)
                : 1.0 + 0.4 * (6 - Integer.bitCount(code)), 1.0);
        List<GuidedModel.Prediction> p = GuidedModel.predict(S, only(all, List.of(0, 63)), GuidedModel.Probes.PURE);
        for (GuidedModel.Prediction pr : p) {
            if (pr.code() == 0 || pr.code() == 63) assertEquals(all.get(pr.code()).latencyUs(), pr.latencyUs(), 1e-9);
        }
        double worst = 0;
        for (GuidedModel.Prediction pr : p) worst = Math.max(worst, Math.abs(pr.latencyUs() - all.get(pr.code()).latencyUs()));
        assertTrue(worst > 0.5, "the additive model is off for hybrids: " + worst);
    }

    @Test
    void replayOnExhaustiveResults() {
        Map<Integer, CodeResult> all = Synthetic.all(S, Synthetic::additive, 1.0);
        GuidedEvaluation.Outcome o = GuidedEvaluation.replay(S, all, GuidedModel.Probes.PURE, 1);
        assertEquals(3, o.runs());
        assertEquals(WINNER, o.winner().code());
        assertTrue(o.exact() && o.withinTolerance());
        assertEquals(0, o.shortfall(), 1e-12);
        GuidedEvaluation.Outcome none = GuidedEvaluation.replay(S, all, GuidedModel.Probes.PURE, 0);
        assertEquals(2, none.runs());
        assertFalse(none.exact(), "the probes alone do not contain the winner");
        assertTrue(none.shortfall() > 0.02, "and the better probe is more than 2% worse: " + none.shortfall());
        GuidedEvaluation.Needed n = GuidedEvaluation.needed(S, all, GuidedModel.Probes.PURE);
        assertEquals(3, n.exact());
        assertEquals(3, n.withinTolerance());
        assertEquals(64, n.total());
        GuidedEvaluation.Needed f = GuidedEvaluation.needed(S, all, GuidedModel.Probes.FLIPS);
        assertEquals(15, f.exact(), "14 probes + 1");
    }

    @Test
    void rankingAndGain() {
        Map<Integer, CodeResult> all = Synthetic.all(S, Synthetic::additive, 1.0);
        List<CodeResult> ranked = Ranking.rank(all.values());
        assertEquals(WINNER, ranked.get(0).code());
        for (int i = 1; i < ranked.size(); i++) assertTrue(ranked.get(i - 1).throughputTps() >= ranked.get(i).throughputTps());
        CodeResult best = ranked.get(0), rpc = all.get(0), os = all.get(63);
        double expected = best.throughputTps() / Math.max(rpc.throughputTps(), os.throughputTps()) - 1;
        assertEquals(expected, Ranking.gainOverPure(best, rpc, os), 1e-12);
        assertTrue(expected > 0);
        assertTrue(Double.isNaN(Ranking.gainOverPure(best, null, os)));
    }
}
