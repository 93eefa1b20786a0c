package org.rccj.hybrid;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rccj.results.RunMetrics;

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

    public double throughputTps() {
        double s = 0;
        for (RunMetrics m : runs) s += m.throughputTps();
        return s / runs.size();
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
