package org.rccj.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.cli.robust.ProfileVariants;
import org.rccj.cli.robust.RobustFigure;
import org.rccj.cli.robust.RobustReport;
import org.rccj.cli.robust.RobustStudy;
import org.rccj.cli.robust.Variant;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.api.Stage;
import org.rccj.hybrid.Shard;
import org.rccj.primitives.CostProfile;
import org.rccj.results.RunMetrics;
import org.rccj.experiments.Batch;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;

/**
 * {@code rcc robust CONFIG ...}: how robust the best hybrid code is to the cost profile ({@link RobustStudy} does the
 * experiment; this class checks the input, runs the study's jobs as resumable result directories through
 * {@link Batch} and writes the tables, the figure and provenance.json).
 */
final class RobustCommand implements Command {
    static final String USAGE = "rcc robust CONFIG [--profiles a,b,...] [--params k1,k2,...] [--perturb 25%] [--budget N] [--repeat K]"
            + " [--jobs J] [--shard i/n | --base-only] [--set key=value]... [--out DIR]";
    static final int DEFAULT_REPEAT = 3;
    /** Where the runs go, one directory per setting, in it one per code and seed. */
    static final String RUNS = "runs";
    /** The perturbed profiles' files. */
    static final String PROFILES = "profiles";
    static final String DEFAULT_PERTURB = "25%";

    static final Options OPTIONS = BatchOptions.common(new Options()
            .addOption(Option.builder().longOpt("profiles").hasArg().argName("a,b,...").desc("other profiles to re-rank the top codes on").build())
            .addOption(Option.builder().longOpt("params").hasArg().argName("k1,k2,...").desc("profile parameters to perturb").build())
            .addOption(Option.builder().longOpt("perturb").hasArg().argName("F").desc("change of each parameter, e.g. 25%").build())
            .addOption(Option.builder().longOpt("budget").hasArg().argName("N").desc("guided search: codes after the probes").build())
            .addOption(Option.builder().longOpt("shard").hasArg().argName("i/n").desc("run the i-th of n shares of the settings").build())
            .addOption(Option.builder().longOpt("base-only").desc("run the base search only (before --shard array jobs)").build()));

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("robust", OPTIONS, args);
        Path file = BatchOptions.configFile("robust", cl, ctx, USAGE);
        double fraction = ProfileVariants.fraction(cl.hasOption("perturb") ? cl.getOptionValue("perturb") : DEFAULT_PERTURB);
        List<ProfileVariants.Param> params = ProfileVariants.params(cl.getOptionValue("params"));
        Integer budget = cl.hasOption("budget") ? BatchOptions.integer("robust", cl, "budget", 0, 0, 1 << 20) : null;
        int repeat = BatchOptions.integer("robust", cl, "repeat", DEFAULT_REPEAT, 1, 1000);
        int jobs = BatchOptions.jobs("robust", cl);
        Shard shard = cl.hasOption("shard") ? Shard.parse(cl.getOptionValue("shard")) : Shard.ALL;
        if (cl.hasOption("base-only") && cl.hasOption("shard")) throw new ConfigException("robust: --base-only and --shard: use one of them");

        Map<String, Object> base = BatchOptions.tree(file, cl.getOptionValues("set"), n -> ctx.err().println("rcc: note: " + n));
        Config baseConfig = BatchOptions.resolve("robust", base);
        if (!baseConfig.fabricFactory().virtualTime()) {
            throw new ConfigException("robust: the config's fabric is " + baseConfig.fabric() + "; robust varies the simulator's cost profile:"
                    + " set fabric: sim (--set fabric=sim)");
        }
        List<Stage> stages = baseConfig.protocolFactory().stages();
        if (stages.isEmpty()) {
            throw new ConfigException("robust: protocol " + baseConfig.protocol() + " has one hybrid code (no stage can be bound either way):"
                    + " nothing to rank; choose a protocol with stages (rcc list)");
        }
        String baseProfile = String.valueOf(base.getOrDefault("profile", baseConfig.toMap().get("profile")));
        ProfileVariants.raw(baseProfile); // a bad base profile: one line before anything
        List<Variant> profiles = profiles(cl.getOptionValue("profiles"), baseProfile, ctx);

        Path out = BatchOptions.out(cl, ctx, baseConfig.name() + "-robust");
        // runs/ or profiles/: a study interrupted before it wrote its tables, resumed
        if (!Files.isDirectory(out.resolve(RUNS)) && !Files.isDirectory(out.resolve(PROFILES))) Batch.checkOutDir("robust", out);
        Provenance.Made made = new Provenance.Made("robust", baseConfig.toMap(), List.of(Config.HYBRID.key(), "profile"));
        Provenance.check(made, out, cl.hasOption("force"));
        OutputPaths.checkDir("--out", out);

