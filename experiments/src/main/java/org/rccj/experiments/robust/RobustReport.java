package org.rccj.experiments.robust;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rccj.hybrid.CodeResult;
import org.rccj.hybrid.HybridTable;
import org.rccj.results.ConsoleReport;
import org.rccj.results.ResultTable;
import org.rccj.results.StudentT;

/**
 * The tables of a robustness study (CSV, one header line, loadable with {@code pandas.read_csv}), its console
 * report and its one-line verdict:
 * <ul>
 * <li>{@code base.csv}: the base search, as {@code hybrid.csv};
 * <li>{@code robust.csv}: one row per profile and perturbation: the winner, its margin over the runner-up with the
 *     95% CI, whether that is within noise, and whether the base winner is still within noise of the top;
 * <li>{@code codes.csv}: every top code under every setting (mean throughput, 95% CI, share of the setting's best);
 * <li>{@code tipping.csv}: for each change that flips the winner, the smallest flipping change found by bisection,
 *     the largest that did not, and the new winner.
 * </ul>
 */
public final class RobustReport {
    public static final String BASE_CSV = "base.csv", ROBUST_CSV = "robust.csv", CODES_CSV = "codes.csv", TIPPING_CSV = "tipping.csv";
    public static final String VERDICT = "verdict.txt";

    private RobustReport() {}

    public static void write(Path dir, RobustStudy.Outcome o) throws IOException {
        ResultTable.write(dir.resolve(BASE_CSV), HybridTable.csv(o.baseTable()));
        StringBuilder r = new StringBuilder("setting,kind,param,param_name,change_pct,profile,winner,winner_onesided,runner_up,margin_pct,"
                + "margin_ci95_pct,within_noise,leaders,base_winner,base_winner_within_noise,base_winner_shortfall_pct\n");
        StringBuilder c = new StringBuilder("setting,kind,param,change_pct,code,onesided,runs,throughput_tps,throughput_ci95_tps,"
                + "share_of_best,within_noise_of_best,base_winner\n");
        for (Standing st : o.standings()) {
            Variant v = st.variant();
            String head = cell(v.label()) + "," + v.kind().spelled() + "," + str(v.param()) + ",";
            List<String> leaders = new ArrayList<>();
            for (CodeResult l : st.leaders()) leaders.add(Integer.toString(l.code()));
            r.append(head).append(cell(v.paramName())).append(',').append(pct(v.fraction())).append(',').append(cell(profileName(v))).append(',')
             .append(st.top().code()).append(',').append(cell(st.top().label())).append(',')
             .append(st.runnerUp() == null ? "" : Integer.toString(st.runnerUp().code())).append(',')
             .append(pct(st.margin())).append(',').append(pct(st.marginHalfWidth())).append(',').append(st.tied()).append(',')
             .append(String.join(";", leaders)).append(',').append(st.baseWinner()).append(',').append(st.baseWinnerHolds()).append(',')
             .append(pct(st.baseWinnerShortfall())).append('\n');
            double best = st.top().throughputTps();
            for (CodeResult cr : st.ranked()) {
                StudentT.Interval iv = cr.throughputInterval();
                c.append(head).append(pct(v.fraction())).append(',').append(cr.code()).append(',').append(cell(cr.label())).append(',')
                 .append(cr.runs().size()).append(',').append(f("%.3f", iv.mean())).append(',').append(num(iv.halfWidth())).append(',')
                 .append(f("%.5f", iv.mean() / best)).append(',').append(st.leaders().contains(cr)).append(',')
                 .append(cr.code() == st.baseWinner()).append('\n');
            }
        }
        ResultTable.write(dir.resolve(ROBUST_CSV), r.toString());
        ResultTable.write(dir.resolve(CODES_CSV), c.toString());
        StringBuilder t = new StringBuilder("param,param_name,direction,flips_at_pct,holds_at_pct,to_code,to_onesided,to_margin_pct,"
                + "to_margin_ci95_pct,bisection_steps\n");
        for (RobustStudy.Tipping tp : o.tippings()) {
            Standing at = tp.atFlip();
            t.append(tp.param().key()).append(',').append(cell(tp.param().name())).append(',').append(tp.flipsAt() < 0 ? "down" : "up").append(',')
             .append(pct(tp.flipsAt())).append(',').append(pct(tp.holdsAt())).append(',').append(tp.to().code()).append(',')
             .append(cell(tp.to().label())).append(',').append(pct(at.margin())).append(',').append(pct(at.marginHalfWidth())).append(',')
             .append(tp.steps().size()).append('\n');
        }
        ResultTable.write(dir.resolve(TIPPING_CSV), t.toString());
        ResultTable.write(dir.resolve(VERDICT), verdict(o) + "\n");
    }

