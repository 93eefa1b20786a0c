package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.Config;
import org.rccj.framework.config.ConfigException;
import org.rccj.experiments.config.ConfigSchema;
import org.rccj.experiments.config.ConfigLoader;

/**
 * The JSON Schema of a config (rcc list schema): a validator accepts every example config and rejects what the
 * config check rejects.
 */
class ConfigSchemaTest {
    @TempDir Path dir;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Schema schema() {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(ConfigSchema.json());
    }

    private static List<Error> errors(Map<String, Object> config) {
        return schema().validate(JSON.valueToTree(config));
    }

    @Test
    void everyExampleIsValid() throws Exception {
        Path examples = Path.of("..", "examples").toAbsolutePath().normalize();
        List<Path> files;
        try (Stream<Path> s = Files.walk(examples)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).toList();
        }
        assertTrue(files.size() >= 8);
        for (Path f : files) assertEquals(List.of(), errors(ConfigLoader.load(f)), f.toString());
    }

    @Test
    void rejectsWhatTheConfigCheckRejects() {
        String[][] bad = {
            {"nodez", "3"}, {"threads", "0"}, {"fabric", "infiniband"}, {"protocol", "nosuch"}, {"workload.hot_prob", "0.5"},
            {"workload.hot_probability", "1.5"}, {"workload.mix", "read-heavy"}, {"protocol_options.lease", "5"}, {"faults.torn", "true"},
            {"verify", "'yes'"}, {"duration_ms", "0"}, {"warmup_ms", "-1"}, {"warmup_ms", "autox"}, {"warmup_ms", "auto:x"},
        };
        for (String[] b : bad) {
            Map<String, Object> tree = ConfigLoader.parse(Cli.yaml(), "t", false);
            ConfigLoader.applySet(tree, b[0] + "=" + b[1]);
            boolean checkRejects;
            try {
                org.rccj.framework.run.ConfigResolver.resolve(tree);
                checkRejects = false;
            } catch (ConfigException e) {
                checkRejects = true;
            }
            assertTrue(checkRejects, "the config check rejects " + b[0] + "=" + b[1]);
            List<Error> errors = errors(tree);
            assertFalse(errors.isEmpty(), "the schema rejects " + b[0] + "=" + b[1]);
        }
        Map<String, Object> ok = ConfigLoader.parse(Cli.yaml("  hot_probability: 0.5", "protocol_options: {lease_us: 5}"), "t", false);
        org.rccj.framework.run.ConfigResolver.resolve(ok);
        assertEquals(List.of(), errors(ok));
        Map<String, Object> auto = ConfigLoader.parse(Cli.yaml("fabric: local", "warmup_ms: auto:2000"), "t", false);
        org.rccj.framework.run.ConfigResolver.resolve(auto);
        assertEquals(List.of(), errors(auto), "warmup_ms: auto:2000");
    }

    @Test
    void listSchemaPrintsIt() throws Exception {
        Cli.Outcome o = Cli.run(dir, "list", "schema").assertOk();
        JsonNode s = JSON.readTree(o.out());
        assertEquals("https://json-schema.org/draft/2020-12/schema", s.get("$schema").asText());
        assertEquals(1024, s.get("properties").get("nodes").get("maximum").asInt(), "from Config.TOP_LEVEL");
    }

    /**
     * The schema's bytes are the same in every JVM: every object in it keeps its members in the order they were put
     * (a {@code Map.of} iterates in an order salted per JVM, so two runs of 'rcc list schema' printed different bytes).
     */
    @Test
    void everyObjectKeepsItsDeclaredOrder() {
        List<String> unordered = new java.util.ArrayList<>();
        walk(ConfigSchema.tree(), "", unordered);
        assertEquals(List.of(), unordered, "objects whose member order is not fixed");
        JsonNode name = JSON.valueToTree(ConfigSchema.tree()).at("/properties/workload/oneOf/1/properties/name");
        assertEquals(List.of("enum", "default", "description"), iterable(name.fieldNames()), "as declared");
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static void walk(Object node, String path, List<String> unordered) {
        if (node instanceof Map<?, ?> m) {
            if (!(m instanceof java.util.LinkedHashMap) && m.size() > 1) unordered.add(path.isEmpty() ? "/" : path);
            for (Map.Entry<?, ?> e : m.entrySet()) walk(e.getValue(), path + "/" + e.getKey(), unordered);
        } else if (node instanceof java.util.Collection<?> c) {
            if (!(c instanceof List) && c.size() > 1) unordered.add(path);
            int i = 0;
            for (Object o : c) walk(o, path + "/" + i++, unordered);
        }
    }
}
