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
import org.rccj.results.Comparison;
import org.rccj.results.CsvTable;
import org.rccj.results.ResultTable;
import org.rccj.results.RunMetrics;
import org.rccj.results.SummaryJson;

/**
 * {@code rcc compare A B [C...]}: runs, sweeps or enumerations side by side ({@link Comparison}). All inputs
 * must be of one kind; the first is the baseline of the relative differences.
 */
final class CompareCommand implements Command {
    static final String USAGE = "rcc compare DIR DIR [DIR...]";
    static final Options OPTIONS = new Options();

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
        Kind kind = null;
        String firstArg = null;
        for (int i = 0; i < dirs.size(); i++) {
            String arg = dirs.get(i);
            Path dir = ctx.resolve(arg);
            Kind k = classify(arg, dir);
            if (kind == null) {
                kind = k;
                firstArg = arg;
            } else if (k != kind) {
                throw new ConfigException("compare: " + firstArg + " is " + kind.what + " but " + arg + " is " + k.what
                        + "; compare runs with runs, sweeps with sweeps, enumerations with enumerations");
            }
            String name = i < 26 ? String.valueOf((char) ('A' + i)) : "I" + (i + 1);
            inputs.add(input(name, arg, dir, k));
        }
        if (Comparison.commonPoints(inputs) == 0) {
            throw new ConfigException("compare: " + firstArg + " shares no point with the others (their varied keys or values differ);"
                    + " compare results of the same sweep or enumeration layout");
        }
        ctx.out().print(Comparison.text(inputs));
        return Exit.OK;
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
                            + m.config().path("hybrid").asText(Integer.toString(m.code())) + ", " + m.fabric() + ", seed " + m.seed()
                            + (m.warned() ? "; warnings: " + String.join("; ", m.warnings()) : "") + ")", t);
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
