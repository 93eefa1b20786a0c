package org.rccj.cli;

import org.rccj.framework.run.Config;
import org.rccj.experiments.Seeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.rccj.framework.config.ConfigException;
import org.rccj.hybrid.HybridTable;
import org.rccj.results.Comparison;
import org.rccj.results.CsvTable;
import org.rccj.results.ResultTable;
import org.rccj.results.RunMetrics;
import org.rccj.results.SummaryJson;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/**
 * {@code rcc compare A B [C...]}: runs, sweeps or enumerations side by side ({@link Comparison}). All inputs
 * must be of one kind; the first is the baseline of the relative differences.
 */
final class CompareCommand implements Command {
    static final String USAGE = "rcc compare DIR DIR [DIR...] [--full] [--metrics M,M...] [--csv FILE]";
    static final Options OPTIONS = new Options()
            .addOption(org.apache.commons.cli.Option.builder().longOpt("metrics").hasArg().argName("M,M...")
                    .desc("only these metrics (e.g. throughput_tps,latency_mean_us,LOCK_us_per_txn)").build())
            .addOption(org.apache.commons.cli.Option.builder().longOpt("csv").hasArg().argName("FILE")
                    .desc("also write the comparison as CSV").build())
            .addOption(org.apache.commons.cli.Option.builder().longOpt("full")
                    .desc("every metric (default: the headline metrics and, for runs, the stages' time per transaction)").build());

    /** One representative summary.json per input: its config and the facts that make inputs incomparable. */
    private record Facts(com.fasterxml.jackson.databind.JsonNode config, double measuredS, boolean verified, String fabric, Set<String> varied) {}

