package org.rccj.fabrics.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.fabrics.bench.PrimitiveBench.Pattern;
import org.rccj.fabrics.bench.PrimitiveBench.Scenario;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Verb;

/** The calibration report (rcc bench): every fitted primitive figure stays within its stated tolerance. */
class CalibrationReportTest {
    @Test
    void cx4EdrFittedFiguresWithinTolerance() {
        List<CalibrationReport.Row> rows = CalibrationReport.measure(CostProfile.load("cx4-edr"));
        assertTrue(rows.stream().filter(CalibrationReport.Row::checked).count() >= 12, "too few fitted figures");
        for (CalibrationReport.Row r : rows) {
            assertTrue(r.ok(), r.figure() + " = " + r.simText() + ", tolerance " + r.toleranceText());
        }
    }

    /** cx6-hdr is cx4-edr's NIC scaled by the vendors' message rates (215 / 150 M/s): its peaks must say so. */
    @Test
    void cx6HdrPeaksFollowTheVendorMessageRates() {
        CostProfile p = CostProfile.load("cx6-hdr");
        double scale = 215.0 / 150.0;
        double[][] expect = {{86.9 * scale}, {130 * scale}, {48 * scale}};
        Verb[] verbs = {Verb.READ, Verb.WRITE, Verb.CAS};
        for (int i = 0; i < verbs.length; i++) {
            double mops = PrimitiveBench.run(p, new Scenario("peak", verbs[i], verbs[i] == Verb.CAS ? 8 : 64, 8, 24, 8, 1, false, false,
                    Pattern.TO_NODE0)).mopsPerMachine();
            assertEquals(expect[i][0], mops, expect[i][0] * 0.05, verbs[i] + " peak");
        }
    }
}
