package org.rccj.hybrid;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rccj.results.RunMetrics;
import org.rccj.results.StudentT;

/**
 * The finished runs of one hybrid code (one per seed), with the means the search and the ranking use.
 * @param label the one-sided stage names joined by '+', "all-rpc" for code 0
 */
public record CodeResult(int code, String label, List<RunMetrics> runs) {
    public CodeResult {
        if (runs.isEmpty()) throw new IllegalArgumentException("code " + code + " has no runs");
        runs = List.copyOf(runs);
    }

    public static CodeResult of(List<RunMetrics> runs) {
        RunMetrics first = runs.get(0);
        return new CodeResult(first.code(), label(first.code(), first.onesided()), runs);
    }

    /** "all-rpc" for code 0, else the one-sided stage names joined by '+'. */
    public static String label(int code, List<String> onesided) {
        return code == 0 || onesided.isEmpty() ? "all-rpc" : String.join("+", onesided);
    }

    public String protocol() { return runs.get(0).protocol(); }

    public double throughputTps() {
        double s = 0;
        for (RunMetrics m : runs) s += m.throughputTps();
        return s / runs.size();
    }

    /** Mean throughput over the seeds and its 95% confidence half-width (Student t; NaN with one seed). */
    public StudentT.Interval throughputInterval() {
        double[] xs = new double[runs.size()];
        for (int i = 0; i < xs.length; i++) xs[i] = runs.get(i).throughputTps();
        return StudentT.interval95(xs);
    }

    /** Verification over the seeds. */
    public enum Verified {
        /** every run checked serializability and the invariants and passed */
        PASSED,
        /** some run's check failed */
        FAILED,
        /** some runs were checked (all passed), others not */
        PARTIAL,
        /** no run was checked ({@code verify: false}) */
        OFF;

        public String spelled() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    /** What the runs' verification found (summary.json's {@code verification}: serializable and every invariant). */
    public Verified verified() {
        int checked = 0;
        for (RunMetrics m : runs) {
            if (!m.verificationChecked()) continue;
            if (!m.verificationPassed()) return Verified.FAILED;
            checked++;
        }
        return checked == 0 ? Verified.OFF : checked == runs.size() ? Verified.PASSED : Verified.PARTIAL;
    }

    public double latencyUs() {
        double s = 0;
        for (RunMetrics m : runs) s += m.latencyMeanUs();
        return s / runs.size();
    }

    public double p99Us() {
        double s = 0;
        for (RunMetrics m : runs) s += m.latencyP99Us();
        return s / runs.size();
    }

    public double abortRate() {
        double s = 0;
        for (RunMetrics m : runs) s += m.abortRate();
        return s / runs.size();
    }

    /** Mean time per committed transaction in each stage, us (EXECUTE included when it ran). */
    public Map<String, Double> perCommitUs() {
        Map<String, Double> out = new TreeMap<>();
        for (RunMetrics m : runs) {
            for (Map.Entry<String, RunMetrics.StageFigures> e : m.stages().entrySet()) {
                out.merge(e.getKey(), e.getValue().perCommitUs(m.commits()) / runs.size(), Double::sum);
            }
        }
        return out;
    }
}
