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
                String diff = firstDifference("", ours, recorded);
                if (diff != null) throw refuse(cmd, dir, "holds results of another config (" + diff + ")");
                return;
            }
            List<String> varied = new ArrayList<>();
            for (JsonNode v : p.path("varied")) varied.add(v.asText());
            if (!new TreeSet<>(varied).equals(new TreeSet<>(made.varied()))) {
                throw refuse(cmd, dir, "varies " + (varied.isEmpty() ? "nothing" : String.join(", ", varied)) + ", this "
                        + cmd + " varies " + (made.varied().isEmpty() ? "nothing" : String.join(", ", made.varied())));
            }
            String diff = firstDifference("", ours, recorded);
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
                String diff = firstDifference("", JSON.valueToTree(made.config()), RunMetrics.read(dir).config());
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

    /** Writes {@code dir/provenance.json} (after the results, so an interrupted command leaves the old one). */
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
     * The first dotted key whose value differs, as "key: a vs b", or null when equal. What an experiment is comes
     * first (protocol, workload and its name, fabric), then the other keys alphabetically: unrelated experiments are
     * named by their protocol or workload, not by whichever other setting sorts first.
     */
    public static String firstDifference(String prefix, JsonNode ours, JsonNode theirs) {
        if (ours.isObject() && theirs.isObject()) {
            java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>(
                    prefix.isEmpty() ? List.of(Config.PROTOCOL.key(), Config.WORKLOAD, Config.FABRIC.key()) : prefix.equals(Config.WORKLOAD) ? List.of("name") : List.of());
            TreeSet<String> rest = new TreeSet<>();
            for (Iterator<String> it = ours.fieldNames(); it.hasNext(); ) rest.add(it.next());
            for (Iterator<String> it = theirs.fieldNames(); it.hasNext(); ) rest.add(it.next());
            keys.retainAll(rest);
            keys.addAll(rest);
            for (String k : keys) {
                JsonNode a = ours.get(k), b = theirs.get(k);
                String key = prefix.isEmpty() ? k : prefix + "." + k;
                if (a == null || b == null) return key + ": " + (a == null ? "absent" : a.toString()) + " here, " + (b == null ? "absent" : b.toString()) + " there";
                String d = firstDifference(key, a, b);
                if (d != null) return d;
            }
            return null;
        }
        boolean same = ours.isNumber() && theirs.isNumber() ? ours.asDouble() == theirs.asDouble() : ours.equals(theirs);
        return same ? null : (prefix.isEmpty() ? "value" : prefix) + ": " + ours + " here, " + theirs + " there";
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
