package org.rccj.protocols.hades;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * False-positive rates of HADES's two filter shapes with n random lines inserted, measured and in theory,
 * next to the paper's Table IV. {@code java -cp ... org.rccj.protocols.hades.FilterRates} prints a CSV.
 */
public final class FilterRates {
    static final int[] LINES = {10, 20, 50, 100};
    /** Table IV of the paper, percent: 1 Kbit, then 512 b + 4 Kbit. */
    static final double[][] PAPER = {{0.04, 0.138, 0.877, 3.26}, {0.003, 0.022, 0.093, 0.439}};

    private FilterRates() {}

    /** Measured false-positive rate of a filter shape with {@code n} random lines, over {@code filters x probes} probes. */
    static double measured(int bits, int hashes, int indexBits, int n, int filters, int probes, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        long hits = 0;
        Bloom b = new Bloom(bits, hashes, indexBits);
        LineSet in = new LineSet();
        for (int f = 0; f < filters; f++) {
            b.clear();
            in.clear();
            while (in.size() < n) {
                long l = rng.nextLong(1L << 40);
                if (in.add(l)) b.add(l);
            }
            for (int p = 0; p < probes; p++) {
                long l = rng.nextLong(1L << 40);
                if (!in.contains(l) && b.mightContain(l)) hits++;
            }
        }
        return hits / (double) filters / probes;
    }

    static double theory(int bits, int hashes, int indexBits, int n) {
        double main = Math.pow(1 - Math.exp(-hashes * (double) n / bits), hashes);
        return indexBits > 0 ? main * (1 - Math.exp(-(double) n / indexBits)) : main;
    }

    public static void main(String[] args) {
        int filters = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        System.out.println("filter,lines,measured_pct,theory_pct,paper_pct");
        String[] names = {"1Kbit_k2", "512b+4Kbit"};
        int[][] shapes = {{1024, 2, 0}, {512, 1, 4096}};
        for (int s = 0; s < 2; s++) {
            for (int i = 0; i < LINES.length; i++) {
                int n = LINES[i];
                double m = measured(shapes[s][0], shapes[s][1], shapes[s][2], n, filters, 2000, 42 + i);
                double t = theory(shapes[s][0], shapes[s][1], shapes[s][2], n);
                System.out.println(String.format(Locale.ROOT, "%s,%d,%.4f,%.4f,%.4f", names[s], n, 100 * m, 100 * t, PAPER[s][i]));
            }
        }
    }
}
