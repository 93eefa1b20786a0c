package org.rccj.cli;

import org.rccj.framework.run.Config;
import org.rccj.experiments.Seeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.rccj.framework.config.ConfigException;
import org.rccj.hybrid.HybridTable;
import org.rccj.results.CsvTable;
import org.rccj.results.Figures;
import org.rccj.results.Plots;
import org.rccj.results.ResultTable;
import org.rccj.results.RunMetrics;
import org.rccj.results.SummaryJson;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/**
 * {@code rcc plot DIR... [--out DIR]}: PNG and SVG charts of results ({@link Figures} says which): an
 * enumeration directory (hybrid.csv), a sweep directory (sweep.csv), run directories (summary.json, or a
 * directory of them); several enumerations also give the protocols comparison of RCC Fig. 14.
 */
final class PlotCommand implements Command {
    static final String USAGE = "rcc plot DIR... [--out DIR]";
    static final Options OPTIONS = new Options().addOption(BatchOptions.OUT);

    private enum Kind { HYBRID, SWEEP, RUNS }

    private record Input(Path dir, String arg, Kind kind, List<Path> runs) {}

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("plot", OPTIONS, args);
        List<String> dirs = cl.getArgList();
        if (dirs.isEmpty()) throw new ConfigException("plot: missing result directories; usage: " + USAGE);
        List<Input> inputs = new ArrayList<>();
        for (String a : dirs) inputs.add(classify(ctx, a));

        Path out;
        if (cl.hasOption("out")) out = BatchOptions.out(cl, ctx, "plots");
        else if (inputs.size() == 1) out = inputs.get(0).dir();
        else out = ctx.resolve("out").resolve("plots");
        if (Files.exists(out) && !Files.isDirectory(out)) throw new ConfigException("plot: --out " + out + " exists and is not a directory");
        OutputPaths.checkDir("plot: --out", out);
        for (Input in : inputs) {
            if (in.kind() != Kind.RUNS) refuseMixedPoints("plot", in.arg(), in.dir(), in.kind() == Kind.SWEEP);
            if (in.kind() == Kind.SWEEP) checkAgainstPoints(in.dir(), SweepCommand.CSV, "point");
            if (in.kind() == Kind.HYBRID) checkAgainstPoints(in.dir(), HybridTable.FILE_NAME, "code");
        }

        int tables = 0;
        for (Input in : inputs) if (in.kind() != Kind.RUNS) tables++;
        List<Plots.Saved> saved = new ArrayList<>();
        List<RunMetrics> runs = new ArrayList<>();
        List<CsvTable> hybridTables = new ArrayList<>();
        List<Path> hybridDirs = new ArrayList<>();
        for (Input in : inputs) {
            String prefix = tables > 1 || (tables == 1 && inputs.size() > 1) ? BatchOptions.safeName(in.dir().getFileName().toString()) + "-" : "";
            switch (in.kind()) {
                case HYBRID -> {
                    CsvTable t = read(ctx, in.dir().resolve(HybridTable.FILE_NAME));
                    hybridTables.add(t);
                    hybridDirs.add(in.dir());
                    saved.addAll(Figures.ofHybridTable(t, in.dir(), out, prefix));
                }
                case SWEEP -> {
                    CsvTable t = read(ctx, in.dir().resolve(SweepCommand.CSV));
                    saved.addAll(Figures.ofSweepTable(t, experiment(in.dir(), t), in.dir(), out, prefix));
                }
                case RUNS -> {
                    for (Path r : in.runs()) {
                        try {
                            runs.add(RunMetrics.read(r));
                        } catch (IOException e) {
                            throw new ConfigException("plot: " + r + ": cannot read " + SummaryJson.FILE_NAME + ": "
                                    + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
                        }
                    }
                }
            }
        }
        if (!runs.isEmpty()) {
            List<Setting> settings = new ArrayList<>();
            for (RunMetrics m : runs) settings.add(new Setting(BatchOptions.display(ctx, m.dir()), m.fabric(), m.workload()));
            refuseMixed(settings, "runs");
            refuseNothingCommitted(ctx, runs);
            saved.addAll(Figures.ofRuns(runs, out, ""));
        }
        if (hybridTables.size() > 1) {
            List<Setting> settings = new ArrayList<>();
            for (Path d : hybridDirs) {
                for (Path r : MergeCommand.resultDirs(d)) {
                    try {
                        RunMetrics m = RunMetrics.read(r);
                        settings.add(new Setting(BatchOptions.display(ctx, d), m.fabric(), m.workload()));
                        break;
                    } catch (IOException e) {
                        // unreadable: the table's own check names it
                    }
                }
            }
            // workloads get a row of panels each in the protocols figure; fabrics must not mix
            refuseMixed(settings.stream().map(x -> new Setting(x.where(), x.fabric(), "")).toList(), "enumerations");
        }
        if (hybridTables.size() > 1) { // several enumerations: RCC Fig. 14's comparison of the protocols
            Figures.Figure f = Figures.protocols(hybridTables, hybridDirs, "");
            if (f != null) saved.addAll(Figures.save(List.of(f), out));
        }
        for (Plots.Saved s : saved) {
            ctx.out().println("wrote " + BatchOptions.display(ctx, s.png()) + " and " + s.svg().getFileName());
        }
        return Exit.OK;
    }