        Path runs = out.resolve(RUNS);
        List<Batch.Done> allDone = new ArrayList<>(); // for the exit code: failed runs and failed verification
        RobustStudy.Executor exec = new RobustStudy.Executor() {
            @Override
            public Map<RobustStudy.Job, RunMetrics> run(String phase, List<RobustStudy.Job> js) throws Exception {
                Map<Batch.Point, RobustStudy.Job> points = points(js);
                Map<RobustStudy.Job, RunMetrics> done = new LinkedHashMap<>();
                List<Batch.Done> batch = Batch.run("robust " + phase, new ArrayList<>(points.keySet()), jobs, ctx);
                allDone.addAll(batch);
                for (Batch.Done d : Batch.succeeded(batch)) done.put(points.get(d.point()), d.metrics());
                return done;
            }

            @Override
            public List<RobustStudy.Job> unfinished(List<RobustStudy.Job> js) {
                List<RobustStudy.Job> o = new ArrayList<>();
                for (Map.Entry<Batch.Point, RobustStudy.Job> e : points(js).entrySet()) if (!Batch.finished(e.getKey())) o.add(e.getValue());
                return o;
            }

            private Map<Batch.Point, RobustStudy.Job> points(List<RobustStudy.Job> js) {
                int width = Integer.toString(Stage.mask(stages)).length();
                Map<Batch.Point, RobustStudy.Job> m = new LinkedHashMap<>();
                for (RobustStudy.Job j : js) {
                    Map<String, Object> tree = BatchOptions.copy(base);
                    tree.put("profile", j.variant().profile());
                    tree.put(Config.HYBRID.key(), j.code());
                    tree.put(Config.SEED.key(), j.seed());
                    Config c = BatchOptions.resolve("robust", tree);
                    String name = "hybrid=" + String.format(Locale.ROOT, "%0" + width + "d", j.code()) + ",seed=" + j.seed();
                    Path dir = runs.resolve(j.variant().name()).resolve(name);
                    m.put(new Batch.Point(j.variant().name() + "/" + name, c, dir), j);
                }
                Batch.checkPointDirs("robust", new ArrayList<>(m.keySet()));
                return m;
            }
        };
        RobustStudy.Settings settings = new RobustStudy.Settings(stages, baseProfile, profiles, params, fraction, budget, repeat,
                baseConfig.seed(), out.resolve(PROFILES).toAbsolutePath(), shard, cl.hasOption("base-only"));
        RobustStudy study = new RobustStudy(settings, exec, line -> ctx.err().println(line));
        study.checkShardReady();
        String what = baseConfig.protocol() + " on " + baseConfig.workloadName();
        ctx.err().println("robust '" + baseConfig.name() + "': " + what + ", " + (1 << stages.size()) + " hybrid codes, base profile " + baseProfile
                + ", " + profiles.size() + " other profile" + (profiles.size() == 1 ? "" : "s") + ", " + params.size() + " parameters +-"
                + Math.round(1000 * fraction) / 10.0 + "%, " + repeat + " seed" + (repeat == 1 ? "" : "s") + " -> " + BatchOptions.display(ctx, out));
        RobustStudy.Outcome o = study.run();
        for (String n : o.notes()) ctx.err().println("rcc: note: " + n);
        if (o.standings() == null || !shard.isAll()) {
            ctx.out().println((o.standings() == null ? "base search" : "shard " + shard) + " done in " + BatchOptions.display(ctx, out)
                    + "; run the same command without --base-only/--shard to report (it reuses every finished run)");
            return Batch.exitCode("robust", ctx, allDone);
        }
        Files.createDirectories(out);
        RobustReport.write(out, o);
        RobustFigure.write(out, o, what);
        Provenance.write(out, made, args);
        RobustReport.print(ctx.out(), o, repeat);
        ctx.out().println();
        ctx.out().println("verdict: " + RobustReport.verdict(o));
        ctx.out().println("results: " + BatchOptions.display(ctx, out.resolve(RobustReport.ROBUST_CSV)) + ", " + RobustReport.CODES_CSV + ", "
                + RobustReport.TIPPING_CSV + ", " + RobustReport.BASE_CSV + ", " + RobustFigure.BASE + ".png/.svg");
        return Batch.exitCode("robust", ctx, allDone);
    }

    static String help() {
        return "usage: " + USAGE + "\n\n"
                + "How robust is the best hybrid code of CONFIG's protocol and workload (fabric sim)? Step 1 finds the winner\n"
                + "under the config's profile (every code, or guided search with --budget N codes after the pure probes, as\n"
                + "rcc enumerate --strategy guided). Step 2 re-ranks the top codes (the best " + RobustStudy.TOP + " plus all-rpc and\n"
                + "all-onesided) under each --profiles profile and with each parameter of --params scaled by 1-F and 1+F,\n"
                + "one at a time. Step 3 bisects every change that flips the winner down to " + Math.round(100 * RobustStudy.RESOLUTION)
                + "% of the parameter: the smallest\n"
                + "change that flips it, and to which code. A code is within noise of the top when the top code's margin over\n"
                + "it is below " + Math.round(100 * org.rccj.cli.robust.Standing.MIN_MARGIN) + "% or the margin's 95% CI reaches 0 (the two codes' relative 95% half-widths\n"
                + "over the seeds in quadrature); the base winner 'holds' while it is within noise of the top.\n\n"
                + "options:\n"
                + "      --profiles a,b,...    built-in profiles or files (e.g. from rcc calibrate) to re-rank on\n"
                + "      --params k1,k2,...    parameters to perturb (default: wire and NIC rates, CPU costs, QP cache,\n"
                + "                            loopback, coroutine switch: " + String.join(", ", ProfileVariants.DEFAULT_PARAMS.subList(0, 2).stream().map(ProfileVariants.Param::key).toList()) + ",\n"
                + "                            " + String.join(", ", ProfileVariants.DEFAULT_PARAMS.subList(2, 5).stream().map(ProfileVariants.Param::key).toList()) + ",\n"
                + "                            " + String.join(", ", ProfileVariants.DEFAULT_PARAMS.subList(5, 8).stream().map(ProfileVariants.Param::key).toList()) + ",\n"
                + "                            " + String.join(", ", ProfileVariants.DEFAULT_PARAMS.subList(8, ProfileVariants.DEFAULT_PARAMS.size()).stream()
                        .map(ProfileVariants.Param::key).toList()) + ")\n"
                + "      --perturb F           the change, in (0, 90%] (default " + DEFAULT_PERTURB + ")\n"
                + "      --budget N            guided search for the base winner (default: every code)\n"
                + "      --repeat K            seeds per code and setting (default " + DEFAULT_REPEAT + "; 1 gives no CI)\n"
                + "  -j, --jobs J              runs in parallel (default: the number of cores)\n"
                + "      --base-only           run step 1 only (first job of a cluster array)\n"
                + "      --shard i/n           run steps 2-3 for the i-th of n shares of the settings (after --base-only);\n"
                + "                            then the same command without --shard reuses every run and reports\n"
                + "  -s, --set key=value       override a config key\n"
                + "  -o, --out DIR             output directory (default out/<name>-robust)\n"
                + "      --force               write into a directory made by something else\n\n"
                + "Writes DIR/robust.csv (a row per setting: winner, margin over the runner-up and its 95% CI, within_noise,\n"
                + "whether the base winner holds), codes.csv (every top code under every setting), tipping.csv, base.csv,\n"
                + "verdict.txt, robust.png/.svg, provenance.json; runs in DIR/runs/SETTING/hybrid=NN,seed=S, profiles in\n"
                + "DIR/profiles. Resumable: the same command reuses every finished run.\n\n"
                + "examples:\n"
                + "  ./rcc robust examples/smallbank-occ.yaml --budget 2 --params cpu.rpc_dispatch_ns --profiles cx6-hdr --repeat 2 --out out/occ-robust\n"
                + "  ./rcc robust examples/smallbank-occ.yaml --set protocol=mvcc --budget 4 --params cpu.rpc_dispatch_ns,cpu.doorbell_ns --perturb 50% --repeat 2 --jobs 2\n\n"
                + Help.exitCodes();
    }

    /** The --profiles list as variants (each loads, or a one-line error); the base profile and repeats are refused. */
    private static List<Variant> profiles(String spec, String baseProfile, Context ctx) {
        List<Variant> out = new ArrayList<>();
        if (spec == null) return out;
        Set<String> names = new HashSet<>();
        for (String raw : spec.split(",", -1)) {
            String p = raw.strip();
            if (p.isEmpty()) throw new ConfigException("robust: --profiles " + spec + ": empty name; expected a,b,... (built-in names or profile files)");
            if (p.equals(baseProfile)) throw new ConfigException("robust: --profiles: " + p + " is the config's own profile (the base); list other profiles");
            if (!CostProfile.isBuiltIn(p) && Files.isRegularFile(ctx.resolve(p))) p = ctx.resolve(p).toAbsolutePath().toString();
            ProfileVariants.raw(p);
            String name = BatchOptions.safeName(Path.of(p).getFileName().toString().replaceFirst("\\.properties$", ""));
            if (!names.add(name)) throw new ConfigException("robust: --profiles: two profiles named " + name + "; rename one file");
            out.add(Variant.profile(name, p));
        }
        return out;
    }
}
