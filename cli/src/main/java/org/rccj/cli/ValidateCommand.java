package org.rccj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.experiments.calibrate.Validation;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.primitives.CostProfile;
import org.rccj.results.Plots;
import org.rccj.experiments.Batch;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;

/**
 * {@code rcc validate CONFIG... --fabric F --profile PROFILE [--repeat N]}: each config on the real fabric F and on
 * sim with PROFILE, same seeds; {@link Validation} compares them. The runs go through {@link Batch} (one at a time:
 * a real fabric measures wall-clock time), each into DIR/runs/NAME/FABRIC-sSEED, so an interrupted validation resumes.
 */
final class ValidateCommand implements Command {
    static final String USAGE = "rcc validate CONFIG... --fabric tcp|ucx|local [--tls UCX_TLS] --profile NAME|FILE [--repeat N] [--set key=value]... [--out DIR] [--force]";
    static final String CSV = "validation.csv";
    static final Options OPTIONS = new Options()
            .addOption(Option.builder().longOpt("fabric").hasArg().argName("tcp|ucx|local").desc("the real fabric").build())
            .addOption(BatchOptions.TLS)
            .addOption(Option.builder().longOpt("profile").hasArg().argName("NAME|FILE").desc("the sim profile checked").build())
            .addOption(BatchOptions.REPEAT)
            .addOption(BatchOptions.SET)
            .addOption(BatchOptions.OUT)
            .addOption(BatchOptions.FORCE);

    private record Run(String config, String point, String hybrid, long seed, Batch.Point real, Batch.Point sim) {}

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("validate", OPTIONS, args);
        List<String> files = cl.getArgList();
        if (files.isEmpty()) throw new ConfigException("validate: missing CONFIG files; usage: " + USAGE);
        String fabric = BatchOptions.realFabric("validate", cl, USAGE);
        String tls = BatchOptions.tls(cl);
        if (!cl.hasOption("profile")) throw new ConfigException("validate: missing --profile NAME|FILE (e.g. one written by rcc calibrate); usage: " + USAGE);
        String profile = cl.getOptionValue("profile").strip();
        String given = profile;
        if (!CostProfile.isBuiltIn(profile) && (CostProfile.looksLikeFile(profile) || Files.exists(ctx.resolve(profile)))) {
            profile = ctx.resolve(profile).toAbsolutePath().normalize().toString();
        }
        try {
            CostProfile.load(profile);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("validate: --profile: " + e.getMessage() + (given.equals(profile)
                    ? org.rccj.framework.config.Suggest.didYouMean(given, CostProfile.known()) : ""));
        }
        int repeat = BatchOptions.repeat("validate", cl);
        Path out = BatchOptions.out(cl, ctx, "validate");
        if (Files.exists(out) && !Files.isDirectory(out)) throw new ConfigException("validate: --out " + out + " exists and is not a directory");

        // every config is resolved (and so checked) on both sides before anything runs
        List<Run> runs = new ArrayList<>();
        List<Batch.Point> points = new ArrayList<>();
        Map<String, String> pointLabels = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        Set<String> notes = new java.util.LinkedHashSet<>();
        List<Map<String, Object>> trees = new ArrayList<>();
        for (String f : files) {
            Map<String, Object> tree = BatchOptions.tree(ctx.resolve(f), cl.getOptionValues("set"), notes::add);
            Config c = BatchOptions.resolve("validate", tree);
            if (!names.add(c.name())) throw new ConfigException("validate: two configs are named '" + c.name() + "'; give each its own name");
            trees.add(tree);
            Map<String, Object> key = c.toMap();
            for (String k : List.of(Config.NAME.key(), Config.HYBRID.key(), Config.SEED.key(), Config.FABRIC.key(), "profile")) key.remove(k);
            String label = c.protocol() + " " + c.workloadName() + " " + c.nodes() + "x" + c.threads() + "x" + c.coroutines();
            String point = pointLabels.computeIfAbsent(key.toString(), k -> label + (pointLabels.containsValue(label) ? " #" + (pointLabels.size() + 1) : ""));
            for (int r = 0; r < repeat; r++) {
                long seed = c.seed() + r;
                Map<String, Object> realTree = tree;
                if (!tls.isEmpty()) {
                    realTree = BatchOptions.copy(tree);
                    org.rccj.framework.config.ConfigTree.set(realTree, "ucx.tls", tls);
                }
                Batch.Point real = point(out, realTree, c.name(), fabric, null, seed);
                Batch.Point sim = point(out, tree, c.name(), "sim", profile, seed);
                runs.add(new Run(c.name(), point, c.hybrid().spelled(), seed, real, sim));
                points.add(real);
                points.add(sim);
            }
        }
        for (String n : notes) ctx.err().println("rcc: note: " + n);
        Provenance.Made made = new Provenance.Made("validate", Map.of("fabric", fabric, "tls", tls, "profile", profile, "repeat", repeat), List.of());
        Provenance.check(made, out, cl.hasOption("force"));
        OutputPaths.checkDir("validate: --out", out);
        if (Files.exists(out.resolve(CSV))) OutputPaths.checkFile("validate: " + CSV, out.resolve(CSV));
        Batch.checkPointDirs("validate", points);

        List<Batch.Done> done = Batch.run("validate", points, 1, ctx);
        Map<Batch.Point, Batch.Done> byPoint = new LinkedHashMap<>();
        for (Batch.Done d : done) byPoint.put(d.point(), d);
        List<Validation.Pair> pairs = new ArrayList<>();
        for (Run r : runs) {
            Batch.Done a = byPoint.get(r.real()), b = byPoint.get(r.sim());
            if (a.ok() && b.ok()) pairs.add(new Validation.Pair(r.config(), r.point(), r.hybrid(), r.seed(), a.metrics(), b.metrics()));
        }
        Validation v = new Validation(pairs);
        ctx.out().println("validation: " + fabric + " against sim with profile " + profile + ", " + pairs.size() + " run(s)");
        v.print(ctx.out());
        try {
            Files.writeString(out.resolve(CSV), v.csv());
            Plots.Saved fig = v.figure("sim (" + Path.of(profile).getFileName() + ") against " + fabric + ": throughput per run", out);
            Provenance.write(out, made, args);
            ctx.out().println("csv: " + BatchOptions.display(ctx, out.resolve(CSV)));
            ctx.out().println("figure: " + BatchOptions.display(ctx, fig.png()));
        } catch (IOException e) {
            throw new ConfigException("validate: --out " + out + ": cannot write: " + OutputPaths.reason(e));
        }
        return Batch.exitCode("validate", ctx, done);
    }

    private static Batch.Point point(Path out, Map<String, Object> tree, String name, String fabric, String profile, long seed) {
        Map<String, Object> t = BatchOptions.copy(tree);
        t.put(Config.FABRIC.key(), fabric);
        if (profile != null) t.put("profile", profile);
        if (fabric.equals("sim")) {   // the real fabrics' own settings (tcp.connections, timeouts; ucx.tls)
            t.remove("tcp");
            t.remove("ucx");
        }
        t.put(Config.SEED.key(), seed);
        Config c = BatchOptions.resolve("validate", t);
        return new Batch.Point(name + "/" + fabric + "-s" + seed, c, out.resolve("runs").resolve(BatchOptions.safeName(name)).resolve(fabric + "-s" + seed));
    }
}