    /** "code 28 (LOCK+LOG) stays best (within noise) under 14 of 16 perturbations and on cx6-hdr; it loses to 20 if ...". */
    public static String verdict(RobustStudy.Outcome o) {
        Standing base = o.base();
        CodeResult w = base.top();
        StringBuilder sb = new StringBuilder("code " + w.code() + " (" + w.label() + ")");
        if (base.leaders().size() > 1) {
            List<String> others = new ArrayList<>();
            for (CodeResult l : base.leaders().subList(1, base.leaders().size())) others.add(Integer.toString(l.code()));
            sb.append(", tied within noise with ").append(String.join(", ", others)).append(" on the base profile,");
        }
        int n = 0, held = 0;
        List<String> onProfiles = new ArrayList<>(), lostProfiles = new ArrayList<>();
        for (Standing st : o.standings()) {
            switch (st.variant().kind()) {
                case PERTURBED -> {
                    n++;
                    if (st.baseWinnerHolds()) held++;
                }
                case PROFILE -> (st.baseWinnerHolds() ? onProfiles : lostProfiles).add(st.variant().label()
                        + (st.baseWinnerHolds() ? "" : " (code " + st.top().code() + " wins)"));
                case BASE -> { }
            }
        }
        sb.append(" stays best (within noise) under ").append(held).append(" of ").append(n).append(" perturbations");
        if (!onProfiles.isEmpty()) sb.append(" and on ").append(String.join(", ", onProfiles));
        if (!lostProfiles.isEmpty()) sb.append(", but not on ").append(String.join(", ", lostProfiles));
        List<String> losses = new ArrayList<>();
        for (RobustStudy.Tipping tp : o.tippings()) {
            losses.add("to " + tp.to().code() + " if " + tp.param().name() + (tp.flipsAt() < 0 ? " drops" : " rises") + " by "
                    + f("%.0f", 100 * Math.abs(tp.flipsAt())) + "% or more");
        }
        if (losses.isEmpty()) sb.append("; no change of a parameter by ").append(f("%.0f", 100 * o.standings().stream()
                .filter(s -> s.variant().kind() == Variant.Kind.PERTURBED).mapToDouble(s -> Math.abs(s.variant().fraction())).max().orElse(0)))
                .append("% flips it");
        else sb.append("; it loses ").append(String.join("; ", losses));
        String c = coverage(o);
        if (c != null) sb.append(". ").append(c);
        return sb.toString();
    }

    /**
     * What the base ranking could not see, or null when it saw every code: "guided search, budget 2 saw only 7 of 64
     * codes; not ranked: 1, 3, ... (a better code among them would go unnoticed: rcc enumerate, then robust --from DIR)".
     */
    public static String coverage(RobustStudy.Outcome o) {
        if (o.unseen().isEmpty()) return null;
        int seen = o.codes() - o.unseen().size();
        return o.search() + " saw only " + seen + " of " + o.codes() + " codes; not ranked: " + RobustStudy.join(o.unseen())
                + " (a better code among them would go unnoticed: rank every code with rcc enumerate, then rcc robust --from DIR)";
    }

    /** The table on the terminal: one line per setting. */
    public static void print(PrintStream out, RobustStudy.Outcome o, int repeat) {
        int w = "setting".length();
        for (Standing st : o.standings()) w = Math.max(w, st.variant().label().length());
        String fmt = "%-" + w + "s  %6s %12s  %-22s %-6s  %s";
        String c = coverage(o);
        if (c != null) out.println("base ranking: " + c);
        out.println("top codes " + RobustStudy.join(o.candidates()) + " under each setting (" + repeat + (repeat == 1 ? " seed: no CI" : " seeds, 95% CI")
                + "; within noise: margin < " + Math.round(100 * Standing.MIN_MARGIN) + "% or its 95% CI reaches 0)");
        out.println(String.format(Locale.ROOT, fmt, "setting", "winner", "throughput", "margin over runner-up", "", "base winner " + o.base().top().code()));
        for (Standing st : o.standings()) {
            String margin = st.runnerUp() == null ? "-" : f("%+.1f%%", 100 * st.margin())
                    + (Double.isFinite(st.marginHalfWidth()) ? f(" +-%.1f", 100 * st.marginHalfWidth()) : "") + " vs " + st.runnerUp().code();
            String bw = st.top().code() == st.baseWinner() ? "wins" : st.baseWinnerHolds() ? f("within noise (-%.1f%%)", 100 * st.baseWinnerShortfall())
                    : f("LOSES (-%.1f%%)", 100 * st.baseWinnerShortfall());
            out.println(String.format(Locale.ROOT, fmt, st.variant().label(), st.top().code(), ConsoleReport.human(st.top().throughputTps(), "/s"),
                    margin, st.tied() ? "noise" : "clear", bw));
        }
        if (!o.tippings().isEmpty()) {
            out.println();
            out.println("tipping points (bisection to " + Math.round(100 * RobustStudy.RESOLUTION) + "% of the parameter):");
            for (RobustStudy.Tipping tp : o.tippings()) {
                out.println("  " + tp.param().name() + " (" + tp.param().key() + ") " + ProfileVariants.percent(tp.flipsAt()) + " or more: code "
                        + tp.to().code() + " (" + tp.to().label() + ") wins; at " + ProfileVariants.percent(tp.holdsAt()) + " code "
                        + o.base().top().code() + " still holds (" + tp.steps().size() + " bisection steps)");
            }
        }
    }

    private static String profileName(Variant v) {
        return v.kind() == Variant.Kind.PERTURBED ? Path.of(v.profile()).getFileName().toString() : v.profile();
    }

    private static String cell(String s) { return s == null ? "" : ResultTable.cell(s); }

    private static String str(String s) { return s == null ? "" : s; }

    private static String pct(double fraction) { return Double.isFinite(fraction) ? f("%.3f", 100 * fraction) : ""; }

    private static String num(double v) { return Double.isFinite(v) ? f("%.3f", v) : ""; }

    private static String f(String fmt, Object... args) { return String.format(Locale.ROOT, fmt, args); }
}
