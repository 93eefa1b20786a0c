package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * CITATION.cff holds what CFF 1.2.0 requires of the file and of each reference (type, title, authors), and every author
 * of a paper by name: CFF has no "et al." (at 10ebb0c the HADES paper listed one author and an entity named "et al.").
 */
class CitationTest {
    private static final Pattern ET_AL = Pattern.compile("(?i)\\bet\\.? ?al\\b");

    @Test
    void everyReferenceNamesAllItsAuthors() throws Exception {
        JsonNode cff = new ObjectMapper(new YAMLFactory()).readTree(Path.of("..", "CITATION.cff").toFile());
        for (String key : new String[] {"cff-version", "message", "title", "authors"}) assertTrue(cff.hasNonNull(key), key);
        assertTrue(cff.get("references").size() >= 3);
        for (JsonNode ref : cff.get("references")) {
            String title = ref.path("title").asText();
            assertFalse(title.isEmpty() || ref.path("type").asText().isEmpty(), ref.toString());
            assertTrue(ref.path("authors").size() > 0, title);
            for (JsonNode a : ref.get("authors")) {
                boolean person = a.hasNonNull("family-names") && a.hasNonNull("given-names");
                assertTrue(person || a.hasNonNull("name"), title + ": an author without a name: " + a);
                assertFalse(ET_AL.matcher(a.toString()).find(), title + ": 'et al.' is not an author: list every one");
            }
        }
    }
}
