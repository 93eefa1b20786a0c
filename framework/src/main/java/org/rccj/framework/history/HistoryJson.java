package org.rccj.framework.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON-lines history export of docs/architecture.md: one object per committed transaction and line,
 * <pre>{"txn": 17, "type": "Amalgamate", "reads": [["savings", 3, 0]], "writes": [["checking", 3, 17, 0]]}</pre>
 * with tables given by name. Written and read with Jackson's streaming generator and parser, line by line.
 *
 * <p>The file names tables but not their ids: {@link #read} numbers tables in order of first
 * appearance, so a history whose tables first appear in id order (and are all used) reads back
 * with the same ids.
 */
public final class HistoryJson {
    private HistoryJson() {}

    /** A history read back from a file, with the table names its table ids index. */
    public record Loaded(List<HistoryRecord> history, List<String> tableNames) {}

    private static final JsonFactory JSON = JsonFactory.builder().build();

    // ------------------------------------------------------------------ writing

    /** Writes {@code history} to {@code file} (replacing it), one JSON object per line. */
    public static void write(Path file, List<HistoryRecord> history, List<String> tableNames) {
        SerializedString[] tables = new SerializedString[tableNames.size()];
        for (int i = 0; i < tables.length; i++) tables[i] = new SerializedString(tableNames.get(i));
        Map<String, SerializedString> types = new HashMap<>();
        SerializedString txnField = new SerializedString("txn"), typeField = new SerializedString("type"),
                readsField = new SerializedString("reads"), writesField = new SerializedString("writes");
        try (OutputStream os = Files.newOutputStream(file);
             JsonGenerator g = JSON.createGenerator(os).setPrettyPrinter(LinePrinter.INSTANCE)) {
            for (HistoryRecord h : history) {
                g.writeStartObject();
                g.writeFieldName(txnField);
                g.writeNumber(h.txn());
                g.writeFieldName(typeField);
                if (h.type() == null) g.writeNull();
                else g.writeString(types.computeIfAbsent(h.type(), SerializedString::new));
                g.writeFieldName(readsField);
                tuples(g, h.reads(), 3, tables, h);
                g.writeFieldName(writesField);
                tuples(g, h.writes(), 4, tables, h);
                g.writeEndObject();
                g.writeRaw('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing history " + file, e);
        }
    }

    private static void tuples(JsonGenerator g, long[] flat, int width, SerializedString[] tables, HistoryRecord h) throws IOException {
        g.writeStartArray();
        int n = flat == null ? 0 : flat.length / width;
        for (int i = 0; i < n; i++) {
            g.writeStartArray();
            long table = flat[width * i];
            if (table < 0 || table >= tables.length)
                throw new IllegalArgumentException("T" + h.txn() + ": table id " + table + " has no name ("
                        + tables.length + " tables)");
            g.writeString(tables[(int) table]);
            for (int k = 1; k < width; k++) g.writeNumber(flat[width * i + k]);
            g.writeEndArray();
        }
        g.writeEndArray();
    }

    /** The layout of the design's example: ": " after names, ", " between members and elements, no line breaks. */
    private static final class LinePrinter implements PrettyPrinter {
        static final LinePrinter INSTANCE = new LinePrinter();

        @Override public void writeRootValueSeparator(JsonGenerator g) {} // each object ends with its own '\n'
        @Override public void writeStartObject(JsonGenerator g) throws IOException { g.writeRaw('{'); }
        @Override public void writeEndObject(JsonGenerator g, int entries) throws IOException { g.writeRaw('}'); }
        @Override public void writeObjectEntrySeparator(JsonGenerator g) throws IOException { g.writeRaw(", "); }
        @Override public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException { g.writeRaw(": "); }
        @Override public void writeStartArray(JsonGenerator g) throws IOException { g.writeRaw('['); }
        @Override public void writeEndArray(JsonGenerator g, int values) throws IOException { g.writeRaw(']'); }
        @Override public void writeArrayValueSeparator(JsonGenerator g) throws IOException { g.writeRaw(", "); }
        @Override public void beforeArrayValues(JsonGenerator g) {}
        @Override public void beforeObjectEntries(JsonGenerator g) {}
    }

    // ------------------------------------------------------------------ reading

    /**
     * Reads a history written by {@link #write} (or any producer of the same format: whitespace and
     * member order are free, unknown members are skipped, blank lines are ignored).
     *
     * @throws IllegalArgumentException naming the file, line and column of the first malformed input
     */
    public static Loaded read(Path file) {
        List<HistoryRecord> history = new ArrayList<>();
        LineReader reader = new LineReader(file);
        int lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String text;
            while ((text = in.readLine()) != null) {
                lineNo++;
                if (text.isBlank()) continue;
                history.add(reader.parse(text, lineNo));
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            // the reader decodes ahead of the lines it returned: the bad bytes are on the next line or a little after
            throw new IllegalArgumentException(file + ": line " + (lineNo + 1) + " (or soon after): not UTF-8 text");
        } catch (IOException e) {
            throw new UncheckedIOException("reading history " + file + ": " + e.getMessage(), e);
        }
        return new Loaded(history, List.copyOf(reader.tableNames));
    }

    /** Parses one line at a time; keeps the table numbering and interned type names across lines. */
    private static final class LineReader {
        private final Path file;
        private final List<String> tableNames = new ArrayList<>();
        private final Map<String, Integer> tableIds = new HashMap<>();
        private final Map<String, String> types = new HashMap<>();
        private long[] scratch = new long[64];
        private JsonParser p;
        private int lineNo;

        LineReader(Path file) { this.file = file; }

        HistoryRecord parse(String line, int lineNo) {
            this.lineNo = lineNo;
            try (JsonParser parser = JSON.createParser(line)) {
                this.p = parser;
                return record();
            } catch (JsonProcessingException e) {
                throw error(e.getLocation(), plain(e.getOriginalMessage()));
            } catch (IOException e) {
                throw new UncheckedIOException("reading history " + file, e);
            }
        }

        private HistoryRecord record() throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) throw error("expected '{'");
            JsonLocation start = p.currentTokenLocation();
            boolean haveTxn = false;
            long txn = 0;
            String type = null;
            long[] reads = new long[0], writes = new long[0];
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "txn" -> {
                        txn = integer("txn");
                        haveTxn = true;
                    }
                    case "type" -> {
                        if (value == JsonToken.VALUE_NULL) type = null;
                        else if (value == JsonToken.VALUE_STRING) type = types.computeIfAbsent(p.getText(), t -> t);
                        else throw error("type: expected a string or null");
                    }
                    case "reads" -> reads = tuples(3, "reads");
                    case "writes" -> writes = tuples(4, "writes");
                    default -> p.skipChildren();
                }
            }
            if (p.nextToken() != null) throw error("unexpected text after the object");
            if (!haveTxn) throw error(start, "missing \"txn\"");
            return new HistoryRecord(txn, type, reads, writes);
        }

        /** An array of arrays [table-name, long, long(, long)], flattened with table names as ids. */
        private long[] tuples(int width, String what) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) throw error(what + ": expected '['");
            String shape = what + ": expected " + width + " elements [table, key, version" + (width == 4 ? ", prev_version]" : "]");
            int count = 0;
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t != JsonToken.START_ARRAY) throw error(what + ": expected '['");
                if (count + width > scratch.length) scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, count + width));
                if (p.nextToken() != JsonToken.VALUE_STRING) throw error(what + ": expected a table name string");
                String table = p.getText();
                Integer id = tableIds.get(table);
                if (id == null) {
                    id = tableNames.size();
                    tableIds.put(table, id);
                    tableNames.add(table);
                }
                scratch[count++] = id;
                for (int i = 1; i < width; i++) {
                    if (p.nextToken() == JsonToken.END_ARRAY) throw error(shape);
                    scratch[count++] = integer(what);
                }
                if (p.nextToken() != JsonToken.END_ARRAY) throw error(shape);
            }
            return Arrays.copyOf(scratch, count);
        }

        private long integer(String what) throws IOException {
            JsonToken t = p.currentToken();
            if (t == JsonToken.VALUE_NUMBER_FLOAT) throw error(what + ": expected an integer, not a fraction");
            if (t != JsonToken.VALUE_NUMBER_INT) throw error(what + ": expected an integer");
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) throw error(what + ": number out of range");
            return p.getLongValue();
        }

        /** Jackson's message without its internals (source references, character codes, token lists). */
        static String plain(String jackson) {
            String m = String.valueOf(jackson);
            if (m.contains("end-of-input")) return "the line ends before its JSON object does (a truncated line?)";
            m = m.replaceAll("(?s)\\s*\\([^()]*\\[Source.*", "").replaceAll(" \\(code \\d+\\)", "")
                    .replaceAll("(?s)\\s*at \\[Source.*", "").replaceAll(" \\(for input source.*", "");
            int colon = m.indexOf(": was expecting");
            if (colon > 0) m = m.substring(0, colon) + " (not JSON)";
            int nl = m.indexOf('\n');
            return (nl >= 0 ? m.substring(0, nl) : m).strip();
        }

        private IllegalArgumentException error(String message) {
            return error(p.currentTokenLocation(), message);
        }

        private IllegalArgumentException error(JsonLocation at, String message) {
            String column = at == null || at.getColumnNr() < 1 ? "" : ", column " + at.getColumnNr();
            return new IllegalArgumentException(file + ": line " + lineNo + column + ": " + message);
        }
    }
}
