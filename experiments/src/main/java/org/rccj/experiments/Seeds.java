package org.rccj.experiments;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.run.Config;
import org.rccj.results.RunMetrics;

/**
 * Where the runs of one point of a sweep or enumeration live: {@code NAME} when it has one seed,
 * {@code NAME,seed=S} when it has several. Adding repeats to a directory reuses what is there: the first seed's
 * run keeps the directory it already has under either name (seed 1 of a one-seed batch is repeat 1 of a
 * {@code --repeat 3} one, and back), and a table counts every finished run of the point in the directory once per
 * seed, so the table and the directories beside it always agree.
 */
public final class Seeds {
    private Seeds() {}

    /** The directory name of the run of point {@code name} with seed {@code seed}; {@code first}: the batch's first seed. */
    public static String dirName(Path out, String name, long seed, boolean first, int repeat, Config c) {
        String plain = name, seeded = name + ",seed=" + seed;
        String preferred = repeat > 1 ? seeded : plain;
        if (!first) return preferred;
        String other = repeat > 1 ? plain : seeded;
        if (!finished(out.resolve(preferred), c) && finished(out.resolve(other), c)) return other;
        return preferred;
    }

    /** Whether {@code dir} holds a finished result of exactly {@code c}. */
    private static boolean finished(Path dir, Config c) {
        return Batch.finished(new Batch.Point(dir.getFileName().toString(), c, dir));
    }

    /** Whether {@code dirName} is point {@code name}'s: {@code name} itself or {@code name,seed=S}. */
    private static boolean isPoints(String dirName, String name) {
        return dirName.equals(name) || (dirName.startsWith(name + ",seed=") && dirName.substring(name.length() + 6).matches("-?[0-9]+"));
    }

    /**
     * Every finished run of point {@code name} in {@code out} whose config is {@code c}'s but for the seed: {@code runs}
     * (this batch's) first, then the other seeds found, one run per seed, ordered by seed.
     */
    public static List<RunMetrics> all(Path out, String name, Config c, List<RunMetrics> runs) {
        Map<Long, RunMetrics> bySeed = new LinkedHashMap<>();
        for (RunMetrics m : runs) bySeed.putIfAbsent(m.seed(), m);
        String want = RunMetrics.configTextWithout(c, Config.SEED.key());
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(out)) {
            for (Path p : ds) if (isPoints(p.getFileName().toString(), name) && RunMetrics.isResultDir(p)) dirs.add(p);
        } catch (IOException e) {
            dirs.clear(); // no directory to look in: this batch's runs only
        }
        dirs.sort(Comparator.comparing(p -> p.getFileName().toString()));
        for (Path p : dirs) {
            try {
                RunMetrics m = RunMetrics.read(p);
                if (m.configTextWithout(Config.SEED.key()).equals(want)) bySeed.putIfAbsent(m.seed(), m);
            } catch (IOException | RuntimeException e) {
                // unreadable or of another version: not a run of this point
            }
        }
        List<RunMetrics> out2 = new ArrayList<>(bySeed.values());
        out2.sort(Comparator.comparingLong(RunMetrics::seed));
        return out2;
    }

    /**
     * A code's directory as a user may spell it: codes print unpadded ({@code 0}, {@code 5}) while directories are
     * zero-padded ({@code hybrid=00}, {@code hybrid=05}), so {@code hybrid=0} names {@code hybrid=00} (and back,
     * seed suffix kept). {@code dir} itself when it exists, is no code's directory, or no single sibling matches.
     */
    public static Path hybridAlias(Path dir) {
        if (Files.exists(dir) || dir.getFileName() == null || dir.getParent() == null) return dir;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("hybrid=([0-9]+)((?:,seed=-?[0-9]+)?)").matcher(dir.getFileName().toString());
        if (!m.matches() || m.group(1).length() > 9) return dir;
        int code = Integer.parseInt(m.group(1));
        Path found = null;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir.getParent(), "hybrid=*")) {
            for (Path p : ds) {
                java.util.regex.Matcher o = java.util.regex.Pattern.compile("hybrid=0*([0-9]+)((?:,seed=-?[0-9]+)?)").matcher(p.getFileName().toString());
                if (o.matches() && o.group(1).length() <= 9 && Integer.parseInt(o.group(1)) == code && o.group(2).equals(m.group(2))) {
                    if (found != null) return dir;
                    found = p;
                }
            }
        } catch (IOException e) {
            return dir;
        }
        return found == null ? dir : found;
    }
}
