package org.rccj.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;

/**
 * A sweep's points: the cartesian product of the varied values (first varied key outermost), one resolved config and
 * result directory per point and seed. Every point is resolved (and so checked) before anything runs.
 */
public final class Sweep {
    private Sweep() {}

    /** One varied key (dotted) and its values as typed. */
    public record Vary(String key, List<String> values) {}

    /** A point of the product: the value of each varied key, in the order the keys were given. */
    public record Combo(List<String> values) {}

    /**
     * The points of a sweep. @param names each point's name ({@code key=value,...}), in {@code combos}' order;
     * @param runs each point's runs (one per seed); @param all every run, in order
     */
    public record Plan(List<Combo> combos, List<String> names, List<List<Batch.Point>> runs, List<Batch.Point> all) {}

    /**
     * Every point of {@code varies} over the config tree {@code base}, {@code repeat} seeds each (seed, seed + 1, ...),
     * directories under {@code out}; the notes of applying the values go to {@code notes}.
     */
    public static Plan plan(Map<String, Object> base, List<Vary> varies, int repeat, Path out, Set<String> notes) {
        List<Combo> combos = product(varies);
        List<String> pointNames = new ArrayList<>();
        List<List<Batch.Point>> pointRuns = new ArrayList<>();
        List<Batch.Point> all = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Combo combo : combos) {
            String name = pointName(varies, combo);
            if (!names.add(name)) {
                throw new ConfigException("sweep: two points would share the directory name '" + name + "'; make the --vary values differ"
                        + " in letters, digits or . _ + = -");
            }
            Map<String, Object> tree = ConfigTrees.copy(base);
            for (int i = 0; i < varies.size(); i++) {
                String note = ConfigLoader.applySet(tree, varies.get(i).key() + "=" + combo.values().get(i));
                if (note != null) notes.add(note);
            }
            Config first;
            try {
                first = ConfigTrees.resolve("sweep", tree);
            } catch (ConfigException e) {
                throw new ConfigException("sweep: point " + name + ": " + e.getMessage());
            }
            List<Batch.Point> runs = new ArrayList<>();
            for (int r = 0; r < repeat; r++) {
                Config c = first;
                if (repeat > 1) {
                    Map<String, Object> seeded = ConfigTrees.copy(tree);
                    seeded.put(Config.SEED.key(), first.seed() + r);
                    c = ConfigTrees.resolve("sweep", seeded);
                }
                String dirName = Seeds.dirName(out, name, c.seed(), r == 0, repeat, c);
                Batch.Point p = new Batch.Point(dirName, c, out.resolve(dirName));
                runs.add(p);
                all.add(p);
            }
            pointNames.add(name);
            pointRuns.add(runs);
        }
        Batch.checkPointDirs("sweep", all);
        return new Plan(combos, pointNames, pointRuns, all);
    }

    /** The cartesian product, first varied key outermost. */
    public static List<Combo> product(List<Vary> varies) {
        List<List<String>> acc = new ArrayList<>();
        acc.add(List.of());
        for (Vary v : varies) {
            List<List<String>> next = new ArrayList<>();
            for (List<String> prefix : acc) {
                for (String value : v.values()) {
                    List<String> l = new ArrayList<>(prefix);
                    l.add(value);
                    next.add(l);
                }
            }
            acc = next;
        }
        List<Combo> out = new ArrayList<>();
        for (List<String> l : acc) out.add(new Combo(List.copyOf(l)));
        return out;
    }

    /** {@code key=value,key=value}, filesystem-safe. */
    public static String pointName(List<Vary> varies, Combo combo) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < varies.size(); i++) parts.add(varies.get(i).key() + "=" + combo.values().get(i));
        return ConfigTrees.safeName(String.join(",", parts));
    }
}