    /**
     * Runs none of which committed a transaction in its measured window: every figure of them would be empty (a stage's
     * time per committed transaction has nothing to divide by), so one line says so rather than a chart of nothing. A run
     * without commits among others is drawn with the others (an empty bar beside theirs).
     */
    private static void refuseNothingCommitted(Context ctx, List<RunMetrics> runs) {
        List<String> dirs = new ArrayList<>();
        for (RunMetrics m : runs) {
            if (m.commits() > 0) return;
            dirs.add(BatchOptions.display(ctx, m.dir()));
        }
        throw new ConfigException("plot: " + (dirs.size() == 1 ? dirs.get(0) + " committed no transaction" : "none of these runs ("
                + String.join(", ", dirs) + ") committed a transaction") + " in its measured window (" + SummaryJson.FILE_NAME + ": commits 0), so there is nothing"
                + " to draw; run again with a longer " + Config.DURATION_MS.key() + " (or " + Config.WARMUP_MS.key()
                + "), or see the run's warnings for why");
    }

    /** Where a result came from, and the settings that make results incomparable on one axis. */
    private record Setting(String where, String fabric, String workload) {}

    /**
     * Refuses results of different fabrics or workloads in one figure (a tcp run at 30 ms flattens sim runs at
     * 30 us): one line naming what differs and an example of each value.
     */
    private static void refuseMixed(List<Setting> settings, String what) {
        for (String key : List.of(Config.FABRIC.key(), Config.WORKLOAD)) {
            java.util.Map<String, String> example = new java.util.LinkedHashMap<>();
            for (Setting x : settings) example.putIfAbsent(key.equals(Config.FABRIC.key()) ? x.fabric() : x.workload(), x.where());
            if (example.size() < 2) continue;
            List<String> parts = new ArrayList<>();
            for (var e : example.entrySet()) parts.add(e.getKey() + " (" + e.getValue() + ")");
            throw new ConfigException("plot: these " + what + " differ in " + key + ": " + String.join(", ", parts)
                    + "; their figures do not share an axis: plot each " + key + "'s results separately");
        }
    }

