package org.rccj.experiments.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.ConfigTree;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.WorkloadFactory;

/**
 * Reads a config file (JSON or YAML) into a tree of maps and applies {@code --set key=value}
 * overrides; {@link org.rccj.framework.run.ConfigResolver#resolve} then checks every key and value.
 */
public final class ConfigLoader {
    private static final ObjectMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper YAML = YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private static final Pattern NULL = Pattern.compile("null|Null|NULL|~");
    private static final Pattern BOOL = Pattern.compile("true|True|TRUE|false|False|FALSE");
    private static final Pattern DEC_INT = Pattern.compile("[-+]?[0-9][0-9_]*");
    private static final Pattern HEX_INT = Pattern.compile("0x[0-9a-fA-F]+");
    private static final Pattern OCT_INT = Pattern.compile("0o[0-7]+");
    private static final Pattern FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final Pattern INF = Pattern.compile("[-+]?\\.(inf|Inf|INF)");
    private static final Pattern NAN = Pattern.compile("\\.(nan|NaN|NAN)");

    private ConfigLoader() {}

    /**
     * Parses a config file: {@code .json} as JSON, anything else ({@code .yaml}, {@code .yml}, other) as
     * YAML. An empty file is an empty mapping (all defaults). Duplicate keys are errors.
     * @throws ConfigException (one line) for a missing or unreadable file, a syntax error (with file,
     *         line and column) or a top level that is not a mapping
     */
    public static Map<String, Object> load(Path file) {
        if (!Files.exists(file)) throw new ConfigException(file + ": no such config file");
        if (Files.isDirectory(file)) throw new ConfigException(file + ": is a directory, not a config file");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new ConfigException(file + ": cannot read config file: not UTF-8 text");
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read config file: " + oneLine(String.valueOf(e.getMessage())));
        }
        boolean json = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
        return parse(text, file.toString(), json);
    }

    /** Parses config text; {@code source} names it in messages. */
    public static Map<String, Object> parse(String text, String source, boolean json) {
        ObjectMapper mapper = json ? JSON : YAML;
        JsonNode node;
        try {
            node = mapper.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null || loc.getLineNr() < 1 ? source : source + ":" + loc.getLineNr() + ":" + loc.getColumnNr();
            throw new ConfigException(where + ": " + (json ? "JSON" : "YAML") + " syntax error: " + syntaxProblem(e.getOriginalMessage()));
        }
        if (node == null || node.isMissingNode() || node.isNull()) return new LinkedHashMap<>();
        if (!node.isObject()) {
            throw new ConfigException(source + ": expected a mapping of config keys (name: ..., protocol: ...) at the top level, got "
                    + (node.isArray() ? "a list" : "'" + oneLine(node.asText()) + "'"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = mapper.convertValue(node, LinkedHashMap.class);
        return tree;
    }

    /**
     * Applies one {@code --set key=value}: the key is dotted ({@code workload.hot_probability}); missing
     * parent mappings are created; a parent that exists and is not a mapping is an error. The value is
     * typed by {@link #scalar}. Setting {@code workload} or {@code workload.name} to another workload drops the
     * settings the new workload does not accept (they belonged to the old one) and keeps the rest.
     * @return a note saying which keys a workload switch dropped, or null
     */
    @SuppressWarnings("unchecked")
    public static String applySet(Map<String, Object> tree, String assignment) {
        int eq = assignment.indexOf('=');
        if (eq < 0) {
            throw new ConfigException("--set " + assignment + ": expected key=value, e.g. --set nodes=2 or --set workload.hot_probability=0.5");
        }
        String key = assignment.substring(0, eq).trim();
        String[] parts = key.split("\\.", -1);
        for (String p : parts) {
            if (p.isBlank()) throw new ConfigException("--set " + assignment + ": empty key" + (key.isEmpty() ? "" : " part in '" + key + "'")
                    + "; expected key=value with a dotted key such as workload.hot_probability");
        }
        Object value = scalar(assignment.substring(eq + 1));
        if ((key.equals("workload") || key.equals("workload.name")) && value instanceof String name) return switchWorkload(tree, name);
        try {
            ConfigTree.set(tree, key, value);
        } catch (ConfigException e) {
            throw new ConfigException("--set " + e.getMessage());
        }
        return null;
    }

    /** Sets the workload's name; keys the new workload does not accept are dropped (and named in the returned note). */
    @SuppressWarnings("unchecked")
    private static String switchWorkload(Map<String, Object> tree, String name) {
        Object wl = tree.get("workload");
        Map<String, Object> old = wl instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
        String oldName = wl instanceof String str ? str : String.valueOf(old.getOrDefault("name", "smallbank"));
        Map<String, Object> next = new LinkedHashMap<>();
        next.put("name", name);
        WorkloadFactory factory = null;
        for (WorkloadFactory f : Registry.workloads()) if (f.name().equalsIgnoreCase(name.strip())) factory = f;
        if (factory == null || factory.name().equalsIgnoreCase(oldName.strip())) {
            // same workload (or an unknown one, which the config check reports): keep every setting
            for (Map.Entry<String, Object> e : old.entrySet()) if (!e.getKey().equals("name")) next.put(e.getKey(), e.getValue());
            tree.put("workload", next);
            return null;
        }
        List<String> accepted = new ArrayList<>();
        for (Param p : factory.parameters()) accepted.add(p.key());
        List<String> dropped = new ArrayList<>();
        for (Map.Entry<String, Object> e : old.entrySet()) {
            if (e.getKey().equals("name")) continue;
            if (accepted.contains(e.getKey())) next.put(e.getKey(), e.getValue());
            else dropped.add(org.rccj.framework.config.Settings.workloadKey(e.getKey()));
        }
        tree.put("workload", next);
        return dropped.isEmpty() ? null : "workload " + oldName.strip() + " -> " + factory.name() + ": dropped " + String.join(", ", dropped)
                + " (not " + factory.name() + " settings)";
    }

    /**
     * Types a {@code --set} value as a YAML 1.2 (core schema) plain scalar: null, ~ and the empty string
     * are null; true/false are booleans; decimal (and 0x, 0o) integers are Integer or Long; decimal
     * numbers, .inf and .nan are Double; a quoted value is the string inside the quotes; anything else is
     * the string as written (so {@code hybrid=READ+COMMIT} and {@code name=no} stay strings).
     */
    public static Object scalar(String raw) {
        String s = raw.strip();
        if (s.isEmpty() || NULL.matcher(s).matches()) return null;
        if (BOOL.matcher(s).matches()) return Boolean.valueOf(s.toLowerCase(Locale.ROOT));
        try {
            if (DEC_INT.matcher(s).matches()) return integer(new BigInteger(s.replace("_", "").replace("+", "")), s);
            if (HEX_INT.matcher(s).matches()) return integer(new BigInteger(s.substring(2), 16), s);
            if (OCT_INT.matcher(s).matches()) return integer(new BigInteger(s.substring(2), 8), s);
        } catch (NumberFormatException e) {
            return s;
        }
        if (FLOAT.matcher(s).matches()) return Double.parseDouble(s.replace("_", ""));
        if (INF.matcher(s).matches()) return s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (NAN.matcher(s).matches()) return Double.NaN;
        if (s.length() >= 2 && (s.charAt(0) == '\'' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
            try {
                Object v = YAML.readValue(s, Object.class);
                if (v instanceof String str) return str;
            } catch (IOException e) {
                // not a well-formed quoted scalar: keep it as written
            }
        }
        return s;
    }

    private static Object integer(BigInteger v, String text) {
        if (v.bitLength() < 32) return v.intValue();
        if (v.bitLength() < 64) return v.longValue();
        return text; // too large for any setting: let the setting's check reject it by name
    }

    /**
     * One line from a parser message: SnakeYAML's multi-line messages keep their problem lines
     * ("while parsing ...", "expected ..., but got ...") and drop the "in 'reader'" lines and snippets.
     */
    public static String syntaxProblem(String message) {
        if (message == null) return "unreadable";
        List<String> kept = new ArrayList<>();
        for (String line : message.split("\\R")) {
            if (line.isBlank() || Character.isWhitespace(line.charAt(0))) continue;
            kept.add(line.strip());
        }
        String s = kept.isEmpty() ? oneLine(message) : String.join(": ", kept);
        return s.replace("Duplicate field", "duplicate key");
    }

    public static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
