package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StudentTTest {
    @Test
    void quantilesMatchTables() {
        // two-sided 95% critical values of Student's t (any statistics table)
        double[][] table = {{1, 12.7062}, {2, 4.3027}, {3, 3.1824}, {4, 2.7764}, {9, 2.2622}, {19, 2.0930}, {29, 2.0452}, {120, 1.9799}};
        for (double[] row : table) {
            assertEquals(row[1], StudentT.quantile(0.975, (int) row[0]), 5e-4, "df " + (int) row[0]);
        }
        assertEquals(1.95996, StudentT.quantile(0.975, 100_000), 1e-3, "tends to the normal quantile");
        assertEquals(-StudentT.quantile(0.975, 5), StudentT.quantile(0.025, 5), 1e-12, "symmetric");
        assertEquals(0, StudentT.quantile(0.5, 7), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> StudentT.quantile(1.0, 3));
        assertThrows(IllegalArgumentException.class, () -> StudentT.quantile(0.9, 0));
    }

    @Test
    void intervalOfSamples() {
        StudentT.Interval iv = StudentT.interval95(new double[] {1, 2, 3});
        assertEquals(2, iv.mean(), 1e-12);
        assertEquals(4.3027 / Math.sqrt(3), iv.halfWidth(), 1e-3, "sd 1, n 3");
        assertEquals(3, iv.n());

        StudentT.Interval one = StudentT.interval95(new double[] {5});
        assertEquals(5, one.mean());
        assertTrue(Double.isNaN(one.halfWidth()), "no interval from one sample");

        StudentT.Interval same = StudentT.interval95(new double[] {4, 4, 4, 4});
        assertEquals(0, same.halfWidth(), 1e-12);

        StudentT.Interval nan = StudentT.interval95(new double[] {Double.NaN, 2, 4});
        assertEquals(3, nan.mean(), 1e-12, "NaN skipped");
        assertEquals(2, nan.n());
    }
}
