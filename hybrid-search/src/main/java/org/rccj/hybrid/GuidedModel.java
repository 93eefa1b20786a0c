package org.rccj.hybrid;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.rccj.framework.api.Stage;
import org.rccj.framework.spi.HybridCode;

/**
 * Guided search (enumerate --strategy guided): predicts every hybrid code's latency from a few measured
 * codes (the probes), so that only the most promising codes need to be run.
 *
 * <ul>
 * <li>{@link Probes#PURE} measures all-rpc and all-onesided (2 runs) and models a code stage by stage: each
 *     stage costs what it cost per committed transaction in the pure run of its mode (one-sided stages as in
 *     all-onesided, RPC stages as in all-rpc), plus the time outside the stages (execution, back-off),
 *     interpolated between the two pure runs by the share of one-sided stages.
 * <li>{@link Probes#FLIPS} also measures every single-stage flip of both pure codes (2 + 2n runs for n
 *     stages) and predicts additively from each end: from all-rpc, latency(all-rpc) plus the measured change
 *     of flipping each of the code's one-sided stages; from all-onesided likewise with its RPC stages; the two
 *     are weighted by how close the code is to each end. This captures interactions the pure model misses
 *     (fewer RPC stages also unload the remote CPUs that serve the others).
 * </ul>
 * Throughput is predicted by Little's law from the predicted latency, with the effective concurrency
 * (throughput x latency) of the probes; ranking is by predicted latency.
 *
 * <p>A stage that ran in none of the probes (e.g. RELEASE on a workload that never aborts) cannot matter: both
 * models leave it out (it neither costs nor counts towards the share of one-sided stages), so codes differing
 * only in such stages are twins with one prediction, and {@link #selection} never spends budget on a code whose
 * prediction equals that of a code already measured or chosen.
 */
public final class GuidedModel {
    /** Which codes to measure first. */
    public enum Probes {
        PURE, FLIPS;

        public String spelled() { return name().toLowerCase(Locale.ROOT); }

        public static Probes parse(String s) {
            for (Probes p : values()) if (p.spelled().equalsIgnoreCase(s == null ? "" : s.strip())) return p;
            return null;
        }
    }

    /** A predicted code: mean latency (us) and throughput (txns/s). */
    public record Prediction(int code, double latencyUs, double throughputTps) {}

    private GuidedModel() {}

    /** The codes to measure first, ascending. */
    public static List<Integer> probes(List<Stage> stages, Probes p) {
        int all = Stage.mask(stages);
        TreeSet<Integer> codes = new TreeSet<>();
        codes.add(0);
        codes.add(all);
        if (p == Probes.FLIPS) {
            for (Stage s : stages) {
                codes.add(s.bit);
                codes.add(all & ~s.bit);
            }
        }
        return new ArrayList<>(codes);
    }

    /**
     * Predictions for every code of the protocol, best (lowest predicted latency) first; ties by code.
     * @param measured at least the probes of {@code p}
     * @throws IllegalArgumentException when a probe is missing
     */
    public static List<Prediction> predict(List<Stage> stages, Map<Integer, CodeResult> measured, Probes p) {
        for (int c : probes(stages, p)) {
            if (!measured.containsKey(c)) throw new IllegalArgumentException("probe code " + c + " has not been measured");
        }
        int all = Stage.mask(stages);
        CodeResult rpc = measured.get(0), os = measured.get(all);
        List<Integer> probeCodes = probes(stages, p);
        List<Stage> ran = ran(stages, measured, probeCodes);
        int ranMask = Stage.mask(ran);
        Map<Integer, Integer> probeOf = new java.util.HashMap<>(); // a probe's twins take its measurement
        for (int c : probeCodes) probeOf.putIfAbsent(c & ranMask, c);
        double concurrency = 0;
        int nProbes = 0;
        for (int c : probeCodes) {
            CodeResult r = measured.get(c);
            concurrency += r.throughputTps() * r.latencyUs() / 1e6;
            nProbes++;
        }
        concurrency /= nProbes;
        int n = ran.size();
        List<Prediction> out = new ArrayList<>();
        for (HybridCode hc : HybridCode.all(stages)) {
            int code = hc.code();
            int k = Integer.bitCount(code & ranMask);
            double lat = n == 0 ? rpc.latencyUs() : switch (p) {
                case PURE -> stagewise(ran, rpc, os, code, k, n);
                case FLIPS -> anchored(ran, measured, rpc, os, all, code, k, n);
            };
            Integer probe = probeOf.get(code & ranMask);
            if (probe != null) lat = measured.get(probe).latencyUs(); // a probe's (and its twins') prediction is its measurement
            double tps = lat > 0 ? concurrency * 1e6 / lat : 0;
            out.add(new Prediction(code, lat, tps));
        }
        out.sort(Comparator.comparingDouble(Prediction::latencyUs).thenComparingInt(Prediction::code));
        return out;
    }

    /**
     * The {@code budget} codes to measure after the probes: the best predicted codes, leaving out the probes and
     * every code whose predicted latency equals that of a probe or of a code chosen before it (twins that differ
     * only in stages that never ran). Deterministic: depends only on the probes' figures.
     */
    public static List<Integer> selection(List<Stage> stages, Map<Integer, CodeResult> probeResults, Probes p, int budget) {
        List<Integer> probes = probes(stages, p);
        List<Prediction> predictions = predict(stages, probeResults, p);
        java.util.Set<Double> spent = new java.util.HashSet<>();
        for (Prediction pr : predictions) if (probes.contains(pr.code())) spent.add(pr.latencyUs());
        List<Integer> out = new ArrayList<>();
        for (Prediction pr : predictions) {
            if (out.size() >= budget) break;
            if (!probes.contains(pr.code()) && spent.add(pr.latencyUs())) out.add(pr.code());
        }
        return out;
    }

    /** The stages that ran (a count above zero) in some probe, in protocol order. */
    static List<Stage> ran(List<Stage> stages, Map<Integer, CodeResult> measured, List<Integer> probeCodes) {
        List<Stage> out = new ArrayList<>();
        for (Stage s : stages) {
            boolean any = false;
            for (int c : probeCodes) {
                for (org.rccj.results.RunMetrics m : measured.get(c).runs()) {
                    org.rccj.results.RunMetrics.StageFigures f = m.stages().get(s.name());
                    any |= f != null && f.count() > 0;
                }
            }
            if (any) out.add(s);
        }
        return out;
    }

    private static double stagewise(List<Stage> stages, CodeResult rpc, CodeResult os, int code, int k, int n) {
        Map<String, Double> tr = rpc.perCommitUs(), to = os.perCommitUs();
        double restR = rpc.latencyUs(), restO = os.latencyUs(), lat = 0;
        for (Stage s : stages) {
            double r = tr.getOrDefault(s.name(), 0.0), o = to.getOrDefault(s.name(), 0.0);
            restR -= r;
            restO -= o;
            lat += (code & s.bit) != 0 ? o : r;
        }
        return lat + ((n - k) * restR + k * restO) / n;
    }

    private static double anchored(List<Stage> stages, Map<Integer, CodeResult> m, CodeResult rpc, CodeResult os, int all,
                                   int code, int k, int n) {
        double fromRpc = rpc.latencyUs(), fromOs = os.latencyUs();
        for (Stage s : stages) {
            if ((code & s.bit) != 0) fromRpc += m.get(s.bit).latencyUs() - rpc.latencyUs();
            else fromOs += m.get(all & ~s.bit).latencyUs() - os.latencyUs();
        }
        return ((n - k) * fromRpc + k * fromOs) / n;
    }
}
