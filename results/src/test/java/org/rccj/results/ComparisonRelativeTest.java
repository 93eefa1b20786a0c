package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** rcc compare's relative column: a change across zero has no relative size. */
class ComparisonRelativeTest {
    @Test
    void aValueOfTheOtherSignThanTheBaseHasNoRelativeChange() {
        // README's compare at 10ebb0c: outside_stages_us_per_txn -0.086 -> +0.0851 printed "+199.0%"
        assertEquals("n/a", Comparison.relative(-0.086, Double.NaN, 0.0851, Double.NaN));
        assertEquals("n/a", Comparison.relative(0.5, Double.NaN, -0.1, Double.NaN));
        assertEquals("-60.0%", Comparison.relative(29.18, Double.NaN, 11.672, Double.NaN));
        assertEquals("+71.8%", Comparison.relative(-0.6692, Double.NaN, -0.1886, Double.NaN), "same sign: still relative");
        assertEquals("0.0%", Comparison.relative(0, Double.NaN, 0, Double.NaN));
    }
}
