package org.rccj.framework.history;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rccj.framework.history.Txn.txn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryJsonTest {
    @TempDir Path dir;

    private static void assertSameHistory(List<HistoryRecord> expected, List<HistoryRecord> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            HistoryRecord e = expected.get(i), a = actual.get(i);
            assertEquals(e.txn(), a.txn(), "txn of record " + i);
            assertEquals(e.type(), a.type(), "type of record " + i);
            assertArrayEquals(e.reads(), a.reads(), "reads of record " + i);
            assertArrayEquals(e.writes(), a.writes(), "writes of record " + i);
        }
    }

    @Test
    void writesTheDesignFormat() throws IOException {
        Path f = dir.resolve("h.jsonl");
        HistoryJson.write(f, List.of(txn(17, "Amalgamate").read(0, 3, 0).write(1, 3, 17, 0).build()),
                List.of("savings", "checking"));
        assertEquals(List.of("{\"txn\": 17, \"type\": \"Amalgamate\", \"reads\": [[\"savings\", 3, 0]], "
                + "\"writes\": [[\"checking\", 3, 17, 0]]}"), Files.readAllLines(f));
        HistoryJson.write(f, List.of(txn(1, null).build(), txn(2, "B").read(0, -1, 0).build()), List.of("t"));
        assertEquals("{\"txn\": 1, \"type\": null, \"reads\": [], \"writes\": []}\n"
                + "{\"txn\": 2, \"type\": \"B\", \"reads\": [[\"t\", -1, 0]], \"writes\": []}\n", Files.readString(f));
    }

    @Test
    void errorsSayWhatIsWrongAndWhere() throws IOException {
        Path f = dir.resolve("e.jsonl");
        Files.writeString(f, "{\"txn\": 1}\n{\"txn\": 3.5}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HistoryJson.read(f));
        assertTrue(e.getMessage().endsWith("e.jsonl: line 2, column 9: txn: expected an integer, not a fraction"), e.getMessage());
        Files.writeString(f, "{\"txn\": 1, \"writes\": [[\"t\", 1, 2]]}\n");
        e = assertThrows(IllegalArgumentException.class, () -> HistoryJson.read(f));
        assertTrue(e.getMessage().contains("line 1, column 33: writes: expected 4 elements"), e.getMessage());
    }

    @Test
    void roundTripGivesEqualRecordsAndTableNames() {
        List<String> tables = List.of("savings", "checking \"quoted\" \\ tab\t", "ünïcode-表");
        List<HistoryRecord> h = new ArrayList<>();
        h.add(txn(1, "Amalgamate").read(0, 3, 0).read(1, 3, 0).write(1, 3, 17, 0).write(0, 3, 18, 0).build());
        h.add(txn(2, "Send\nPayment \"x\" \u0001").build());
        h.add(txn(Long.MAX_VALUE, null).read(2, Long.MIN_VALUE, Long.MAX_VALUE).write(1, -5, 1, 17).build());
        for (int i = 0; i < 5000; i++) { // enough to cross the writer's buffer several times
            h.add(txn(100 + i, "Balance").read(i % 3, i, i * 7L).write(i % 2, i, 1_000_000_000_000L + i, i).build());
        }
        Path f = dir.resolve("h.jsonl");
        HistoryJson.write(f, h, tables);
        HistoryJson.Loaded loaded = HistoryJson.read(f);
        assertEquals(tables, loaded.tableNames());
        assertSameHistory(h, loaded.history());
    }

    @Test
    void tablesAreNumberedInOrderOfFirstAppearance() {
        List<String> tables = List.of("a", "b", "c");
        List<HistoryRecord> h = List.of(txn(1).read(2, 1, 0).write(0, 1, 5, 0).build());
        Path f = dir.resolve("h.jsonl");
        HistoryJson.write(f, h, tables);
        HistoryJson.Loaded loaded = HistoryJson.read(f);
        assertEquals(List.of("c", "a"), loaded.tableNames());
        HistoryRecord r = loaded.history().get(0);
        assertEquals("c", loaded.tableNames().get(r.readTable(0)));
        assertEquals("a", loaded.tableNames().get(r.writeTable(0)));
    }

    @Test
    void readsFreeFormattingAndSkipsUnknownMembers() throws IOException {
        Path f = dir.resolve("h.jsonl");
        Files.writeString(f, "\n  { \"writes\":[ [\"t\",1,2,0] ] , \"extra\": {\"a\": [1, 2.5e3, true, null, \"s\"]},"
                + " \"txn\":4,\"type\":\"A\\u00e9\\/\" }  \n\n");
        HistoryJson.Loaded loaded = HistoryJson.read(f);
        assertEquals(List.of("t"), loaded.tableNames());
        assertSameHistory(List.of(txn(4, "Aé/").write(0, 1, 2, 0).build()), loaded.history());
    }

    @Test
    void malformedLineIsReportedWithItsNumber() throws IOException {
        String good = "{\"txn\": 1, \"type\": \"A\", \"reads\": [], \"writes\": []}\n";
        String[] bad = {
            "{\"txn\": 3, \"type\": \"A\", \"reads\": [[\"t\", 1]], \"writes\": []}",
            "{\"txn\": 3, \"type\": \"A\", \"reads\": [], \"writes\": [[\"t\", 1, 2]]}",
            "{\"txn\": 3.5, \"type\": \"A\", \"reads\": [], \"writes\": []}",
            "{\"txn\": 3, \"type\": \"A\", \"reads\": [[\"t\", 1, 0]], \"writes\": []",
            "{\"txn\": 3, \"type\": \"A\"} trailing",
            "{\"type\": \"A\"}",
            "{\"txn\": 99999999999999999999}",
            "{\"txn\": 3, \"reads\": [[1, 1, 0]]}",
            "{\"txn\": 3, \"type\": \"unterminated}",
        };
        for (String b : bad) {
            Path f = dir.resolve("bad.jsonl");
            Files.writeString(f, good + "\n" + b + "\n" + good, StandardCharsets.UTF_8);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HistoryJson.read(f), b);
            assertTrue(e.getMessage().contains("line 3,"), e.getMessage());
            assertTrue(e.getMessage().contains("bad.jsonl"), e.getMessage());
        }
    }

    @Test
    void checkerFindsWriteSkewInAnExportedHistory() {
        Path f = dir.resolve("skew.jsonl");
        HistoryJson.write(f, List.of(
                txn(1).read(0, 1, 0).read(0, 2, 0).write(0, 1, 11, 0).build(),
                txn(2).read(0, 1, 0).read(0, 2, 0).write(0, 2, 12, 0).build()), List.of("doctors"));
        HistoryJson.Loaded loaded = HistoryJson.read(f);
        CheckResult r = SerializabilityChecker.check(loaded.history(), loaded.tableNames());
        assertFalse(r.serializable());
        assertTrue(r.anomalies().get(0).contains("-rw(doctors#1 v0->v11)->"), r.anomalies().toString());
    }

    @Test
    void unnamedTableIdIsRejectedOnWrite() {
        Path f = dir.resolve("h.jsonl");
        assertThrows(IllegalArgumentException.class,
                () -> HistoryJson.write(f, List.of(txn(1).read(5, 1, 0).build()), List.of("a")));
    }
}
