package org.rccj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rccj.framework.config.Param;
import org.rccj.framework.config.Settings;
import org.rccj.framework.run.Config;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.WorkloadFactory;

/**
 * Messages name config keys through their declarations ({@code Config.X.key()}, a plug-in's option constants with
 * {@link Settings#optionKey} / {@link Settings#workloadKey}), never as text in a string literal: a renamed key must not
 * leave an error or a warning that tells the user to set a key that no longer exists. Scans the string literals of
 * every module's main sources for a key spelled as one: {@code set|raise|lower|--set|--vary KEY}, a literal that begins
 * with {@code KEY: }, and {@code protocol_options.OPTION} / {@code workload.SETTING} for every declared option and setting.
 */
class KeysThroughConstantsTest {
    /** Literals that spell a key on purpose, by file: each with why it cannot use a constant. */
    private static final Map<String, List<String>> ALLOWED = Map.of(
            // usage examples of the syntax, not advice about a key of this run
            "ConfigTree.java", List.of("such as workload.hot_probability"),
            "ConfigLoader.java", List.of("e.g. --set nodes=2 or --set workload.hot_probability=0.5", "such as workload.hot_probability"),
            "SweepCommand.java", List.of("e.g. --vary coroutines=1,3,5"),
            // the command's own name and its output label, not config keys
            "VerifyCommand.java", List.of("verify: expected one", "history: "),
            // a plug-in sees the plug-in API only (decision 0132), where top-level keys are not declared
            "MvccProtocol.java", List.of("coroutines: MVCC timestamps"),
            "HadesFactory.java", List.of("fabric: protocol hades needs"));

    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

    @Test
    void noMessageSpellsAConfigKeyInline() throws IOException {
        List<Pattern> keys = new ArrayList<>();
        for (Param p : Config.TOP_LEVEL) {
            if (p == Config.NAME) continue;          // "name" is a word of every sentence
            String k = Pattern.quote(p.key());
            keys.add(Pattern.compile("\\b(set|raise|lower|--set|--vary) " + k + "\\b"));
            keys.add(Pattern.compile("^" + k + ": "));
        }
        for (ProtocolFactory f : Registry.protocols()) {
            for (Param p : f.parameters()) keys.add(Pattern.compile(Pattern.quote(Settings.optionKey(p.key())) + "\\b"));
        }
        for (WorkloadFactory f : Registry.workloads()) {
            for (Param p : f.parameters()) keys.add(Pattern.compile(Pattern.quote(Settings.workloadKey(p.key())) + "\\b"));
        }
        List<Path> sources;
        try (Stream<Path> s = Files.walk(Path.of("..").toAbsolutePath().normalize())) {
            sources = s.filter(p -> p.toString().contains("/src/main/java/") && !p.toString().contains("/target/")
                    && p.toString().endsWith(".java")).toList();
        }
        assertTrue(sources.size() > 300, "every module's main sources: " + sources.size());
        List<String> inline = new ArrayList<>();
        for (Path f : sources) {
            String name = f.getFileName().toString();
            if (name.equals("Help.java")) continue;    // the help's examples run as written (HelpAndExamplesTest); so do "./rcc " lines
            List<String> lines = Files.readAllLines(f);
            for (int n = 0; n < lines.size(); n++) {
                String line = lines.get(n), code = line.strip();
                // declarations (a key's own help) and comments
                if (line.contains("Param.of") || line.contains("new Param(") || code.startsWith("*") || code.startsWith("//")) continue;
                Matcher m = LITERAL.matcher(line);
                while (m.find()) {
                    String lit = m.group(1);
                    if (lit.contains("./rcc ") || ALLOWED.getOrDefault(name, List.of()).stream().anyMatch(lit::contains)) continue;
                    if (keys.stream().anyMatch(k -> k.matcher(lit).find())) inline.add(name + ":" + (n + 1) + ": \"" + lit + "\"");
                }
            }
        }
        assertEquals(List.of(), inline, "config keys spelled in a literal: use the key's constant");
    }
}
