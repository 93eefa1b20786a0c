package org.rccj.experiments;

import org.rccj.framework.run.Config;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.rccj.framework.config.ConfigException;
import org.rccj.hybrid.HybridTable;
import org.rccj.results.Environment;
import org.rccj.results.ResultTable;
import org.rccj.results.RunMetrics;
import org.rccj.experiments.config.ConfigLoader;

/**
 * {@code provenance.json}: what made a result directory — the command, its arguments, the resolved base
 * config and the varied keys. A run, sweep, enumeration or merge into a directory made by something else
 * (another command, another base config, other varied keys) is refused unless {@code --force}, so results of
 * different experiments never mix and a result is never replaced by a different one without a word.
 * Growing a sweep (more values of the same keys) or resuming one is the same experiment and is allowed.
 */
public final class Provenance {
    public static final String FILE = "provenance.json";
    /** The table a sweep writes beside its points. */
    public static final String SWEEP_CSV = "sweep.csv";
    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /** What a command is about to make: command name, base config (varied keys removed) and varied keys. */
    public record Made(String command, Map<String, Object> config, List<String> varied) {
        public Made {
            Map<String, Object> c = copy(config);
            for (String k : varied) remove(c, k);
            config = c;
            varied = List.copyOf(varied);
        }
    }

    private Provenance() {}

    /**
     * Refuses {@code dir} when it was made by something other than {@code made} (unless {@code force}).
     * Directories without provenance.json (older versions) are judged by their tables: a sweep's directory
     * (sweep.csv) takes only a sweep, an enumeration's (hybrid.csv) only an enumeration or a merge, and a
     * run directory (summary.json) only a run of the same config.
     */
    public static void check(Made made, Path dir, boolean force) {
        if (force || !Files.isDirectory(dir)) return;
        String cmd = made.command();
        Path file = dir.resolve(FILE);
        if (Files.isRegularFile(file)) {
            JsonNode p;
            try {
                p = JSON.readTree(file.toFile());
            } catch (IOException e) {
                throw new ConfigException(cmd + ": " + file + ": unreadable (" + ConfigLoader.oneLine(String.valueOf(e.getMessage()))
                        + "); choose another --out or pass --force");
            }
            String theirs = p.path("command").asText("?");
            if (!compatible(cmd, theirs)) {
                throw refuse(cmd, dir, "was made by 'rcc " + theirs + "'");
            }
            JsonNode ours = JSON.valueToTree(made.config()), recorded = p.path("config");
            if (!theirs.equals(cmd)) {
                // an enumeration and a merge of its shards: the same experiment whatever the seed
                ours = ((com.fasterxml.jackson.databind.node.ObjectNode) ours).without(Config.SEED.key());
                if (recorded.isObject()) recorded = ((com.fasterxml.jackson.databind.node.ObjectNode) recorded.deepCopy()).without(Config.SEED.key());
                String diff = differencesText(ours, recorded);
                if (diff != null) throw refuse(cmd, dir, "holds results of another config (" + diff + ")");
                return;
            }
            List<String> varied = new ArrayList<>();
            for (JsonNode v : p.path("varied")) varied.add(v.asText());
            if (!new TreeSet<>(varied).equals(new TreeSet<>(made.varied()))) {
                throw refuse(cmd, dir, "varies " + (varied.isEmpty() ? "nothing" : String.join(", ", varied)) + ", this "
                        + cmd + " varies " + (made.varied().isEmpty() ? "nothing" : String.join(", ", made.varied())));
            }
            String diff = differencesText(ours, recorded);
            if (diff != null) throw refuse(cmd, dir, "holds results of another config (" + diff + ")");
            return;
        }
        boolean sweepCsv = Files.exists(dir.resolve(SWEEP_CSV)), hybridCsv = Files.exists(dir.resolve(HybridTable.FILE_NAME));
        if (sweepCsv && !cmd.equals("sweep")) throw refuse(cmd, dir, "is a sweep's directory (" + SWEEP_CSV + ")");
        if (hybridCsv && !(cmd.equals("enumerate") || cmd.equals("merge"))) {
            throw refuse(cmd, dir, "is an enumeration's directory (" + HybridTable.FILE_NAME + ")");
        }
        if (cmd.equals("run") && RunMetrics.isResultDir(dir)) {
            try {
                String diff = differencesText(JSON.valueToTree(made.config()), RunMetrics.read(dir).config());
                if (diff != null) throw refuse(cmd, dir, "holds the result of another config (" + diff + ")");
            } catch (IOException e) {
                throw refuse(cmd, dir, "holds a result this version cannot read");
            }
        }
    }

    private static boolean compatible(String ours, String theirs) {
        if (ours.equals(theirs)) return true;
        return (ours.equals("merge") || ours.equals("enumerate")) && (theirs.equals("merge") || theirs.equals("enumerate"));
    }

    private static ConfigException refuse(String cmd, Path dir, String why) {
        return new ConfigException(cmd + ": --out " + dir + " " + why + "; refusing to mix results: choose another --out, or pass --force"
                + " to " + (cmd.equals("run") ? "replace it" : "write into it anyway"));
    }

