package org.rccj.experiments.robust;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rccj.experiments.Batch;
import org.rccj.experiments.ConfigTrees;
import org.rccj.experiments.Context;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.hybrid.CodeResult;
import org.rccj.hybrid.HybridTable;
import org.rccj.hybrid.Shard;
import org.rccj.primitives.CostProfile;
import org.rccj.results.RunMetrics;

/**
 * {@code rcc robust} as a library call: the base config checked, the study's runs laid out as resumable result
 * directories ({@code OUT/runs/SETTING/hybrid=NN,seed=S}) and run through {@link Batch}, the base ranking taken from
 * an existing enumeration when asked ({@link #enumeration}), and the report written. The command parses and prints.
 */
public final class RobustRun {
    /** Where the runs go, one directory per setting, in it one per code and seed. */
    public static final String RUNS = "runs";
    /** The perturbed profiles' files. */
    public static final String PROFILES = "profiles";
    /** The fabric key naming the cost profile (sim's). */
    public static final String PROFILE = "profile";

    private RobustRun() {}

    /**
     * What to run. @param base the config tree (file and --set); @param budget null: every code, else guided search;
     * @param from null, or an enumeration's directory whose results are the base ranking (step 1 is then not run)
     */
    public record Request(Map<String, Object> base, Config baseConfig, String baseProfile, List<Variant> profiles,
                         List<ProfileVariants.Param> params, double fraction, Integer budget, int repeat, int jobs, Shard shard,
                         boolean baseOnly, Path out, Path from) {}

    /** The study's outcome and every run it asked for (for the exit code: failed runs and failed verification). */
    public record Result(RobustStudy.Outcome outcome, List<Batch.Done> done) {}

    /** The base config resolved and checked: fabric sim, a protocol with stages. */
    public static Config baseConfig(Map<String, Object> base) {
        Config c = ConfigTrees.resolve("robust", base);
        if (!c.fabricFactory().virtualTime()) {
            String fabric = Config.FABRIC.key();
            throw new ConfigException("robust: the config's " + fabric + " is " + c.fabric() + "; robust varies the simulator's cost profile:"
                    + " set " + fabric + ": sim (--set " + fabric + "=sim)");
        }
        if (c.protocolFactory().stages().isEmpty()) {
            throw new ConfigException("robust: protocol " + c.protocol() + " has one hybrid code (no stage can be bound either way):"
                    + " nothing to rank; choose a protocol with stages (rcc list)");
        }
        return c;
    }

    /** The config's profile (checked: a bad base profile is one line before anything). */
    public static String baseProfile(Map<String, Object> base, Config c) {
        String p = String.valueOf(base.getOrDefault(PROFILE, c.toMap().get(PROFILE)));
        ProfileVariants.raw(p);
        return p;
    }

    /** The --profiles list as variants (each loads, or a one-line error); the base profile and repeats are refused. */
    public static List<Variant> profiles(String spec, String baseProfile, Context ctx) {
        List<Variant> out = new ArrayList<>();
        if (spec == null) return out;
        Set<String> names = new HashSet<>();
        for (String raw : spec.split(",", -1)) {
            String p = raw.strip();
            if (p.isEmpty()) throw new ConfigException("robust: --profiles " + spec + ": empty name; expected a,b,... (built-in names or profile files)");
            if (p.equals(baseProfile)) throw new ConfigException("robust: --profiles: " + p + " is the config's own profile (the base); list other profiles");
            if (!CostProfile.isBuiltIn(p) && Files.isRegularFile(ctx.resolve(p))) p = ctx.resolve(p).toAbsolutePath().toString();
            ProfileVariants.raw(p);
            String name = ConfigTrees.safeName(Path.of(p).getFileName().toString().replaceFirst("\\.properties$", ""));
            if (!names.add(name)) throw new ConfigException("robust: --profiles: two profiles named " + name + "; rename one file");
            out.add(Variant.profile(name, p));
        }
        return out;
    }

