package org.rccj.cli;

import org.rccj.experiments.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.spi.HybridCode;
import org.rccj.hybrid.CodeResult;
import org.rccj.hybrid.GuidedEvaluation;
import org.rccj.hybrid.GuidedModel;
import org.rccj.hybrid.HybridTable;
import org.rccj.hybrid.Ranking;
import org.rccj.hybrid.Shard;
import org.rccj.results.ConsoleReport;
import org.rccj.results.ResultTable;
import org.rccj.results.RunMetrics;
import org.rccj.results.StudentT;
import org.rccj.experiments.Batch;
import org.rccj.experiments.Enumeration;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;

/**
 * {@code rcc enumerate CONFIG [--strategy exhaustive|guided] ...}: runs the hybrid codes of the config's
 * protocol (every code, a shard of them, or the ones guided search picks), one result directory per code
 * ({@code hybrid=NN}, with {@code ,seed=S} when repeated), writes {@code hybrid.csv} for every code with a
 * finished result in the directory and prints the ranking. Finished codes are reused (resumable).
 */
final class EnumerateCommand implements Command {
    static final String USAGE = "rcc enumerate CONFIG [--strategy exhaustive|guided] [--budget K] [--probes pure|flips] [--repeat N]"
            + " [--jobs J] [--shard i/n] [--set key=value]... [--out DIR]";
    static final String GUIDED_CSV = "guided.csv";
    /** Default number of codes guided search measures after its probes. */
    static final int DEFAULT_BUDGET = 6;
    /** A code paying loopback atomics below this share of its twin without them is marked as collapsed by them. */
    static final double LOOPBACK_COLLAPSE = 0.8;
    static final GuidedModel.Probes DEFAULT_PROBES = GuidedModel.Probes.PURE;

    static final Options OPTIONS = BatchOptions.common(new Options()
            .addOption(Option.builder().longOpt("strategy").hasArg().argName("exhaustive|guided").desc("which codes to run").build())
            .addOption(Option.builder().longOpt("budget").hasArg().argName("K").desc("guided: codes to run after the probes").build())
            .addOption(Option.builder().longOpt("probes").hasArg().argName("pure|flips").desc("guided: codes measured first").build())
            .addOption(Option.builder().longOpt("shard").hasArg().argName("i/n").desc("run the i-th of n shares of the codes").build()));

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("enumerate", OPTIONS, args);
        Path file = BatchOptions.configFile("enumerate", cl, ctx, USAGE);
        String strategy = cl.hasOption("strategy") ? cl.getOptionValue("strategy").strip().toLowerCase(Locale.ROOT) : "exhaustive";
        if (!strategy.equals("exhaustive") && !strategy.equals("guided")) {
            throw new ConfigException("enumerate: --strategy " + cl.getOptionValue("strategy") + ": accepted: exhaustive, guided");
        }
        boolean guided = strategy.equals("guided");
        if (!guided && (cl.hasOption("budget") || cl.hasOption("probes"))) {
            throw new ConfigException("enumerate: --" + (cl.hasOption("budget") ? "budget" : "probes") + " applies to --strategy guided only");
        }
        Shard shard = cl.hasOption("shard") ? Shard.parse(cl.getOptionValue("shard")) : Shard.ALL;
        if (guided && !shard.isAll()) {
            throw new ConfigException("enumerate: --shard splits an exhaustive enumeration; guided search picks its codes as it goes");
        }
        GuidedModel.Probes probes = DEFAULT_PROBES;
        if (cl.hasOption("probes")) {
            probes = GuidedModel.Probes.parse(cl.getOptionValue("probes"));
            if (probes == null) throw new ConfigException("enumerate: --probes " + cl.getOptionValue("probes") + ": accepted: pure, flips");
        }
        int budget = BatchOptions.integer("enumerate", cl, "budget", DEFAULT_BUDGET, 0, 1 << 20);
        int repeat = BatchOptions.repeat("enumerate", cl);
        int jobs = BatchOptions.jobs("enumerate", cl);

        Map<String, Object> base = BatchOptions.tree(file, cl.getOptionValues("set"), n -> ctx.err().println("rcc: note: " + n));
        Config baseConfig = BatchOptions.resolve("enumerate", base);
        List<Stage> stages = baseConfig.protocolFactory().stages();
        Path out = BatchOptions.out(cl, ctx, baseConfig.name() + "-hybrid");
        Batch.checkOutDir("enumerate", out);
        Provenance.Made made = new Provenance.Made("enumerate", baseConfig.toMap(), List.of(Config.HYBRID.key()));
        Provenance.check(made, out, cl.hasOption("force"));

