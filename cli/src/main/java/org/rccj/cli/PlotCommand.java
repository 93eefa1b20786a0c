package org.rccj.cli;

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
import org.rccj.results.RunMetrics;
import org.rccj.results.SummaryJson;

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
                    CsvTable t = read(in.dir().resolve(HybridTable.FILE_NAME));
                    hybridTables.add(t);
                    hybridDirs.add(in.dir());
                    saved.addAll(Figures.ofHybridTable(t, in.dir(), out, prefix));
                }
                case SWEEP -> saved.addAll(Figures.ofSweepTable(read(in.dir().resolve(SweepCommand.CSV)),
                        in.dir().getFileName().toString(), in.dir(), out, prefix));
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
        if (!runs.isEmpty()) saved.addAll(Figures.ofRuns(runs, out, ""));
        if (hybridTables.size() > 1) { // several enumerations: RCC Fig. 14's comparison of the protocols
            Figures.Figure f = Figures.protocols(hybridTables, hybridDirs, "");
            if (f != null) saved.addAll(Figures.save(List.of(f), out));
        }
        for (Plots.Saved s : saved) {
            ctx.out().println("wrote " + BatchOptions.display(ctx, s.png()) + " and " + s.svg().getFileName());
        }
        return Exit.OK;
    }

    private static CsvTable read(Path csv) {
        try {
            CsvTable t = CsvTable.read(csv);
            if (t.rows().isEmpty()) throw new ConfigException("plot: " + csv + " has no rows (no finished results)");
            return t;
        } catch (IOException e) {
            throw new ConfigException("plot: " + csv + ": cannot read: " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
        }
    }

    private static Input classify(Context ctx, String arg) throws IOException {
        Path dir = ctx.resolve(arg);
        if (!Files.exists(dir)) throw new ConfigException("plot: " + arg + ": no such directory");
        if (!Files.isDirectory(dir)) throw new ConfigException("plot: " + arg + ": not a directory (give result directories)");
        if (Files.isRegularFile(dir.resolve(HybridTable.FILE_NAME))) return new Input(dir, arg, Kind.HYBRID, List.of());
        if (Files.isRegularFile(dir.resolve(SweepCommand.CSV))) return new Input(dir, arg, Kind.SWEEP, List.of());
        if (RunMetrics.isResultDir(dir)) return new Input(dir, arg, Kind.RUNS, List.of(dir));
        List<Path> children = MergeCommand.resultDirs(dir);
        if (children.isEmpty()) {
            throw new ConfigException("plot: " + arg + " has no results (no " + SummaryJson.FILE_NAME + ", " + SweepCommand.CSV + " or "
                    + HybridTable.FILE_NAME + ", nor run directories inside)");
        }
        return new Input(dir, arg, Kind.RUNS, children);
    }
}