    private enum Kind {
        RUN("a run"), SWEEP("a sweep"), ENUMERATION("an enumeration");
        final String what;
        Kind(String what) { this.what = what; }
    }

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("compare", OPTIONS, args);
        List<String> dirs = cl.getArgList();
        if (dirs.size() < 2) {
            throw new ConfigException("compare: needs at least two result directories (runs, sweeps or enumerations); usage: " + USAGE);
        }
        List<Comparison.Input> inputs = new ArrayList<>();
        List<Facts> facts = new ArrayList<>();
        Kind kind = null;
        String firstArg = null;
        for (int i = 0; i < dirs.size(); i++) {
            String arg = dirs.get(i);
            Path dir = Seeds.hybridAlias(ctx.resolve(arg)); // hybrid=0 names hybrid=00 and back
            Kind k = classify(arg, dir);
            if (kind == null) {
                kind = k;
                firstArg = arg;
            } else if (k != kind) {
                throw new ConfigException("compare: " + firstArg + " is " + kind.what + " but " + arg + " is " + k.what
                        + "; compare runs with runs, sweeps with sweeps, enumerations with enumerations");
            }
            if (k != Kind.RUN) PlotCommand.refuseMixedPoints("compare", arg, dir, k == Kind.SWEEP);
            String name = i < 26 ? String.valueOf((char) ('A' + i)) : "I" + (i + 1);
            inputs.add(input(name, arg, dir, k));
            facts.add(facts(dir, k, inputs.get(inputs.size() - 1)));
        }
        List<String> only = null;
        if (cl.hasOption("metrics")) {
            only = new ArrayList<>();
            List<String> known = Comparison.metricNames(inputs);
            for (String m : cl.getOptionValue("metrics").split(",")) {
                m = m.strip();
                if (m.isEmpty()) continue;
                if (!known.contains(m)) {
                    throw new ConfigException("compare: --metrics " + m + ": no such metric; known: " + String.join(", ", known));
                }
                only.add(m);
            }
            if (only.isEmpty()) throw new ConfigException("compare: --metrics is empty; give metric names such as throughput_tps");
        }
        Path csv = cl.hasOption("csv") ? ctx.resolve(cl.getOptionValue("csv")) : null;
        if (csv != null) OutputPaths.checkDir("compare: --csv", csv.toAbsolutePath().getParent());
        if (Comparison.commonPoints(inputs) == 0) {
            throw new ConfigException("compare: " + firstArg + " shares no point with the others (their varied keys or values differ);"
                    + " compare results of the same sweep or enumeration layout");
        }
        ctx.out().print(Comparison.text(inputs, preamble(inputs, facts), only, cl.hasOption("full")));
        if (csv != null) {
            ResultTable.write(csv, Comparison.csv(inputs, only));
            ctx.out().println("wrote " + BatchOptions.display(ctx, csv));
        }
        return Exit.OK;
    }

    /** The settings that differ between the inputs, then warnings about what makes their figures incomparable. */
    private static List<String> preamble(List<Comparison.Input> inputs, List<Facts> facts) {
        Set<String> ignore = new java.util.HashSet<>(Set.of(Config.NAME.key(), Config.HISTORY.key()));
        List<com.fasterxml.jackson.databind.JsonNode> configs = new ArrayList<>();
        for (Facts f : facts) {
            configs.add(f == null ? null : f.config());
            if (f != null) ignore.addAll(f.varied());
        }
        List<String> out = new ArrayList<>();
        List<String> diff = Comparison.differingSettings(inputs, configs, ignore);
        if (diff.isEmpty()) out.add("settings: the same in every input" + (ignore.size() > 2 ? " (apart from what each varies)" : ""));
        else {
            out.add("settings that differ (every difference below may come from these, not only from the point's own key):");
            out.addAll(diff);
        }
        Set<String> windows = new java.util.LinkedHashSet<>(), verified = new java.util.LinkedHashSet<>(), fabrics = new java.util.LinkedHashSet<>();
        List<String> w = new ArrayList<>(), v = new ArrayList<>(), fb = new ArrayList<>();
        for (int i = 0; i < facts.size(); i++) {
            Facts f = facts.get(i);
            if (f == null) continue;
            String n = inputs.get(i).name();
            String window = String.format(java.util.Locale.ROOT, "%.3f s", f.measuredS());
            windows.add(window);
            w.add(n + " " + window);
            verified.add(f.verified() ? "checked" : "not checked");
            v.add(n + " " + (f.verified() ? "checked" : "not checked"));
            fabrics.add(f.fabric());
            fb.add(n + " " + f.fabric());
        }
        if (windows.size() > 1) out.add("warning: the measured windows differ (" + String.join(", ", w) + "): warm-up and noise differ with them");
        if (verified.size() > 1) out.add("warning: verification differs (" + String.join(", ", v) + "): recording the history costs time");
        if (fabrics.size() > 1) out.add("warning: the fabrics differ (" + String.join(", ", fb) + "): their times are not comparable");
        out.addAll(inputWarnings(inputs));
        return out;
    }

    /**
     * The warnings the inputs' runs carry (their tables' {@code warnings} column: few commits, a busy host, uneven
     * throughput, repeats that disagree, ...), each once per input with how many of its points have it.
     */
    static List<String> inputWarnings(List<Comparison.Input> inputs) {
        List<String> out = new ArrayList<>();
        for (Comparison.Input in : inputs) {
            org.rccj.results.CsvTable t = in.table();
            int col = t.column(ResultTable.WARNINGS);
            if (col < 0) continue;
            java.util.Map<String, Integer> count = new java.util.LinkedHashMap<>();
            for (int r = 0; r < t.rows().size(); r++) {
                String cell = t.rows().get(r).get(col);
                if (cell == null || cell.isBlank()) continue;
                count.merge(cell.strip(), 1, Integer::sum); // (a cell holds its point's distinct warnings, "; "-joined)
            }
            for (var e : count.entrySet()) {
                out.add("warning: " + in.name() + (t.rows().size() > 1 ? " (" + e.getValue() + " of " + t.rows().size() + " points)" : "")
                        + ": " + e.getKey());
            }
        }
        return out;
    }

    /** The facts of an input from its summary.json (a run) or its first run directory (a sweep or enumeration); null if none. */
    private static Facts facts(Path dir, Kind kind, Comparison.Input in) {
        Path run = dir;
        Set<String> varied = new java.util.HashSet<>();
        if (kind != Kind.RUN) {
            List<Path> children;
            try {
                children = MergeCommand.resultDirs(dir);
            } catch (IOException e) {
                return null;
            }
            if (children.isEmpty()) return null;
            run = children.get(0);
            varied.add(Config.SEED.key());
            // what the input really varies (its provenance.json), not every key column: an enumeration's table has a
            // protocol column, and two enumerations of different protocols differ in it
            List<String> recorded = org.rccj.experiments.Provenance.varied(dir);
            if (recorded != null) varied.addAll(recorded);
            else for (String k : in.table().keyColumns()) if (!k.equals("point") && varies(in.table(), k)) varied.add(k.equals("code") ? Config.HYBRID.key() : k);
            if (kind == Kind.ENUMERATION) varied.add(Config.HYBRID.key());
        }
        try {
            com.fasterxml.jackson.databind.JsonNode s = SummaryJson.read(run.resolve(SummaryJson.FILE_NAME));
            return new Facts(s.path("config"), s.path("measured_s").asDouble(Double.NaN), s.path("verification").path("checked").asBoolean(false),
                    s.path(Config.FABRIC.key()).asText("?"), varied);
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean varies(CsvTable t, String col) {
        Set<String> s = new java.util.HashSet<>();
        for (int r = 0; r < t.rows().size(); r++) s.add(t.get(r, col));
        return s.size() > 1;
    }

    private static Kind classify(String arg, Path dir) {
        if (!Files.exists(dir)) throw new ConfigException("compare: " + arg + ": no such directory");
        if (!Files.isDirectory(dir)) throw new ConfigException("compare: " + arg + ": not a directory (give result directories)");
        if (Files.isRegularFile(dir.resolve(HybridTable.FILE_NAME))) return Kind.ENUMERATION;
        if (Files.isRegularFile(dir.resolve(SweepCommand.CSV))) return Kind.SWEEP;
        if (RunMetrics.isResultDir(dir)) return Kind.RUN;
        throw new ConfigException("compare: " + arg + " is not a result directory (no " + SummaryJson.FILE_NAME + ", "
                + SweepCommand.CSV + " or " + HybridTable.FILE_NAME + ")");
    }

    private static Comparison.Input input(String name, String arg, Path dir, Kind kind) {
        try {
            return switch (kind) {
                case RUN -> {
                    RunMetrics m = RunMetrics.read(dir);
                    CsvTable t = CsvTable.parse(ResultTable.csv(List.of(), List.of(new ResultTable.Row(List.of(), List.of(m)))), arg);
                    yield new Comparison.Input(name, arg + " (run: " + m.protocol() + " on " + m.workload() + ", "
                            + m.config().path(Config.HYBRID.key()).asText(Integer.toString(m.code())) + ", " + m.fabric() + ", seed " + m.seed()
                            + ")", t); // its warnings follow in the preamble
                }
                case SWEEP -> table(name, arg, dir.resolve(SweepCommand.CSV), "sweep");
                case ENUMERATION -> table(name, arg, dir.resolve(HybridTable.FILE_NAME), "enumeration");
            };
        } catch (IOException e) {
            throw new ConfigException("compare: " + arg + ": cannot read: " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
        }
    }

    private static Comparison.Input table(String name, String arg, Path csv, String what) throws IOException {
        CsvTable t = CsvTable.read(csv);
        if (t.rows().isEmpty() || t.column("runs") < 0) throw new IOException(csv.getFileName() + " has no rows");
        String protocol = t.get(0, "protocol"), workload = t.get(0, "workload");
        return new Comparison.Input(name, arg + " (" + what + ", " + t.rows().size() + " points"
                + (protocol != null && t.column("code") >= 0 ? ", " + protocol + (workload == null ? "" : " on " + workload) : "")
                + (t.column("throughput_tps_ci95") >= 0 ? ", with 95% CIs" : "") + ")", t);
    }
}
