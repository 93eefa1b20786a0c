package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;

class ResultWriterTest {
    private static List<String> list(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String withoutEnvironment(Path summary) throws Exception {
        ObjectNode n = (ObjectNode) new ObjectMapper().readTree(summary.toFile());
        n.remove("environment");
        ((ObjectNode) n.get("sim")).remove(List.of("wall_s", "cpu_s"));
        return n.toString();
    }

    @Test
    void writesAllThreeFilesAndLeavesNoTemporaries(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("results").resolve("sample");
        Path written = ResultWriter.write(SampleResults.sample("sim"), out);
        assertEquals(out.toAbsolutePath().normalize(), written);
        assertEquals(List.of("latency.hlog", "stages.csv", "summary.json", "timeline.csv"), list(out));
        assertEquals(List.of("sample"), list(tmp.resolve("results")));
    }

    @Test
    void sameResultTwiceGivesIdenticalFilesApartFromEnvironment(@TempDir Path tmp) throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        RunResult r1 = SampleResults.sample("sim");
        RunResult r2 = SampleResults.sample("sim");
        r2.wallS = 9.87; // wall-clock time is the one figure allowed to differ
        ResultWriter.write(r1, a);
        ResultWriter.write(r2, b);
        assertEquals(withoutEnvironment(a.resolve("summary.json")), withoutEnvironment(b.resolve("summary.json")));
        for (String f : List.of("stages.csv", "timeline.csv", "latency.hlog")) {
            assertEquals(Files.readString(a.resolve(f)), Files.readString(b.resolve(f)), f);
        }
        String textA = Files.readString(a.resolve("summary.json"));
        String textB = Files.readString(b.resolve("summary.json"));
        int cutA = textA.indexOf("\"sim\"");
        assertEquals(textA.substring(0, cutA), textB.substring(0, textB.indexOf("\"sim\"")), "byte-identical up to sim/environment");
    }

    @Test
    void replacesAPreviousResult(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        ResultWriter.write(SampleResults.sample("sim"), out);
        Files.writeString(out.resolve("plot.svg"), "<svg/>");
        RunResult r = SampleResults.sample("sim");
        r.total.commits = 777;
        ResultWriter.write(r, out);
        assertEquals(List.of("latency.hlog", "stages.csv", "summary.json", "timeline.csv"), list(out));
        assertEquals(777, SummaryJson.read(out.resolve("summary.json")).get("commits").asLong());
        assertEquals(List.of("run"), list(tmp), "no .tmp or .old directories left");
    }

    @Test
    void writesIntoAnEmptyDirectory(@TempDir Path tmp) throws Exception {
        Path out = Files.createDirectory(tmp.resolve("empty"));
        assertNull(ResultWriter.problemWith(out));
        ResultWriter.write(SampleResults.sample("sim"), out);
        assertTrue(Files.exists(out.resolve("summary.json")));
    }

    @Test
    void refusesToReplaceSomethingThatIsNotAResult(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("src"));
        Files.writeString(dir.resolve("Main.java"), "class Main {}");
        assertNotNull(ResultWriter.problemWith(dir));
        Exception e = assertThrows(java.io.IOException.class, () -> ResultWriter.write(SampleResults.sample("sim"), dir));
        assertTrue(e.getMessage().contains("not a result directory"), e.getMessage());
        assertEquals(List.of("Main.java"), list(dir));
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertNotNull(ResultWriter.problemWith(file));
        assertThrows(java.io.IOException.class, () -> ResultWriter.write(SampleResults.sample("sim"), file));
        assertEquals(List.of("file", "src"), list(tmp));
        assertFalse(Files.isDirectory(file));
    }
}