    /**
     * Writes {@code dir/provenance.json}. Sweeps and enumerations write it before their first point runs (and again at
     * the end), so a directory is bound to its config from the first point on: an interrupted command's directory
     * refuses another config as a finished one does.
     */
    public static void write(Path dir, Made made, List<String> args) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", made.command());
        List<String> command = new ArrayList<>();
        command.add(made.command());
        command.addAll(args);
        m.put("args", command);
        m.put("rcc_version", Environment.version());
        m.put("varied", made.varied());
        m.put("config", made.config());
        ResultTable.write(dir.resolve(FILE), JSON.writeValueAsString(m) + "\n");
    }

    /**
     * Every dotted key whose value differs, as "key: a here, b there", in {@link #firstDifference}'s order; empty when
     * equal.
     */
    public static List<String> differences(JsonNode ours, JsonNode theirs) {
        List<String> out = new ArrayList<>();
        collect("", ours, theirs, out);
        return out;
    }

    /** {@link #differences} as one phrase ("a: 1 here, 2 there; b: ..."), or null when equal. */
    public static String differencesText(JsonNode ours, JsonNode theirs) {
        List<String> d = differences(ours, theirs);
        if (d.isEmpty()) return null;
        return (d.size() > 1 ? d.size() + " keys differ: " : "") + String.join("; ", d);
    }

    private static void collect(String prefix, JsonNode ours, JsonNode theirs, List<String> out) {
        if (ours.isObject() && theirs.isObject()) {
            for (String k : keyOrder(prefix, ours, theirs)) {
                JsonNode a = ours.get(k), b = theirs.get(k);
                String key = prefix.isEmpty() ? k : prefix + "." + k;
                if (a == null || b == null) {
                    out.add(key + ": " + (a == null ? "absent" : a.toString()) + " here, " + (b == null ? "absent" : b.toString()) + " there");
                } else {
                    collect(key, a, b, out);
                }
            }
            return;
        }
        boolean same = ours.isNumber() && theirs.isNumber() ? ours.asDouble() == theirs.asDouble() : ours.equals(theirs);
        if (!same) out.add((prefix.isEmpty() ? "value" : prefix) + ": " + ours + " here, " + theirs + " there");
    }

    private static java.util.LinkedHashSet<String> keyOrder(String prefix, JsonNode ours, JsonNode theirs) {
        java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>(
                prefix.isEmpty() ? List.of(Config.PROTOCOL.key(), Config.WORKLOAD, Config.FABRIC.key()) : prefix.equals(Config.WORKLOAD) ? List.of("name") : List.of());
        TreeSet<String> rest = new TreeSet<>();
        for (Iterator<String> it = ours.fieldNames(); it.hasNext(); ) rest.add(it.next());
        for (Iterator<String> it = theirs.fieldNames(); it.hasNext(); ) rest.add(it.next());
        keys.retainAll(rest);
        keys.addAll(rest);
        return keys;
    }

    /**
     * The first dotted key whose value differs, as "key: a vs b", or null when equal. What an experiment is comes
     * first (protocol, workload and its name, fabric), then the other keys alphabetically: unrelated experiments are
     * named by their protocol or workload, not by whichever other setting sorts first.
     */
    public static String firstDifference(String prefix, JsonNode ours, JsonNode theirs) {
        List<String> out = new ArrayList<>();
        collect(prefix, ours, theirs, out);
        return out.isEmpty() ? null : out.get(0);
    }

    /**
     * The varied keys {@code dir}'s provenance.json records (a sweep's --vary keys, an enumeration's hybrid), or null
     * when it has none.
     */
    public static List<String> varied(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) return null;
        try {
            List<String> out = new ArrayList<>();
            for (JsonNode v : JSON.readTree(file.toFile()).path("varied")) out.add(v.asText());
            return out;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Whether the points of one sweep or enumeration (their result directories) differ in config beyond {@code varied}
     * (and the seed, which repeats vary): one line per differing key, "duration_ms: 10 in hybrid=01, 20 in hybrid=00",
     * against the first point; empty when they agree. Unreadable points are left out (the tables' own checks name them).
     */
    public static List<String> mixedPoints(List<Path> points, java.util.Collection<String> varied) {
        Map<String, String> out = new LinkedHashMap<>();
        com.fasterxml.jackson.databind.node.ObjectNode first = null;
        String firstName = null;
        for (Path p : points) {
            com.fasterxml.jackson.databind.node.ObjectNode c;
            try {
                JsonNode cfg = RunMetrics.read(p).config();
                if (!cfg.isObject()) continue;
                c = (com.fasterxml.jackson.databind.node.ObjectNode) cfg.deepCopy();
            } catch (IOException | RuntimeException e) {
                continue;
            }
            c.remove(Config.SEED.key());
            for (String k : varied) removeDotted(c, k);
            String name = p.getFileName().toString();
            if (first == null) {
                first = c;
                firstName = name;
                continue;
            }
            for (String d : differences(c, first)) {
                String key = d.substring(0, d.indexOf(": "));
                String[] vals = d.substring(d.indexOf(": ") + 2).split(" here, ", 2);
                out.putIfAbsent(key, key + ": " + vals[0] + " in " + name + ", " + vals[1].replaceFirst(" there$", "") + " in " + firstName);
            }
        }
        return new ArrayList<>(out.values());
    }

    private static void removeDotted(com.fasterxml.jackson.databind.node.ObjectNode o, String dotted) {
        String[] parts = dotted.split("\\.");
        JsonNode cur = o;
        for (int i = 0; i < parts.length - 1; i++) {
            cur = cur.get(parts[i]);
            if (cur == null || !cur.isObject()) return;
        }
        ((com.fasterxml.jackson.databind.node.ObjectNode) cur).remove(parts[parts.length - 1]);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : m.entrySet()) {
            out.put(e.getKey(), e.getValue() instanceof Map<?, ?> sub ? copy((Map<String, Object>) sub) : e.getValue());
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void remove(Map<String, Object> m, String dotted) {
        String[] parts = dotted.split("\\.");
        Map<String, Object> cur = m;
        for (int i = 0; i < parts.length - 1; i++) {
            if (!(cur.get(parts[i]) instanceof Map<?, ?> sub)) return;
            cur = (Map<String, Object>) sub;
        }
        cur.remove(parts[parts.length - 1]);
    }
}
