package org.rccj.results;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Confidence intervals over repeated runs: the mean and the half-width of its two-sided 95% interval,
 * with Student's t quantiles from Apache Commons Statistics ({@link TDistribution}). Deterministic:
 * pure double arithmetic in a fixed order.
 */
public final class StudentT {
    private StudentT() {}

    /** Mean and 95% confidence half-width (Student t, n-1 degrees of freedom); half-width NaN for n < 2. */
    public record Interval(double mean, double halfWidth, int n) {}

    /** The mean of {@code xs} (in the given order) and its 95% confidence interval. NaN values are skipped. */
    public static Interval interval95(double[] xs) {
        int n = 0;
        double sum = 0;
        for (double x : xs) {
            if (Double.isNaN(x)) continue;
            n++;
            sum += x;
        }
        if (n == 0) return new Interval(Double.NaN, Double.NaN, 0);
        double mean = sum / n;
        if (n < 2) return new Interval(mean, Double.NaN, n);
        double ss = 0;
        for (double x : xs) {
            if (Double.isNaN(x)) continue;
            ss += (x - mean) * (x - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        return new Interval(mean, quantile(0.975, n - 1) * sd / Math.sqrt(n), n);
    }

    /** The p-quantile (0 < p < 1) of Student's t with {@code df} degrees of freedom (df >= 1). */
    public static double quantile(double p, int df) {
        if (!(p > 0 && p < 1)) throw new IllegalArgumentException("p must be in (0, 1): " + p);
        if (df < 1) throw new IllegalArgumentException("degrees of freedom must be >= 1: " + df);
        return TDistribution.of(df).inverseCumulativeProbability(p);
    }
}
