package org.rccj.experiments.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** calibrate's verdict and flags: figures outside tolerance are named, negative logic costs explained. */
class VerdictsTest {
    private static Calibration.Figure f(String name, double measured, double sim) {
        return new Calibration.Figure(name, measured, sim, "us", "(check)", "");
    }

    @Test
    void calibrateSaysNoAndNamesTheWorstFigureOutsideTolerance() {
        List<Calibration.Figure> ok = List.of(f("READ 64 B round trip mean, both nodes issuing", 30, 31), f("RPC 64 B peak at node 0", 2, 1.9));
        assertTrue(Verdicts.calibrate("tcp", ok).startsWith("verdict: trust the sim's ranking of codes on tcp with this profile: yes, because"),
                Verdicts.calibrate("tcp", ok));
        List<Calibration.Figure> bad = List.of(f("READ 64 B round trip mean, both nodes issuing", 30, 31),
                f("READ 64 B round trip mean, own node", 0.5, 18), f("RPC 64 B round trip mean, own node", 0.2, 31.6),
                f("logic of tpcc/OrderStatus per transaction", -77.92, 0));
        String v = Verdicts.calibrate("tcp", bad);
        assertTrue(v.startsWith("verdict: trust the sim's ranking of codes on tcp with this profile: no, because 2 round-trip or peak figures"
                + " miss by more than 25% (worst: RPC 64 B round trip mean, own node, sim/real 158)"), v);
        assertEquals("OUTSIDE +-25% (sim/real 36.0)", Verdicts.flag(0.5, 18));
        assertEquals("", Verdicts.flag(30, 31));
        assertEquals("", Verdicts.flag(-77.92, 0), "a negative measurement is explained, not flagged");
    }

    @Test
    void aNegativeLogicCostIsWrittenAsZeroAndSaysWhy() {
        Calibration.Figure neg = Calibration.logicFigure("tpcc/OrderStatus", "logic_ns.tpcc.orderstatus", -77.92);
        assertEquals(0, neg.sim());
        assertTrue(neg.note().startsWith("(negative: below this measurement's resolution"), neg.note());
        assertEquals("", Calibration.logicFigure("tpcc/NewOrder", "logic_ns.tpcc.neworder", 812.4).note());
    }
}
