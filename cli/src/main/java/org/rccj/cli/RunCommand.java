package org.rccj.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.RunResult;
import org.rccj.primitives.CostProfile;
import org.rccj.results.ConsoleReport;
import org.rccj.results.PathExplain;
import org.rccj.results.ResultWriter;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;
import org.rccj.experiments.Runs;

/** {@code rcc run CONFIG [--set key=value]... [--out DIR] [--explain STAGE]}. */
final class RunCommand implements Command {
    /** Only --set: for commands that read a CONFIG but run nothing (rcc doctor). */
    static final Options OPTIONS_SET_ONLY = new Options()
            .addOption(Option.builder("s").longOpt("set").hasArg().argName("key=value").desc("override a config key").build());

    static final Options OPTIONS = new Options()
            .addOption(Option.builder("s").longOpt("set").hasArg().argName("key=value").desc("override a config key").build())
            .addOption(Option.builder("o").longOpt("out").hasArg().argName("DIR").desc("result directory").build())
            .addOption(Option.builder().longOpt("explain").hasArg().argName("STAGE").desc("after the run, print one op's"
                    + " critical path in STAGE (a stage of the protocol, or outside_stages) term by term, mean and one sample,"
                    + " with the profile parameter each term comes from (sim only)").build())
            .addOption(BatchOptions.FORCE);

    @Override
    public int run(List<String> args, Context ctx) throws IOException {
        CommandLine cl = Args.parse("run", OPTIONS, args);
        List<String> positional = cl.getArgList();
        if (positional.isEmpty()) {
            throw new ConfigException("run: missing CONFIG file; usage: rcc run CONFIG [--set key=value]... [--out DIR]");
        }
        if (positional.size() > 1) {
            throw new ConfigException("run: expected one CONFIG file, got " + positional.size() + ": " + String.join(" ", positional)
                    + " (to override keys use --set key=value)");
        }
        Path file = ctx.resolve(positional.get(0));
        Config config = resolve(file, cl.getOptionValues("set"), n -> ctx.err().println("rcc: note: " + n));

        String explain = cl.hasOption("explain") ? explainStage(config, cl.getOptionValue("explain")) : null;
        Provenance.Made made = new Provenance.Made("run", config.toMap(), List.of());
        Path out = cl.hasOption("out") ? ctx.resolve(requireNonBlank(cl.getOptionValue("out"))) : defaultOut(ctx, config, made);
        String problem = ResultWriter.problemWith(out);
        if (problem != null) throw new ConfigException("--out: " + problem);
        Provenance.check(made, out, cl.hasOption("force"));
        // every output path is checked before the run, so a long run never ends in "cannot write"
        OutputPaths.checkDir("--out", out);
        if (config.history() != null) OutputPaths.checkFile("history", ctx.resolve(config.history()));

        ctx.err().println("running '" + config.name() + "': " + config.protocol() + " hybrid " + config.hybrid().spelled()
                + " (" + config.hybrid().code() + ") on " + config.workloadName() + ", fabric " + config.fabric() + ", "
                + config.nodes() + " nodes x " + config.threads() + " threads x " + config.coroutines() + " coroutines, "
                + (config.autoWarmup() == null ? fmt(config.warmupMs()) + " ms warm-up"
                        : "warm-up until steady (at most " + fmt(config.autoWarmup().boundMs()) + " ms)")
                + " + " + fmt(config.durationMs()) + " ms measured");
        Runs.warnShortWarmup(config, ctx.err());
        RunResult result = ctx.runner().run(config, ctx.err());
        if (result == null) throw new IllegalStateException("the experiment runner returned no result");
        if (result.config == null) result.config = config;
        try {
            ResultWriter.write(result, out);
            Provenance.write(out, made, args);
        } catch (IOException e) {
            ConsoleReport.print(result, ctx.out());
            throw new ConfigException("--out " + out + ": cannot write the results: " + OutputPaths.reason(e) + " (the report above is all that is left)");
        }
        ConsoleReport.print(result, ctx.out());
        if (explain != null) PathExplain.print(result, explain, profile(config), ctx.out());
        ctx.out().println("results: " + display(ctx.cwd(), out));
        if (config.verify() && !result.verification.passed()) {
            ctx.err().println("rcc: " + result.verification.failure());
            return Exit.VERIFICATION_FAILED;
        }
        return Exit.OK;
    }


    /** --explain's STAGE, checked before the run: a stage of the config's protocol or outside_stages, on sim. */
    private static String explainStage(Config config, String stage) {
        if (!config.fabricFactory().virtualTime()) {
            throw new ConfigException("--explain: critical paths are traced on fabric sim only, not on " + config.fabric()
                    + " (run with --set " + Config.FABRIC.key() + "=sim)");
        }
        List<String> names = PathExplain.names(config.hybrid().protocolStages());
        for (String n : names) if (n.equalsIgnoreCase(stage)) return n;
        throw new ConfigException("--explain: '" + stage + "' is not a stage of " + config.protocol() + " (accepted: "
                + String.join(", ", names) + ")");
    }

    /** The run's cost profile for --explain's parameter values, or null when it cannot be read again. */
    private static CostProfile profile(Config config) {
        try {
            return CostProfile.load(String.valueOf(config.fabricSetting("profile")));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** As {@link #resolve(Path, String[], java.util.function.Consumer)}, dropping the notes. */
    static Config resolve(Path file, String[] sets) { return resolve(file, sets, n -> {}); }

    /** Reads CONFIG, applies the --set overrides in order (notes of workload switches go to {@code notes}) and resolves the config. */
    static Config resolve(Path file, String[] sets, java.util.function.Consumer<String> notes) {
        List<String> said = new java.util.ArrayList<>();
        Config c = ConfigResolver.resolve(BatchOptions.tree(file, sets, said::add));
        said.forEach(notes); // only for a config that resolved: bad input stays one line
        return c;
    }

    /**
     * Where a run without {@code --out} writes: {@code out/NAME}, unless that holds results of another config (the
     * demo's, and now the same config on tcp): then the first of {@code out/NAME-2}, {@code out/NAME-3}, ... that is free
     * or holds this config's, with a note. So the README's commands run in order as written.
     */
    static Path defaultOut(Context ctx, Config config, Provenance.Made made) {
        Path base = ctx.resolve("out").resolve(Runs.safeDirName(config.name()));
        for (int i = 1; i < 100; i++) {
            Path p = i == 1 ? base : base.resolveSibling(base.getFileName() + "-" + i);
            try {
                if (ResultWriter.problemWith(p) != null) continue;
                Provenance.check(made, p, false);
            } catch (ConfigException e) {
                continue; // another config's results (or not ours to write): the next name
            }
            if (i > 1) {
                ctx.err().println("rcc: note: " + display(ctx.cwd(), base) + " holds results of another config; this run writes "
                        + display(ctx.cwd(), p) + " (give --out DIR to choose)");
            }
            return p;
        }
        return base; // 99 taken: the check below says why
    }


    private static String requireNonBlank(String v) {
        if (v == null || v.isBlank()) throw new ConfigException("--out: empty directory name");
        return v;
    }

    /** The result directory as the user would type it: relative to the working directory when inside it. */
    private static String display(Path cwd, Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        Path base = cwd.toAbsolutePath().normalize();
        return abs.startsWith(base) && !abs.equals(base) ? base.relativize(abs).toString() : abs.toString();
    }

    private static String fmt(double ms) {
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }
}