        // every code's configs are resolved (and so checked) before anything runs
        List<HybridCode> codes = HybridCode.all(stages);
        int width = Integer.toString(Stage.mask(stages)).length();
        Map<Integer, List<Batch.Point>> pointsByCode = Enumeration.points(base, baseConfig, stages, repeat, out);
        OutputPaths.checkDir("--out", out);
        // bound to this config from the first point on: an interrupted enumeration's directory refuses another config
        Provenance.write(out, made, args);

        String what = baseConfig.protocol() + " on " + baseConfig.workloadName();
        GuidedRun guidedRun = null;
        List<Batch.Done> done;
        if (!guided) {
            List<Batch.Point> selected = new ArrayList<>();
            for (int i = 0; i < codes.size(); i++) if (shard.selects(i)) selected.addAll(pointsByCode.get(codes.get(i).code()));
            int nCodes = selected.size() / repeat;
            ctx.err().println("enumerate '" + baseConfig.name() + "': " + what + ", " + nCodes + " of " + codes.size() + " hybrid codes"
                    + (shard.isAll() ? "" : " (shard " + shard + ")") + (repeat > 1 ? " x " + repeat + " seeds" : "")
                    + " -> " + BatchOptions.display(ctx, out));
            done = Batch.run("enumerate", selected, jobs, ctx);
        } else {
            guidedRun = runGuided(ctx, baseConfig, stages, pointsByCode, probes, budget, jobs, out, what);
            done = guidedRun.done;
        }

        // hybrid.csv: every code of this experiment with a finished result in DIR (other shards' too)
        // (every seed of a code found in DIR, once: adding repeats reuses the runs there, and the table counts them all)
        List<RunMetrics> finished = new ArrayList<>();
        for (Map.Entry<Integer, List<Batch.Point>> e : pointsByCode.entrySet()) {
            List<RunMetrics> ours = new ArrayList<>();
            for (Batch.Point p : e.getValue()) if (Batch.finished(p)) ours.add(RunMetrics.read(p.dir()));
            finished.addAll(ours.isEmpty() ? ours : Seeds.all(out, pointName(e.getKey(), width), e.getValue().get(0).config(), ours));
        }
        List<CodeResult> table = HybridTable.byCode(finished);
        Path csv = out.resolve(HybridTable.FILE_NAME);
        ResultTable.write(csv, HybridTable.csv(table));
        Provenance.write(out, made, args);

