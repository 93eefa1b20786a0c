package org.rccj.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.experiments.robust.ProfileVariants;
import org.rccj.experiments.robust.RobustFigure;
import org.rccj.experiments.robust.RobustReport;
import org.rccj.experiments.robust.RobustStudy;
import org.rccj.experiments.robust.RobustRun;
import org.rccj.experiments.robust.Variant;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.api.Stage;
import org.rccj.hybrid.Shard;
import org.rccj.experiments.Batch;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;

/**
 * {@code rcc robust CONFIG ...}: how robust the best hybrid code is to the cost profile. Parses and prints; the study
 * ({@link RobustStudy}) and its runs ({@link RobustRun}: resumable result directories through {@link Batch}) live in
 * the experiments module.
 */
final class RobustCommand implements Command {
    static final String USAGE = "rcc robust CONFIG [--from ENUMERATION_DIR] [--profiles a,b,...] [--params k1,k2,...] [--perturb 25%] [--budget N]"
            + " [--repeat K] [--jobs J] [--shard i/n | --base-only] [--set key=value]... [--out DIR]";
    static final int DEFAULT_REPEAT = 3;
    static final String DEFAULT_PERTURB = "25%";

    static final Options OPTIONS = BatchOptions.common(new Options()
            .addOption(Option.builder().longOpt("from").hasArg().argName("DIR").desc("the base ranking from this enumeration's results").build())
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
        Path from = null;
        if (cl.hasOption("from")) {
            if (budget != null) throw new ConfigException("robust: --from and --budget: the enumeration is the base ranking; use one of them");
            if (cl.hasOption("base-only")) throw new ConfigException("robust: --from and --base-only: the enumeration is the base search; drop --base-only");
            String v = cl.getOptionValue("from");
            if (v == null || v.isBlank()) throw new ConfigException("robust: --from: empty directory name");
            from = ctx.resolve(v.strip());
        }

        Map<String, Object> base = BatchOptions.tree(file, cl.getOptionValues("set"), n -> ctx.err().println("rcc: note: " + n));
        Config baseConfig = RobustRun.baseConfig(base);
        List<Stage> stages = baseConfig.protocolFactory().stages();
        String baseProfile = RobustRun.baseProfile(base, baseConfig);
        List<Variant> profiles = RobustRun.profiles(cl.getOptionValue("profiles"), baseProfile, ctx);
        if (from != null) RobustRun.enumeration(from, baseConfig); // a different config: one line before anything

        Path out = BatchOptions.out(cl, ctx, baseConfig.name() + "-robust");
        // runs/ or profiles/: a study interrupted before it wrote its tables, resumed
        if (!Files.isDirectory(out.resolve(RobustRun.RUNS)) && !Files.isDirectory(out.resolve(RobustRun.PROFILES))) Batch.checkOutDir("robust", out);
        Provenance.Made made = new Provenance.Made("robust", baseConfig.toMap(), List.of(Config.HYBRID.key(), RobustRun.PROFILE));
        Provenance.check(made, out, cl.hasOption("force"));
        OutputPaths.checkDir("--out", out);

        List<Batch.Done> allDone = new ArrayList<>(); // for the exit code: failed runs and failed verification
        RobustRun.Request request = new RobustRun.Request(base, baseConfig, baseProfile, profiles, params, fraction, budget, repeat, jobs,
                shard, cl.hasOption("base-only"), out, from);
        RobustStudy study = RobustRun.study(request, ctx, allDone);
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
        RobustRun.write(out, o, what);
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
                + "it is below " + Math.round(100 * org.rccj.experiments.robust.Standing.MIN_MARGIN) + "% or the margin's 95% CI reaches 0 (the two codes' relative 95% half-widths\n"
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
                + "      --budget N            guided search for the base winner (default: every code); the report names\n"
                + "                            the codes it did not rank\n"
                + "      --from DIR            the base ranking from an rcc enumerate directory of the same config (its\n"
                + "                            runs are reused, step 1 runs nothing; a different config is refused)\n"
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
}