    /**
     * The base ranking an enumeration ({@code rcc enumerate}) left in {@code dir}: every finished run there, by code.
     * Refused (one line naming the keys) when a run's config differs from {@code c} other than in name, hybrid code and
     * seed, or when the directory holds no finished run.
     */
    public static Map<Integer, CodeResult> enumeration(Path dir, Config c) throws IOException {
        if (!Files.isDirectory(dir)) throw new ConfigException("robust: --from " + dir + ": no such directory; give an rcc enumerate output directory");
        String[] free = {Config.NAME.key(), Config.HYBRID.key(), Config.SEED.key()};
        String want = RunMetrics.configTextWithout(c, free);
        List<RunMetrics> runs = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) if (Files.isDirectory(p) && RunMetrics.isResultDir(p)) dirs.add(p);
        }
        dirs.sort(null);
        for (Path p : dirs) {
            RunMetrics m = RunMetrics.read(p);
            String got = m.configTextWithout(free);
            if (!got.equals(want)) {
                throw new ConfigException("robust: --from " + dir + ": its runs were made with another config (" + differences(want, got)
                        + " differ, e.g. in " + p.getFileName() + "); robust with the enumeration's config and --set, or enumerate this config");
            }
            runs.add(m);
        }
        if (runs.isEmpty()) throw new ConfigException("robust: --from " + dir + ": no finished run in it (an rcc enumerate output directory)");
        Map<Integer, CodeResult> out = new TreeMap<>();
        for (CodeResult r : HybridTable.byCode(runs)) out.put(r.code(), r);
        return out;
    }

    /** The keys (dotted one level down) whose values differ between two config trees as JSON text. */
    static String differences(String a, String b) {
        try {
            JsonMapper json = JsonMapper.builder().build();
            List<String> keys = new ArrayList<>();
            differ("", json.readTree(a), json.readTree(b), keys);
            return keys.isEmpty() ? "the settings" : String.join(", ", keys);
        } catch (IOException e) {
            return "the settings";
        }
    }

    private static void differ(String prefix, JsonNode a, JsonNode b, List<String> out) {
        Set<String> names = new java.util.LinkedHashSet<>();
        for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) names.add(it.next());
        for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) names.add(it.next());
        for (String k : names) {
            JsonNode x = a.get(k), y = b.get(k);
            if (x != null && x.equals(y)) continue;
            if (prefix.isEmpty() && x != null && y != null && x.isObject() && y.isObject()) differ(k + ".", x, y, out);
            else out.add(prefix + k + " (" + (y == null ? "unset" : y) + " there, " + (x == null ? "unset" : x) + " here)");
        }
    }

    /** The study over {@code r}, its runs going through {@link Batch} into {@code r.out()/runs}. */
    public static RobustStudy study(Request r, Context ctx, List<Batch.Done> sink) throws IOException {
        List<Stage> stages = r.baseConfig().protocolFactory().stages();
        Path runs = r.out().resolve(RUNS);
        RobustStudy.Executor exec = new RobustStudy.Executor() {
            @Override
            public Map<RobustStudy.Job, RunMetrics> run(String phase, List<RobustStudy.Job> js) throws Exception {
                Map<Batch.Point, RobustStudy.Job> points = points(js);
                Map<RobustStudy.Job, RunMetrics> done = new LinkedHashMap<>();
                List<Batch.Done> batch = Batch.run("robust " + phase, new ArrayList<>(points.keySet()), r.jobs(), ctx);
                sink.addAll(batch);
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
                    Map<String, Object> tree = ConfigTrees.copy(r.base());
                    tree.put(PROFILE, j.variant().profile());
                    tree.put(Config.HYBRID.key(), j.code());
                    tree.put(Config.SEED.key(), j.seed());
                    Config c = ConfigTrees.resolve("robust", tree);
                    String name = "hybrid=" + String.format(Locale.ROOT, "%0" + width + "d", j.code()) + ",seed=" + j.seed();
                    Path dir = runs.resolve(j.variant().name()).resolve(name);
                    m.put(new Batch.Point(j.variant().name() + "/" + name, c, dir), j);
                }
                Batch.checkPointDirs("robust", new ArrayList<>(m.keySet()));
                return m;
            }
        };
        Map<Integer, CodeResult> from = r.from() == null ? null : enumeration(r.from(), r.baseConfig());
        RobustStudy.Settings settings = new RobustStudy.Settings(stages, r.baseProfile(), r.profiles(), r.params(), r.fraction(), r.budget(),
                r.repeat(), r.baseConfig().seed(), r.out().resolve(PROFILES).toAbsolutePath(), r.shard(), r.baseOnly(), from);
        return new RobustStudy(settings, exec, line -> ctx.err().println(line));
    }

    /** The report's files: the tables, verdict.txt and the figure. */
    public static void write(Path out, RobustStudy.Outcome o, String what) throws IOException {
        Files.createDirectories(out);
        RobustReport.write(out, o);
        RobustFigure.write(out, o, what);
    }
}
