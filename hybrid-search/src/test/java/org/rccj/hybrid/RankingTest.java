package org.rccj.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.framework.api.Stage;
import org.rccj.results.RunMetrics;

/** A winner is claimed only when its 95% CI separates from the next code's. */
class RankingTest {
    private static final List<Stage> TWO = List.of(Stage.READ, Stage.LOCK);

    /** A code whose runs have latency {@code base} + {@code spread} x (seed - 2) us for seeds 1..n. */
    private static CodeResult code(int code, double base, double spread, int seeds) {
        List<RunMetrics> runs = new ArrayList<>();
        for (int s = 1; s <= seeds; s++) {
            double lat = base + spread * (s - 2);
            runs.add(Synthetic.run(code, TWO, (st, c) -> st == Stage.READ ? lat - 1 : 0.5, 0.5, s));
        }
        return CodeResult.of(runs);
    }

    @Test
    void overlappingIntervalsAreATieInRankOrder() {
        // 10 us +- noise, 10.1 us +- noise: the CIs overlap; 14 us is clear of both
        List<CodeResult> ranked = Ranking.rank(List.of(code(1, 10.1, 0.3, 3), code(3, 14, 0.3, 3), code(2, 10, 0.3, 3)));
        Ranking.Verdict v = Ranking.verdict(ranked);
        assertFalse(v.winner());
        assertFalse(v.oneSeed());
        assertEquals(List.of(2, 1), v.leaders().stream().map(CodeResult::code).toList());
    }

    @Test
    void separatedIntervalsNameAWinner() {
        List<CodeResult> ranked = Ranking.rank(List.of(code(1, 12, 0.1, 3), code(2, 10, 0.1, 3), code(3, 14, 0.1, 3)));
        Ranking.Verdict v = Ranking.verdict(ranked);
        assertTrue(v.winner());
        assertEquals(2, v.top().code());
        assertEquals(1, v.leaders().size());
    }

    @Test
    void codesCollapsedByLoopbackAtomicsAreNamed() {
        // bit 1 posts NIC atomics: code 3 falls to 40% of its twin 2, code 1 stays close to its twin 0
        List<CodeResult> codes = List.of(code(0, 10, 0, 1), code(1, 10.5, 0, 1), code(2, 9, 0, 1), code(3, 22.5, 0, 1));
        assertEquals(java.util.Set.of(3), Ranking.collapsed(codes, 1, 0.8));
        assertEquals(java.util.Set.of(), Ranking.collapsed(codes, 0, 0.8), "no NIC-atomic stage: nothing collapses");
        assertEquals(java.util.Set.of(), Ranking.collapsed(List.of(codes.get(3)), 1, 0.8), "no twin to compare with");
    }

    @Test
    void oneSeedNeverClaimsAWinner() {
        List<CodeResult> ranked = Ranking.rank(List.of(code(1, 12, 0, 1), code(2, 10, 0, 1)));
        Ranking.Verdict v = Ranking.verdict(ranked);
        assertTrue(v.oneSeed());
        assertFalse(v.winner());
        assertEquals(2, v.top().code());
    }

    @Test
    void verificationOverTheSeeds() {
        CodeResult off = code(1, 10, 0, 2);
        assertEquals(CodeResult.Verified.OFF, off.verified());
        RunMetrics a = off.runs().get(0), b = off.runs().get(1);
        RunMetrics passed = withVerification(a, true, true), failed = withVerification(b, true, false);
        assertEquals(CodeResult.Verified.PASSED, CodeResult.of(List.of(passed, withVerification(b, true, true))).verified());
        assertEquals(CodeResult.Verified.FAILED, CodeResult.of(List.of(passed, failed)).verified());
        assertEquals(CodeResult.Verified.PARTIAL, CodeResult.of(List.of(passed, b)).verified());
        String csv = HybridTable.csv(List.of(CodeResult.of(List.of(passed, failed))));
        assertTrue(csv.startsWith("code,onesided,loopback,verified,protocol,workload,runs,"), csv);
        String row = csv.lines().skip(1).findFirst().orElseThrow();
        assertTrue(row.startsWith("1,LOCK,?,failed,proto,wl,2,"), row);
    }

    private static RunMetrics withVerification(RunMetrics m, boolean checked, boolean passed) {
        return m.toBuilder().verificationChecked(checked).verificationPassed(passed)
                .latencyP95Us(Double.NaN).warnings(java.util.List.of()).outsideParts(java.util.Map.of()).build();
    }
}
