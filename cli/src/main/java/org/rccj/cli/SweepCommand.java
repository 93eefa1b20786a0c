package org.rccj.cli;

import org.rccj.experiments.Seeds;
import org.rccj.experiments.Sweep;
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
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.results.ConsoleReport;
import org.rccj.results.ResultTable;
import org.rccj.results.RunMetrics;
import org.rccj.results.StudentT;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.Batch;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;

/**
 * {@code rcc sweep CONFIG --vary key=v1,v2,... [--vary ...] [--repeat N] [--jobs J] [--set k=v]... [--out DIR]}:
 * runs the cartesian product of the varied values (first --vary outermost), one result directory per point
 * and seed, and writes {@code sweep.csv}.
 */
final class SweepCommand implements Command {
    static final String USAGE = "rcc sweep CONFIG --vary key=v1,v2,... [--vary ...] [--repeat N] [--jobs J] [--set key=value]... [--out DIR]";
    static final String CSV = Provenance.SWEEP_CSV;

    static final Options OPTIONS = BatchOptions.common(new Options()
            .addOption(Option.builder("v").longOpt("vary").hasArg().argName("key=v1,v2,...").desc("a key and its values").build()));

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("sweep", OPTIONS, args);
        Path file = BatchOptions.configFile("sweep", cl, ctx, USAGE);
        List<Sweep.Vary> varies = parseVaries(cl.getOptionValues("vary"));
        int repeat = BatchOptions.repeat("sweep", cl);
        int jobs = BatchOptions.jobs("sweep", cl);
        for (Sweep.Vary v : varies) {
            if (v.key().equals(Config.SEED.key()) && repeat > 1) {
                throw new ConfigException("sweep: --vary seed and --repeat " + repeat + " both choose seeds; use one of them");
            }
        }
        Set<String> notes = new java.util.LinkedHashSet<>();
        Map<String, Object> base = BatchOptions.tree(file, cl.getOptionValues("set"), notes::add);
        Config baseConfig = BatchOptions.resolve("sweep", base);
        Path out = BatchOptions.out(cl, ctx, baseConfig.name() + "-sweep");
        Batch.checkOutDir("sweep", out);
        Provenance.Made made = new Provenance.Made("sweep", baseConfig.toMap(), varies.stream().map(Sweep.Vary::key).toList());
        Provenance.check(made, out, cl.hasOption("force"));

        // every point's config is resolved (and so checked) before anything runs
        Sweep.Plan plan = Sweep.plan(base, varies, repeat, out, notes);
        List<Sweep.Combo> combos = plan.combos();
        List<String> pointNames = plan.names();
        List<List<Batch.Point>> pointRuns = plan.runs();
        List<Batch.Point> all = plan.all();
        OutputPaths.checkDir("--out", out);
        for (String n : notes) ctx.err().println("rcc: note: " + n);
        // the table is rewritten from the points of this sweep; an old one must not outlive an interruption
        Files.deleteIfExists(out.resolve(CSV));
        // bound to this config from the first point on: an interrupted sweep's directory refuses another config
        Provenance.write(out, made, args);

        ctx.err().println("sweep '" + baseConfig.name() + "': " + combos.size() + " points" + (repeat > 1 ? " x " + repeat + " seeds" : "")
                + " over " + String.join(", ", varies.stream().map(Sweep.Vary::key).toList()) + " -> " + BatchOptions.display(ctx, out));
        List<Batch.Done> done = Batch.run("sweep", all, jobs, ctx);

        Map<Path, Batch.Done> byDir = new LinkedHashMap<>();
        for (Batch.Done d : done) byDir.put(d.point().dir(), d);
        List<String> keyColumns = new ArrayList<>();
        keyColumns.add("point");
        for (Sweep.Vary v : varies) keyColumns.add(v.key());
        boolean addProtocol = !keyColumns.contains(Config.PROTOCOL.key()), addHybrid = !keyColumns.contains(Config.HYBRID.key());
        if (addProtocol) keyColumns.add(Config.PROTOCOL.key());
        if (addHybrid) keyColumns.add(Config.HYBRID.key());
        List<ResultTable.Row> rows = new ArrayList<>();
        for (int i = 0; i < combos.size(); i++) {
            List<String> keys = new ArrayList<>();
            keys.add(pointNames.get(i));
            keys.addAll(combos.get(i).values());
            Config c = pointRuns.get(i).get(0).config();
            if (addProtocol) keys.add(c.protocol());
            if (addHybrid) keys.add(c.hybrid().spelled());
            List<RunMetrics> runs = new ArrayList<>();
            String failed = null;
            for (Batch.Point p : pointRuns.get(i)) {
                Batch.Done d = byDir.get(p.dir());
                if (d.ok()) runs.add(d.metrics());
                else if (failed == null) failed = (repeat > 1 ? p.name() + ": " : "") + d.failed();
            }
            // every seed of the point found in DIR, once (adding repeats reuses what is there; the table counts it all)
            if (failed == null) runs = Seeds.all(out, pointNames.get(i), c, runs);
            rows.add(failed == null ? new ResultTable.Row(keys, runs) : new ResultTable.Row(keys, List.of(), failed));
        }
        Path csv = out.resolve(CSV);
        ResultTable.write(csv, ResultTable.csv(keyColumns, rows));
        Provenance.write(out, made, args);

