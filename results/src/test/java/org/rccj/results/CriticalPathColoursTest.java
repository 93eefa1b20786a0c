package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.primitives.CriticalPath;

/** Issue 42 item 7: the critical-path figure's palette tells every term apart (no near-identical greys). */
class CriticalPathColoursTest {
    @Test
    void everyTermHasItsOwnDistinctColour() {
        List<Color> cs = new ArrayList<>();
        for (CriticalPath.Term t : CriticalPath.TERMS) cs.add(ChartStyle.stageColour(CriticalPathFigure.label(t.key())));
        assertEquals(CriticalPath.COUNT, cs.size());
        int greys = 0;
        for (int i = 0; i < cs.size(); i++) {
            Color a = cs.get(i);
            int spread = Math.max(a.getRed(), Math.max(a.getGreen(), a.getBlue())) - Math.min(a.getRed(), Math.min(a.getGreen(), a.getBlue()));
            if (spread < 40) greys++;
            for (int j = i + 1; j < cs.size(); j++) {
                Color b = cs.get(j);
                double d = Math.sqrt(Math.pow(a.getRed() - b.getRed(), 2) + Math.pow(a.getGreen() - b.getGreen(), 2) + Math.pow(a.getBlue() - b.getBlue(), 2));
                assertTrue(d >= 45, CriticalPath.TERMS.get(i).key() + " and " + CriticalPath.TERMS.get(j).key() + " look alike: " + a + " " + b);
            }
        }
        assertTrue(greys <= 2, greys + " greys");
    }
}