    /** The table's rows that did not fail (failed sweep points have no figures to draw). */
    private static CsvTable read(Context ctx, Path csv) {
        try {
            CsvTable t = CsvTable.read(csv);
            int failed = t.column(ResultTable.FAILED);
            if (failed >= 0) {
                List<List<String>> ok = new ArrayList<>();
                List<String> left = new ArrayList<>();
                for (List<String> row : t.rows()) {
                    if (row.get(failed).isBlank()) ok.add(row);
                    else left.add(row.get(0));
                }
                if (!left.isEmpty()) {
                    ctx.err().println("plot: " + BatchOptions.display(ctx, csv) + ": left out " + left.size() + " failed point"
                            + (left.size() == 1 ? "" : "s") + ": " + String.join(", ", left));
                }
                t = new CsvTable(t.header(), ok);
            }
            if (t.rows().isEmpty()) throw new ConfigException("plot: " + csv + " has no rows (no finished results)");
            return t;
        } catch (IOException e) {
            throw new ConfigException("plot: " + csv + ": cannot read: " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
        }
    }

    /**
     * Refuses a sweep.csv or hybrid.csv that does not match the result directories beside it (a table left
     * from another sweep, or points rerun since): every row's throughput must be the mean of its runs' summary.json.
     */
    static void checkAgainstPoints(Path dir, String file, String keyColumn) throws IOException {
        Path csv = dir.resolve(file);
        CsvTable t;
        try {
            t = CsvTable.read(csv);
        } catch (IOException e) {
            throw new ConfigException("plot: " + csv + ": cannot read: " + OutputPaths.reason(e));
        }
        List<Path> children = MergeCommand.resultDirs(dir);
        int failedCol = t.column(ResultTable.FAILED);
        for (int r = 0; r < t.rows().size(); r++) {
            if (failedCol >= 0 && !t.rows().get(r).get(failedCol).isBlank()) continue;
            String key = t.get(r, keyColumn);
            List<RunMetrics> runs = new ArrayList<>();
            for (Path c : children) {
                String name = c.getFileName().toString();
                boolean mine = keyColumn.equals("point")
                        ? name.equals(key) || name.matches(java.util.regex.Pattern.quote(key) + ",seed=-?[0-9]+")
                        : name.matches("hybrid=0*" + java.util.regex.Pattern.quote(key) + "(,seed=-?[0-9]+)?");
                if (!mine) continue;
                try {
                    RunMetrics m = RunMetrics.read(c);
                    // one run per seed: a seed's run under both names (NAME and NAME,seed=S) counts once, as the table counts it
                    if (runs.stream().noneMatch(x -> x.seed() == m.seed())) runs.add(m);
                } catch (IOException e) {
                    throw new ConfigException("plot: " + c + ": cannot read " + SummaryJson.FILE_NAME + ": "
                            + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
                }
            }
            String where = "plot: " + csv + " does not match the results beside it: " + keyColumn + " " + key + ": ";
            String fix = "; rerun the command that made it: it reuses every finished run and rewrites the table from all the runs in the directory";
            if (runs.size() != (int) t.number(r, "runs")) {
                throw new ConfigException(where + (int) t.number(r, "runs") + " runs in the table, " + runs.size() + " seeds in result directories" + fix);
            }
            double sum = 0;
            for (RunMetrics m : runs) sum += m.throughputTps();
            double mean = sum / runs.size(), inTable = t.number(r, "throughput_tps");
            if (!(Math.abs(mean - inTable) <= 1e-3 + 1e-9 * Math.abs(mean))) {
                throw new ConfigException(where + "throughput_tps " + t.get(r, "throughput_tps") + " in the table, "
                        + String.format(java.util.Locale.ROOT, "%.3f", mean) + " in its summary.json" + fix);
            }
        }
    }

    /**
     * A sweep's figures' title: what the experiment is, from its config (protocol, workload, cluster, fabric; keys the
     * sweep varies left out, as its axes show them), not the output directory's name; and, when every point ran one
     * seed, which seed and that there are no confidence intervals.
     */
    static String experiment(Path dir, CsvTable t) throws IOException {
        List<String> varied = org.rccj.experiments.Provenance.varied(dir);
        if (varied == null) {
            varied = new ArrayList<>();
            for (String k : t.keyColumns()) if (!k.equals("point")) varied.add(k);
        }
        com.fasterxml.jackson.databind.JsonNode c = null;
        for (Path r : MergeCommand.resultDirs(dir)) {
            try {
                c = RunMetrics.read(r).config();
                break;
            } catch (IOException e) {
                // the next one
            }
        }
        if (c == null) return dir.getFileName().toString();
        List<String> parts = new ArrayList<>();
        String protocol = varied.contains("protocol") ? "" : c.path("protocol").asText("");
        String hybrid = varied.contains("hybrid") ? "" : c.path("hybrid").asText("");
        String workload = varied.contains("workload.name") || varied.contains("workload") ? "" : c.path("workload").path("name").asText("");
        String head = (protocol + (hybrid.isEmpty() ? "" : " " + hybrid)).strip();
        if (!workload.isEmpty()) head = head.isEmpty() ? workload : head + " on " + workload;
        List<String> shape = new ArrayList<>();
        for (String k : List.of("nodes", "threads", "coroutines")) if (!varied.contains(k)) shape.add(c.path(k).asText("?") + " " + k);
        if (!shape.isEmpty()) parts.add(String.join(" x ", shape));
        if (!varied.contains("fabric")) parts.add(c.path("fabric").asText("sim"));
        boolean oneSeed = true;
        for (int r = 0; r < t.rows().size(); r++) oneSeed &= t.number(r, "runs") <= 1;
        if (oneSeed && !varied.contains("seed")) parts.add("one seed per point: seed " + c.path("seed").asText("?") + ", no CI");
        return head + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")");
    }

    /**
     * Refuses a sweep's or an enumeration's directory whose points differ in config beyond what it varies (older
     * versions bound a directory to its config only when a command finished: an interrupted one resumed with another
     * config mixed two experiments), naming every key that differs and where.
     */
    static void refuseMixedPoints(String cmd, String arg, Path dir, boolean sweep) throws IOException {
        List<String> varied = org.rccj.experiments.Provenance.varied(dir);
        if (varied == null) {
            varied = new ArrayList<>();
            if (sweep) {
                for (String k : CsvTable.read(dir.resolve(SweepCommand.CSV)).keyColumns()) if (!k.equals("point")) varied.add(k);
            }
        }
        if (!sweep && !varied.contains(org.rccj.framework.run.Config.HYBRID.key())) varied.add(org.rccj.framework.run.Config.HYBRID.key());
        List<String> mixed = org.rccj.experiments.Provenance.mixedPoints(MergeCommand.resultDirs(dir), varied);
        if (mixed.isEmpty()) return;
        throw new ConfigException(cmd + ": " + arg + ": its points differ in config beyond what it varies (" + String.join(", ", varied)
                + "): " + String.join("; ", mixed) + "; they are not one experiment (a directory resumed with another config): rerun"
                + " the command into a new --out, or remove the points of the other config");
    }

    private static Input classify(Context ctx, String arg) throws IOException {
        Path dir = Seeds.hybridAlias(ctx.resolve(arg)); // hybrid=0 names hybrid=00 and back
        if (!Files.exists(dir)) throw new ConfigException("plot: " + arg + ": no such directory");
        if (!Files.isDirectory(dir)) throw new ConfigException("plot: " + arg + ": not a directory (give result directories)");
        if (Files.isRegularFile(dir.resolve(HybridTable.FILE_NAME))) return new Input(dir, arg, Kind.HYBRID, List.of());
        if (Files.isRegularFile(dir.resolve(SweepCommand.CSV))) return new Input(dir, arg, Kind.SWEEP, List.of());
        if (RunMetrics.isResultDir(dir)) return new Input(dir, arg, Kind.RUNS, List.of(dir));
        // a directory of run directories: only the user's own, and never a directory every user writes in (/tmp)
        if (sharedByAll(dir)) {
            throw new ConfigException("plot: " + arg + " is a directory every user writes in and holds no results itself; give the result"
                    + " directories in it (runs, sweeps or enumerations), e.g. rcc plot " + dir.resolve("RUN"));
        }
        List<Path> children = new ArrayList<>();
        for (Path c : MergeCommand.resultDirs(dir)) if (ownedByMe(c)) children.add(c);
        if (children.isEmpty()) {
            throw new ConfigException("plot: " + arg + " has no results (no " + SummaryJson.FILE_NAME + ", " + SweepCommand.CSV + " or "
                    + HybridTable.FILE_NAME + ", nor run directories of yours inside)");
        }
        return new Input(dir, arg, Kind.RUNS, children);
    }

    /** Whether every user may write in {@code dir} (as in /tmp): its run directories would be anyone's. */
    private static boolean sharedByAll(Path dir) {
        try {
            return Files.getPosixFilePermissions(dir).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Whether {@code p} belongs to the user running rcc (true where owners are unknown). */
    private static boolean ownedByMe(Path p) {
        try {
            return Files.getOwner(p).getName().equals(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException e) {
            return true;
        }
    }
}