        printTable(ctx, rows, repeat > 1);
        ctx.out().println("results: " + BatchOptions.display(ctx, csv) + " (" + rows.size() + " points) and one directory per "
                + (repeat > 1 ? "point and seed" : "point") + " in " + BatchOptions.display(ctx, out));
        return Batch.exitCode("sweep", ctx, done);
    }

    static List<Sweep.Vary> parseVaries(String[] specs) {
        if (specs == null || specs.length == 0) {
            throw new ConfigException("sweep: missing --vary key=v1,v2,... (at least one); usage: " + USAGE);
        }
        List<Sweep.Vary> out = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            String key = eq < 0 ? "" : spec.substring(0, eq).strip();
            if (eq < 0 || key.isEmpty()) {
                throw new ConfigException("sweep: --vary " + spec + ": expected key=v1,v2,... with a dotted config key, e.g. --vary coroutines=1,3,5");
            }
            for (String part : key.split("\\.", -1)) {
                if (part.isBlank()) throw new ConfigException("sweep: --vary " + spec + ": empty part in key '" + key + "'");
            }
            if (!keys.add(key)) throw new ConfigException("sweep: --vary " + key + " given twice; list all its values in one --vary");
            List<String> values = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (String v : spec.substring(eq + 1).split(",", -1)) {
                String s = v.strip();
                if (s.isEmpty()) throw new ConfigException("sweep: --vary " + spec + ": empty value; expected key=v1,v2,...");
                if (!seen.add(s)) throw new ConfigException("sweep: --vary " + spec + ": value " + s + " is listed twice");
                values.add(s);
            }
            out.add(new Sweep.Vary(key, values));
        }
        return out;
    }

    private static void printTable(Context ctx, List<ResultTable.Row> rows, boolean ci) {
        int w = 5;
        for (ResultTable.Row r : rows) w = Math.max(w, r.keys().get(0).length());
        String fmt = "%-" + w + "s %4s %16s %18s %12s %9s";
        ctx.out().println(String.format(Locale.ROOT, fmt, "point", "runs", "throughput", "latency_mean_us", "p99_us", "abort%"));
        for (ResultTable.Row r : rows) {
            if (r.failed() != null) {
                ctx.out().println(String.format(Locale.ROOT, "%-" + w + "s FAILED: %s", r.keys().get(0), r.failed()));
                continue;
            }
            double[] tps = new double[r.runs().size()], lat = new double[r.runs().size()], p99 = new double[r.runs().size()],
                    ab = new double[r.runs().size()];
            for (int i = 0; i < tps.length; i++) {
                RunMetrics m = r.runs().get(i);
                tps[i] = m.throughputTps();
                lat[i] = m.latencyMeanUs();
                p99[i] = m.latencyP99Us();
                ab[i] = m.abortRate();
            }
            StudentT.Interval t = StudentT.interval95(tps), l = StudentT.interval95(lat);
            String tp = ConsoleReport.human(t.mean(), "/s") + (ci && Double.isFinite(t.halfWidth()) && t.mean() > 0
                    ? String.format(Locale.ROOT, " ±%.1f%%", 100 * t.halfWidth() / t.mean()) : "");
            String lt = String.format(Locale.ROOT, "%.2f", l.mean()) + (ci && Double.isFinite(l.halfWidth())
                    ? String.format(Locale.ROOT, " ±%.2f", l.halfWidth()) : "");
            ctx.out().println(String.format(Locale.ROOT, fmt, r.keys().get(0), r.runs().size(), tp, lt,
                    String.format(Locale.ROOT, "%.2f", StudentT.interval95(p99).mean()),
                    String.format(Locale.ROOT, "%.2f", 100 * StudentT.interval95(ab).mean())));
            Set<String> warnings = new java.util.LinkedHashSet<>();
            for (RunMetrics m : r.runs()) warnings.addAll(m.warnings());
            for (String wn : warnings) ctx.out().println(" ".repeat(w) + " WARNING: " + wn);
        }
    }
}
