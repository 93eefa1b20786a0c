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
                + " off; rank codes by measuring them on %s (rcc enumerate --set fabric=%s) or check with rcc validate", fabric, misses.size(),
                misses.size() == 1 ? "" : "s", misses.size() == 1 ? "es" : "", pct(TOLERANCE), worst.name(), worst.sim() / worst.measured(),
                fabric, fabric);
    }

    /** validate's verdict from its counts (winners per point, code pairs ordered alike, stage winners, mean error). */
    public static String validate(int winnersAgree, int points, int pairsAlike, int pairs, int stagesAgree, int stages, double meanError) {
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