        Map<Integer, CodeResult> complete = new HashMap<>();
        for (CodeResult c : table) if (c.runs().size() >= repeat) complete.put(c.code(), c);
        boolean all = complete.size() == codes.size();
        printRanking(ctx, what, table, stages, codes.size(), sweepCommand(cl));
        if (guidedRun != null) guidedRun.report(ctx, complete, all);
        else if (all) printReplay(ctx, stages, complete);
        else ctx.out().println("partial: " + table.size() + " of " + codes.size() + " codes have results in "
                + BatchOptions.display(ctx, out) + (shard.isAll() ? "" : "; when every shard is done, combine them with rcc merge"));
        ctx.out().println("results: " + BatchOptions.display(ctx, csv) + " (" + table.size() + " codes)"
                + (guidedRun != null ? ", " + BatchOptions.display(ctx, out.resolve(GUIDED_CSV)) : ""));
        return Batch.exitCode("enumerate", ctx, done);
    }

    /**
     * The start of the sweep command that measures some codes of this enumeration again: its config file and every
     * {@code --set} as given (a code means other stages on another base config).
     */
    static String sweepCommand(CommandLine cl) {
        StringBuilder sb = new StringBuilder("rcc sweep ").append(cl.getArgList().isEmpty() ? "CONFIG" : shellWord(cl.getArgList().get(0)));
        String[] sets = cl.getOptionValues("set");
        if (sets != null) for (String set : sets) sb.append(" --set ").append(shellWord(set));
        return sb.toString();
    }

    /** {@code s} as one shell word: as is when it has only safe characters, else single-quoted. */
    static String shellWord(String s) {
        return s.matches("[A-Za-z0-9_.,=+:/@%-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /** A code's directory name without the seed: {@code hybrid=05} (zero-padded to the widest code). */
    static String pointName(int code, int width) { return Enumeration.pointName(code, width); }

    /** The measured side of a guided search, for its report. */
    private record GuidedRun(List<Batch.Done> done, GuidedModel.Probes probes, int budget, List<Integer> probeCodes,
                             List<Integer> chosen, List<GuidedModel.Prediction> predictions, Map<Integer, CodeResult> measured, int newRuns) {
        void report(Context ctx, Map<Integer, CodeResult> complete, boolean all) {
            if (measured.isEmpty()) {
                ctx.out().println("guided search: no code could be measured");
                return;
            }
            CodeResult best = Ranking.rank(measured.values()).get(0);
            ctx.out().println();
            ctx.out().println("guided search (probes " + probes.spelled() + ", budget " + budget + "): measured " + measured.size()
                    + " codes (" + newRuns + " new runs): probes " + join(probeCodes) + ", then the best predicted " + join(chosen));
            ctx.out().println("guided best: code " + best.code() + " (" + best.label() + ") " + ConsoleReport.human(best.throughputTps(), "/s")
                    + ", mean latency " + f("%.2f", best.latencyUs()) + " us");
            if (all) {
                CodeResult winner = Ranking.rank(complete.values()).get(0);
                double shortfall = winner.throughputTps() <= 0 ? 0 : 1 - best.throughputTps() / winner.throughputTps();
                int rank = Ranking.rank(complete.values()).indexOf(complete.get(best.code())) + 1;
                ctx.out().println("against every code's result in this directory: the winner is code " + winner.code() + " (" + winner.label()
                        + "); guided's best ranks " + rank + " of " + complete.size() + ", " + f("%.2f", 100 * Math.max(0, shortfall))
                        + "% below it" + (shortfall <= GuidedEvaluation.TOLERANCE + 1e-12 ? " (within 2%)" : ""));
            }
        }
    }

    private static GuidedRun runGuided(Context ctx, Config baseConfig, List<Stage> stages, Map<Integer, List<Batch.Point>> pointsByCode,
                                       GuidedModel.Probes probes, int budget, int jobs, Path out, String what) throws Exception {
        List<Integer> probeCodes = GuidedModel.probes(stages, probes);
        List<Batch.Point> probePoints = new ArrayList<>();
        for (int c : probeCodes) probePoints.addAll(pointsByCode.get(c));
        ctx.err().println("enumerate '" + baseConfig.name() + "': " + what + ", guided search: " + probeCodes.size() + " probes ("
                + probes.spelled() + ") then up to " + budget + " predicted codes, of " + pointsByCode.size() + " -> " + BatchOptions.display(ctx, out));
        List<Batch.Done> done = new ArrayList<>(Batch.run("enumerate", probePoints, jobs, ctx));
        Map<Integer, CodeResult> measured = group(done);
        List<GuidedModel.Prediction> predictions = GuidedModel.predict(stages, measured, probes);
        List<Integer> chosen = GuidedModel.selection(stages, measured, probes, budget);
        List<Batch.Point> next = new ArrayList<>();
        for (int c : chosen) next.addAll(pointsByCode.get(c));
        if (!next.isEmpty()) done.addAll(Batch.run("enumerate", next, jobs, ctx));
        measured = group(done);
        int newRuns = 0;
        for (Batch.Done d : done) if (!d.reused()) newRuns++;

        StringBuilder sb = new StringBuilder("code,onesided,predicted_rank,predicted_latency_us,predicted_throughput_tps,probe,measured\n");
        int rank = 0;
        for (GuidedModel.Prediction p : predictions) {
            rank++;
            HybridCode hc = new HybridCode(p.code(), stages);
            List<String> names = new ArrayList<>();
            for (Stage s : hc.oneSidedStages()) names.add(s.name());
            sb.append(p.code()).append(',').append(ResultTable.cell(CodeResult.label(p.code(), names))).append(',').append(rank).append(',')
              .append(f("%.4f", p.latencyUs())).append(',').append(f("%.3f", p.throughputTps())).append(',')
              .append(probeCodes.contains(p.code())).append(',').append(measured.containsKey(p.code())).append('\n');
        }
        ResultTable.write(out.resolve(GUIDED_CSV), sb.toString());
        return new GuidedRun(done, probes, budget, probeCodes, chosen, predictions, measured, newRuns);
    }

    private static Map<Integer, CodeResult> group(List<Batch.Done> done) {
        List<RunMetrics> ms = new ArrayList<>();
        for (Batch.Done d : Batch.succeeded(done)) ms.add(d.metrics());
        Map<Integer, CodeResult> out = new LinkedHashMap<>();
        for (CodeResult c : HybridTable.byCode(ms)) out.put(c.code(), c);
        return out;
    }

    /**
     * The ranked table (with each code's verification and, on a profile whose NIC atomics are incoherent, which
     * codes pay loopback atomics), the winner only when its 95% CI separates from the next code's (else the codes
     * tied within noise; with one seed, a note saying so) and the gain over the better pure code.
     */
    static void printRanking(Context ctx, String what, List<CodeResult> table, List<Stage> stages, int totalCodes, String sweepCommand) {
        if (table.isEmpty()) {
            ctx.out().println("no finished results");
            return;
        }
        int all = Stage.mask(stages);
        List<CodeResult> ranked = Ranking.rank(table);
        Ranking.Verdict verdict = Ranking.verdict(ranked);
        String loopbackWhy = loopbackWhy(table.get(0).runs().get(0));
        java.util.Set<Integer> collapsed = loopbackWhy == null ? java.util.Set.of()
                : Ranking.collapsed(table, Stage.mask(HybridTable.nicAtomicStages(table.get(0).runs().get(0))), LOOPBACK_COLLAPSE);
        int w = "one-sided stages".length();
        for (CodeResult c : ranked) w = Math.max(w, c.label().length());
        boolean ci = !verdict.oneSeed();
        String fmt = "%4s %5s  %-" + w + "s %12s" + (ci ? " %8s" : "%s") + " %10s %10s %8s  %-8s";
        ctx.out().println(what + ": " + table.size() + " of " + totalCodes + " hybrid codes, ranked by throughput"
                + (ci ? " (means over " + table.get(0).runs().size() + " seeds, +- the 95% CI)" : " (one seed)"));
        ctx.out().println(String.format(Locale.ROOT, fmt, "rank", "code", "one-sided stages", "throughput", ci ? "+-ci95" : "", "mean_us",
                "p99_us", "abort%", "verified").stripTrailing());
        int rank = 0;
        for (CodeResult c : ranked) {
            rank++;
            List<String> marks = new ArrayList<>();
            if (c.code() == 0) marks.add("all-rpc");
            if (c.code() == all) marks.add("all-onesided");
            if (collapsed.contains(c.code())) marks.add("loopback atomics");
            StudentT.Interval iv = c.throughputInterval();
            ctx.out().println((String.format(Locale.ROOT, fmt, rank, c.code(), c.label(), ConsoleReport.human(c.throughputTps(), "/s"),
                    ci ? f("%.1f%%", 100 * iv.halfWidth() / iv.mean()) : "", f("%.2f", c.latencyUs()), f("%.2f", c.p99Us()), f("%.2f", 100 * c.abortRate()),
                    c.verified().spelled()) + (marks.isEmpty() ? "" : "  <- " + String.join(", ", marks))).stripTrailing());
        }
        CodeResult best = ranked.get(0);
        CodeResult rpc = null, os = null;
        for (CodeResult c : table) {
            if (c.code() == 0) rpc = c;
            if (c.code() == all) os = c;
        }
        ctx.out().println();
        if (!collapsed.isEmpty()) {
            ctx.out().println("loopback atomics: " + collapsed.size() + " code" + (collapsed.size() == 1 ? "" : "s") + " below "
                    + Math.round(100 * LOOPBACK_COLLAPSE) + "% of the same code with those stages over RPC " + loopbackWhy);
        }
        int failed = 0;
        for (CodeResult c : table) if (c.verified() == CodeResult.Verified.FAILED) failed++;
        if (failed > 0) ctx.out().println("verification FAILED for " + failed + " code" + (failed == 1 ? "" : "s") + " (see their summary.json)");
        String figures = ConsoleReport.human(best.throughputTps(), "/s") + ", mean latency " + f("%.2f", best.latencyUs()) + " us";
        if (verdict.oneSeed()) {
            ctx.out().println("best: code " + best.code() + " (" + best.label() + ") " + figures);
            List<String> top = new ArrayList<>();
            for (CodeResult c : ranked.subList(0, Math.min(5, ranked.size()))) top.add(Integer.toString(c.code()));
            ctx.out().println("one seed: the ranking does not show how large the noise is, so the best code may be tied with the next;"
                    + " run with --repeat 3, or the top codes only: " + sweepCommand + " --vary " + Config.HYBRID.key() + "=" + String.join(",", top) + " --repeat 3");
        } else if (verdict.winner()) {
            CodeResult next = ranked.size() > 1 ? ranked.get(1) : null;
            ctx.out().println("best: code " + best.code() + " (" + best.label() + ") " + figures
                    + (next == null ? "" : "; its 95% CI is clear of every other code's (next: code " + next.code() + ", "
                    + ConsoleReport.human(next.throughputTps(), "/s") + ")"));
        } else {
            List<String> tied = new ArrayList<>();
            for (CodeResult c : verdict.leaders()) tied.add(Integer.toString(c.code()));
            ctx.out().println("no single winner: codes " + String.join(", ", tied) + " are within noise (their 95% throughput CIs overlap"
                    + " the top code's); top mean: code " + best.code() + " (" + best.label() + ") " + figures);
        }
        double gain = Ranking.gainOverPure(best, rpc, os);
        if (Double.isNaN(gain)) {
            ctx.out().println("gain over the pure codes: unknown (" + (rpc == null ? "all-rpc" : "all-onesided") + " has no result here)");
        } else {
            CodeResult pure = rpc.throughputTps() >= os.throughputTps() ? rpc : os;
            boolean pureTied = verdict.leaders().contains(pure);
            ctx.out().println("gain over the better pure code (" + (pure == rpc ? "all-rpc" : "all-onesided") + ", "
                    + ConsoleReport.human(pure.throughputTps(), "/s") + "): " + f("%+.2f", 100 * gain) + "% throughput"
                    + (pureTied ? " (within noise: " + (pure == rpc ? "all-rpc" : "all-onesided") + " is among the tied codes)" : ""));
        }
    }

    /**
     * Why codes marked "loopback atomics" are slow, when the run's fabric models it (sim) and its profile's NIC
     * atomics are not coherent with the CPU's; null otherwise.
     */
    static String loopbackWhy(RunMetrics m) {
        if (!"sim".equals(m.fabric())) return null;
        String profile = m.config().path("profile").asText("");
        boolean coherent;
        try {
            coherent = org.rccj.primitives.CostProfile.load(profile).nicAtomicsCoherent;
        } catch (RuntimeException e) {
            return null; // a profile file that is gone: nothing to explain from
        }
        if (coherent) return null;
        List<String> names = new ArrayList<>();
        for (Stage s : HybridTable.nicAtomicStages(m)) names.add(s.name());
        return "bind one-sided " + (names.isEmpty() ? "a stage that posts NIC atomics" : String.join("/", names))
                + ", which post" + (names.size() == 1 ? "s" : "") + " NIC atomics; on " + profile + " NIC atomics are not coherent with"
                + " the CPU's, so every CPU atomic on those words (RPC handlers, local tuples) goes through the local NIC at loopback cost"
                + " (nic.atomics_coherent = 0)";
    }

    /** On a complete enumeration: how many runs guided search would have needed (replayed on these results). */
    static void printReplay(Context ctx, List<Stage> stages, Map<Integer, CodeResult> complete) {
        for (GuidedModel.Probes p : GuidedModel.Probes.values()) {
            GuidedEvaluation.Needed n = GuidedEvaluation.needed(stages, complete, p);
            GuidedEvaluation.Outcome o = GuidedEvaluation.replay(stages, complete, p, DEFAULT_BUDGET);
            ctx.out().println("guided search replayed on these results, probes " + p.spelled() + ": finds the winner after " + n.exact()
                    + " of " + n.total() + " runs, a code within 2% after " + n.withinTolerance() + "; with --budget " + DEFAULT_BUDGET
                    + " (" + o.runs() + " runs) it picks code " + o.found().code() + ", " + f("%.2f", 100 * o.shortfall()) + "% below the winner");
        }
    }

    private static String join(List<Integer> codes) {
        List<String> s = new ArrayList<>();
        for (int c : codes) s.add(Integer.toString(c));
        return s.isEmpty() ? "(none)" : String.join(", ", s);
    }

    private static String f(String fmt, Object... args) { return String.format(Locale.ROOT, fmt, args); }
}
