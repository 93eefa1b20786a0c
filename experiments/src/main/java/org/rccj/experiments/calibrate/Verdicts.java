package org.rccj.experiments.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The last line of {@code rcc calibrate} and {@code rcc validate}: whether to trust the simulator's ranking of hybrid
 * codes on this fabric, and why, in words a researcher can act on.
 */
public final class Verdicts {
    /** A figure the simulator misses by more than this share (either way) is outside tolerance. */
    public static final double TOLERANCE = 0.25;
    /** Share of code pairs the simulator must order as the real runs do (besides every point's winner agreeing). */
    public static final double ORDER_AGREEMENT = 0.8;

    private Verdicts() {}

    /** Whether {@code sim} is outside {@link #TOLERANCE} of {@code measured} (no usable measurement: not judged). */
    public static boolean outside(double measured, double sim) {
        if (!(measured > 0) || !Double.isFinite(sim)) return false;
        return Math.abs(sim / measured - 1) > TOLERANCE;
    }

    /** The fits column's flag for a figure outside tolerance: "OUTSIDE +-25% (sim/real 0.03)". */
    public static String flag(double measured, double sim) {
        return outside(measured, sim) ? String.format(Locale.ROOT, "OUTSIDE +-%.0f%% (sim/real %.3g)", 100 * TOLERANCE, sim / measured) : "";
    }

    /**
     * calibrate's verdict from its figures: no when any round trip or peak figure (what a code's READ-vs-RPC choice
     * turns on) misses by more than the tolerance, naming the worst; else yes.
     */
    public static String calibrate(String fabric, List<Calibration.Figure> figures) {
        List<String> misses = new ArrayList<>();
        Calibration.Figure worst = null;
        for (Calibration.Figure f : figures) {
            if (!(f.name().contains("round trip") || f.name().contains("peak")) || !outside(f.measured(), f.sim())) continue;
            misses.add(f.name());
            if (worst == null || Math.abs(Math.log(f.sim() / f.measured())) > Math.abs(Math.log(worst.sim() / worst.measured()))) worst = f;
        }
        if (worst == null) {
            return "verdict: trust the sim's ranking of codes on " + fabric + " with this profile: yes, because every round trip and peak"
                    + " (what binding a stage one-sided or by RPC turns on) is within " + pct(TOLERANCE) + " of the measured one;"
                    + " confirm on your protocol with rcc validate";
        }
        return String.format(Locale.ROOT, "verdict: trust the sim's ranking of codes on %s with this profile: no, because %d round-trip or"
                + " peak figure%s miss%s by more than %s (worst: %s, sim/real %.3g), so the relative cost of one-sided and RPC stages is"
                + " off; rank codes by measuring them on %s (rcc enumerate --set %s=%s) or check with rcc validate", fabric, misses.size(),
                misses.size() == 1 ? "" : "s", misses.size() == 1 ? "es" : "", pct(TOLERANCE), worst.name(), worst.sim() / worst.measured(),
                fabric, org.rccj.framework.run.Config.FABRIC.key(), fabric);
    }

    /** Points with two or more codes a "yes" of validate needs at least. */
    public static final int MIN_POINTS = 2;
    /** Code pairs (over all points) a "yes" of validate needs at least. */
    public static final int MIN_PAIRS = 3;
    /** A mean absolute throughput error above this share: the profile is off too far for its ranking to be trusted. */
    public static final double MAX_MEAN_ERROR = 2 * TOLERANCE;

    /**
     * What a validation rests on: points with two or more codes, codes, real runs, the shortest real measured window (s),
     * and the real runs whose throughput was not steady within their window.
     */
    public record Basis(int points, int codes, int realRuns, double shortestWindowS, int unsteadyRuns) {
        public String describe() {
            return String.format(Locale.ROOT, "%d point%s with two or more codes (%d codes), %d real run%s, shortest real window %.2f s, %d real"
                    + " run%s unsteady within its window", points, points == 1 ? "" : "s", codes, realRuns, realRuns == 1 ? "" : "s",
                    shortestWindowS, unsteadyRuns, unsteadyRuns == 1 ? "" : "s");
        }
    }

