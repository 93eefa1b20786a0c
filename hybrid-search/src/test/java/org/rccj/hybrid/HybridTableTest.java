package org.rccj.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rccj.results.RunMetrics;

class HybridTableTest {
    @Test
    void rowsSortedByCodeWhateverTheInputOrder() {
        List<RunMetrics> runs = new ArrayList<>();
        for (int code = 0; code < 64; code++) {
            for (long seed = 1; seed <= 2; seed++) {
                final long sd = seed;
                runs.add(Synthetic.run(code, Synthetic.OCC_LIKE, (s, c) -> Synthetic.additive(s, c) + 0.1 * sd, 1.0, seed));
            }
        }
        String csv = HybridTable.csv(HybridTable.byCode(runs));
        List<RunMetrics> shuffled = new ArrayList<>(runs);
        Collections.shuffle(shuffled, new Random(7));
        assertEquals(csv, HybridTable.csv(HybridTable.byCode(shuffled)), "byte for byte");
        List<String> lines = csv.lines().toList();
        assertEquals(65, lines.size());
        assertTrue(lines.get(0).startsWith("code,onesided,loopback,verified,protocol,workload,runs,throughput_tps,throughput_tps_ci95,"), lines.get(0));
        assertTrue(lines.get(1).startsWith("0,all-rpc,?,off,proto,wl,2,"), lines.get(1));
        assertTrue(lines.get(19).startsWith("18,READ+COMMIT,?,off,proto,wl,2,"), lines.get(19));
        assertTrue(lines.get(64).startsWith("63,READ+LOCK+VALIDATE+LOG+COMMIT+RELEASE,?,off,proto,wl,2,"), lines.get(64));
        List<CodeResult> groups = HybridTable.byCode(shuffled);
        assertEquals(1, groups.get(5).runs().get(0).seed(), "seeds ascending within a code");
    }
}
