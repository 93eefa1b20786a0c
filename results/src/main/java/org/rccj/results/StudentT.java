package org.rccj.results;

/**
 * Student's t distribution: the two-sided 95% quantile used for confidence intervals over repeated
 * runs, computed (not tabulated) from the regularized incomplete beta function, so any number of
 * repetitions works. Deterministic: pure double arithmetic in a fixed order.
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
        if (p == 0.5) return 0;
        if (p < 0.5) return -quantile(1 - p, df);
        // bisection on the CDF: t in [0, hi]; cdf(t) = 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2
        double lo = 0, hi = 1;
        while (cdf(hi, df) < p) hi *= 2;
        for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
            double mid = (lo + hi) / 2;
            if (cdf(mid, df) < p) lo = mid; else hi = mid;
        }
        return (lo + hi) / 2;
    }

    /** P(T <= t) for t >= 0. */
    static double cdf(double t, int df) {
        double x = df / (df + t * t);
        return 1 - 0.5 * regularizedBeta(x, df / 2.0, 0.5);
    }

    /** I_x(a, b) by the continued fraction (Numerical Recipes' betacf), using symmetry for convergence. */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) return 0;
        if (x >= 1) return 1;
        double lnFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
        double front = Math.exp(lnFront);
        if (x < (a + 1) / (a + b + 2)) return front * betaFraction(x, a, b) / a;
        return 1 - front * betaFraction(1 - x, b, a) / b;
    }

    private static double betaFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        double qab = a + b, qap = a + 1, qam = a - 1;
        double c = 1, d = 1 - qab * x / qap;
        if (Math.abs(d) < tiny) d = tiny;
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 500; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) d = tiny;
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) c = tiny;
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            if (Math.abs(d) < tiny) d = tiny;
            c = 1 + aa / c;
            if (Math.abs(c) < tiny) c = tiny;
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-15) break;
        }
        return h;
    }

    /** ln Gamma(x) for x > 0 (Lanczos, g=7, n=9). */
    static double lnGamma(double x) {
        double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
                -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
        if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
        x -= 1;
        double a = g[0];
        double t = x + 7.5;
        for (int i = 1; i < 9; i++) a += g[i] / (x + i);
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
    }
}
