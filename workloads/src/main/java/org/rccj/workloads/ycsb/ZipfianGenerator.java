package org.rccj.workloads.ycsb;

import java.util.SplittableRandom;

/**
 * Zipfian ranks in {@code [0, n)}: rank {@code r} is drawn with probability {@code 1 / ((r + 1)^theta * zeta(n, theta))}.
 * The algorithm of Gray et al., "Quickly generating billion-record synthetic databases" (SIGMOD 1994), as
 * YCSB's {@code ZipfianGenerator} uses it: zeta(n) is summed once here (O(n)), then each draw costs one
 * uniform number and one {@code pow}. Immutable after construction, so one instance serves every coroutine
 * (also across threads on the {@code local} fabric); randomness comes only from the caller's {@code rng}.
 */
final class ZipfianGenerator {
    final long n;
    final double theta;
    private final double zetan, alpha, eta, firstTwo;

    ZipfianGenerator(long n, double theta) {
        if (n < 1) throw new IllegalArgumentException("zipfian over " + n + " items");
        if (!(theta >= 0 && theta < 1)) throw new IllegalArgumentException("zipfian theta " + theta + " is not in [0, 1)");
        this.n = n;
        this.theta = theta;
        this.zetan = zeta(n, theta);
        this.alpha = 1.0 / (1.0 - theta);
        double zeta2 = zeta(Math.min(n, 2), theta);
        // with n <= 2 the two shortcuts below cover every draw and eta is never used
        this.eta = n > 2 ? (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan) : 0;
        this.firstTwo = 1 + Math.pow(0.5, theta);
    }

    /** sum over i = 1..n of 1 / i^theta. */
    static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) sum += 1.0 / Math.pow(i, theta);
        return sum;
    }

    /** Probability of rank {@code r} (tests). */
    double probability(long r) { return 1.0 / (Math.pow(r + 1, theta) * zetan); }

    long next(SplittableRandom rng) {
        double u = rng.nextDouble();
        double uz = u * zetan;
        if (uz < 1) return 0;
        if (uz < firstTwo) return Math.min(1, n - 1);
        long r = (long) (n * Math.pow(eta * u - eta + 1, alpha));
        return Math.min(Math.max(r, 0), n - 1);
    }
}