    /** The rule a "yes" of validate follows, as printed before its verdict and in docs/guide.md. */
    public static String validateRule() {
        return String.format(Locale.ROOT, "rule: yes only when every point's winning code agrees, at least %.0f%% of the code pairs are ordered"
                + " alike, and the data suffice: at least %d points with two or more codes and %d code pairs, every real window at least"
                + " %.0f s, no real run whose throughput varied by more than %d%% within its window, and a mean throughput error of at most"
                + " %.0f%%", 100 * ORDER_AGREEMENT, MIN_POINTS, MIN_PAIRS, org.rccj.results.HostNoise.MIN_WINDOW_MS / 1000,
                org.rccj.results.HostNoise.MAX_CV_PERCENT, 100 * MAX_MEAN_ERROR);
    }

    /** Why the data cannot carry a "yes" (too few or too noisy), or null when they can. */
    static String tooLittle(Basis b, int pairs, double meanError) {
        List<String> why = new ArrayList<>();
        if (b.points() < MIN_POINTS) why.add(b.points() + " point" + (b.points() == 1 ? "" : "s") + " (needed: " + MIN_POINTS + ")");
        if (pairs < MIN_PAIRS) why.add(pairs + " code pair" + (pairs == 1 ? "" : "s") + " (needed: " + MIN_PAIRS + ")");
        if (b.shortestWindowS() * 1000 < org.rccj.results.HostNoise.MIN_WINDOW_MS) {
            why.add(String.format(Locale.ROOT, "real windows of %.2f s (needed: %.0f s; raise %s)", b.shortestWindowS(),
                    org.rccj.results.HostNoise.MIN_WINDOW_MS / 1000, org.rccj.framework.run.Config.DURATION_MS.key()));
        }
        if (b.unsteadyRuns() > 0) {
            why.add(b.unsteadyRuns() + " real run" + (b.unsteadyRuns() == 1 ? "" : "s") + " whose throughput varied by more than "
                    + org.rccj.results.HostNoise.MAX_CV_PERCENT + "% within the window (a longer warmup_ms, a quieter host)");
        }
        if (Double.isFinite(meanError) && meanError > MAX_MEAN_ERROR) {
            why.add(String.format(Locale.ROOT, "a mean throughput error of %.0f%% (at most %.0f%%: recalibrate)", 100 * meanError, 100 * MAX_MEAN_ERROR));
        }
        return why.isEmpty() ? null : String.join(", ", why);
    }

    /**
     * validate's verdict from its counts (winners per point, code pairs ordered alike, stage winners, mean error) and what
     * they rest on: never "yes" on too few points, pairs or windows or on unsteady runs ({@link #validateRule}).
     */
    public static String validate(int winnersAgree, int points, int pairsAlike, int pairs, int stagesAgree, int stages, double meanError,
                                  Basis basis) {
        String rests = "; it rests on " + basis.describe();
        String v = validate(winnersAgree, points, pairsAlike, pairs, stagesAgree, stages, meanError);
        String lacking = tooLittle(basis, pairs, meanError);
        String yes = "verdict: trust the sim's ranking of codes here: yes, because ";
        if (lacking != null && v.startsWith(yes)) {
            return "verdict: trust the sim's ranking of codes here: not shown, because the data are too few or too noisy: " + lacking
                    + "; what they show: " + v.substring(yes.length()) + rests;
        }
        return v + rests;
    }

    /** validate's verdict from its counts alone (winners per point, code pairs ordered alike, stage winners, mean error). */
    static String validate(int winnersAgree, int points, int pairsAlike, int pairs, int stagesAgree, int stages, double meanError) {
        String absolute = Double.isFinite(meanError) && meanError > TOLERANCE
                ? String.format(Locale.ROOT, "; its absolute throughputs are off by %.0f%% on average: quote ratios between codes, not the sim's"
                        + " figures", 100 * meanError) : "";
        if (points == 0) {
            return "verdict: trust the sim's ranking of codes here: cannot say, because no point ran two or more hybrid codes"
                    + " (give validate configs that differ in hybrid only)" + absolute;
        }
        String counts = String.format(Locale.ROOT, "the winning code agrees in %d of %d points, %d of %d code pairs are ordered alike%s",
                winnersAgree, points, pairsAlike, pairs, stages == 0 ? "" : ", " + stagesAgree + " of " + stages + " stage winners agree");
        boolean yes = winnersAgree == points && pairs > 0 && pairsAlike >= ORDER_AGREEMENT * pairs;
        return "verdict: trust the sim's ranking of codes here: " + (yes ? "yes" : "no") + ", because " + counts
                + (yes ? "" : String.format(Locale.ROOT, " (needed: every winner and %s of the pairs)", pct(ORDER_AGREEMENT))) + absolute;
    }

    private static String pct(double share) { return String.format(Locale.ROOT, "%.0f%%", 100 * share); }
}
