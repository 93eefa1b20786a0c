package org.rccj.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.results.ResultWriter;
import org.rccj.results.RunMetrics;
import org.rccj.results.SummaryJson;

/**
 * The shards of one enumeration gathered into one: their runs read and checked to be of one experiment (a config
 * that differs only in hybrid code and seed), and copied into the merged directory.
 */
public final class Merge {
    private Merge() {}

    /**
     * The runs found, by "code/seed" (the first found of each, inputs in the order given); how many were found twice;
     * the experiment's config (of the first run) without hybrid code and seed.
     */
    public record Runs(Map<String, RunMetrics> runs, int duplicates, ObjectNode experimentConfig) {}

    /**
     * Reads the runs of every directory of {@code dirs} ({@code names}: as the user gave them, for messages). One line
     * (exit 2) for a directory that is missing, holds a sweep ({@code sweepCsv} in it) or no result, an unreadable
     * summary.json, or a run of another experiment (naming the first setting that differs).
     */
    public static Runs collect(List<Path> dirs, List<String> names, String sweepCsv) throws IOException {
        Map<String, RunMetrics> runs = new LinkedHashMap<>();
        String experiment = null;
        Path experimentDir = null;
        JsonNode experimentConfig = null;
        int duplicates = 0;
        for (int i = 0; i < dirs.size(); i++) {
            Path dir = dirs.get(i);
            String in = names.get(i);
            if (!Files.exists(dir)) throw new ConfigException("merge: " + in + ": no such directory");
            if (!Files.isDirectory(dir)) throw new ConfigException("merge: " + in + ": not a directory");
            if (Files.exists(dir.resolve(sweepCsv))) {
                throw new ConfigException("merge: " + in + " is a sweep directory; merge combines the shards of rcc enumerate");
            }
            List<Path> children = resultDirs(dir);
            if (children.isEmpty()) {
                throw new ConfigException("merge: " + in + " has no results (no run directories with " + SummaryJson.FILE_NAME + ")");
            }
            for (Path child : children) {
                RunMetrics m;
                try {
                    m = RunMetrics.read(child);
                } catch (IOException e) {
                    throw new ConfigException("merge: " + child + ": cannot read " + SummaryJson.FILE_NAME + ": "
                            + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
                }
                String exp = m.configTextWithout(Config.HYBRID.key(), Config.SEED.key());
                if (experiment == null) {
                    experiment = exp;
                    experimentDir = child;
                    experimentConfig = m.config();
                } else if (!experiment.equals(exp)) {
                    ObjectNode a = m.config().deepCopy(), b = experimentConfig.deepCopy();
                    a.remove(List.of(Config.HYBRID.key(), Config.SEED.key()));
                    b.remove(List.of(Config.HYBRID.key(), Config.SEED.key()));
                    throw new ConfigException("merge: " + child + " is from another experiment than " + experimentDir
                            + " (" + Provenance.firstDifference("", a, b) + "); merge only the shards of one enumeration");
                }
                if (runs.putIfAbsent(m.code() + "/" + m.seed(), m) != null) duplicates++;
            }
        }
        ObjectNode expConfig = experimentConfig.deepCopy();
        expConfig.remove(List.of(Config.HYBRID.key(), Config.SEED.key()));
        return new Runs(runs, duplicates, expConfig);
    }

    /** The result directories directly inside {@code dir}, by name. */
    public static List<Path> resultDirs(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) if (!p.getFileName().toString().startsWith(".") && Files.isDirectory(p) && RunMetrics.isResultDir(p)) out.add(p);
        }
        out.sort(Comparator.comparing(p -> p.getFileName().toString()));
        return out;
    }

    /**
     * Copies a run directory into {@code out} under its name, through a hidden temporary sibling and a
     * rename; false when it is already there (same directory, or the same summary.json).
     */
    public static boolean copyInto(Path run, Path out) throws IOException {
        Path target = out.resolve(run.getFileName().toString());
        if (target.toAbsolutePath().normalize().equals(run.toAbsolutePath().normalize())) return false;
        if (Files.exists(target.resolve(SummaryJson.FILE_NAME))
                && Files.mismatch(target.resolve(SummaryJson.FILE_NAME), run.resolve(SummaryJson.FILE_NAME)) == -1) {
            return false;
        }
        String problem = ResultWriter.problemWith(target);
        if (problem != null) throw new ConfigException("merge: --out: " + problem);
        Path tmp = Files.createDirectory(out.resolve("." + target.getFileName() + ".tmp-" + java.util.UUID.randomUUID()));
        try (Stream<Path> files = Files.walk(run)) {
            files.forEach(src -> {
                try {
                    Path dst = tmp.resolve(run.relativize(src).toString());
                    if (Files.isDirectory(src)) Files.createDirectories(dst);
                    else Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Path aside = null;
        if (Files.exists(target)) {
            aside = out.resolve("." + target.getFileName() + ".old-" + System.nanoTime());
            Files.move(target, aside);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        if (aside != null) deleteTree(aside);
        return true;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
