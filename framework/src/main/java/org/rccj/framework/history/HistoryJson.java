package org.rccj.framework.history;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON-lines history export of design.md §8: one object per committed transaction and line,
 * <pre>{"txn": 17, "type": "Amalgamate", "reads": [["savings", 3, 0]], "writes": [["checking", 3, 17, 0]]}</pre>
 * with tables given by name. Written and parsed by hand (no JSON library), streaming line by line.
 *
 * <p>The file names tables but not their ids: {@link #read} numbers tables in order of first
 * appearance, so a history whose tables first appear in id order (and are all used) reads back
 * with the same ids.
 */
public final class HistoryJson {
    private HistoryJson() {}

    /** A history read back from a file, with the table names its table ids index. */
    public record Loaded(List<HistoryRecord> history, List<String> tableNames) {}

    private static final int BUFFER = 1 << 16;

    // ------------------------------------------------------------------ writing

    /** Writes {@code history} to {@code file} (replacing it), one JSON object per line. */
    public static void write(Path file, List<HistoryRecord> history, List<String> tableNames) {
        String[] quotedTables = new String[tableNames.size()];
        for (int i = 0; i < quotedTables.length; i++) quotedTables[i] = quote(tableNames.get(i));
        Map<String, String> quotedTypes = new HashMap<>();
        try (Writer out = new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8)) {
            LineWriter line = new LineWriter(out);
            for (HistoryRecord h : history) {
                line.text("{\"txn\": ").number(h.txn()).text(", \"type\": ");
                String type = h.type();
                line.text(type == null ? "null" : quotedTypes.computeIfAbsent(type, HistoryJson::quote));
                line.text(", \"reads\": [");
                long[] r = h.reads();
                int rn = r == null ? 0 : r.length / 3;
                for (int i = 0; i < rn; i++) {
                    if (i > 0) line.text(", ");
                    line.text("[").text(tableName(quotedTables, r[3 * i], h))
                            .text(", ").number(r[3 * i + 1]).text(", ").number(r[3 * i + 2]).text("]");
                }
                line.text("], \"writes\": [");
                long[] w = h.writes();
                int wn = w == null ? 0 : w.length / 4;
                for (int i = 0; i < wn; i++) {
                    if (i > 0) line.text(", ");
                    line.text("[").text(tableName(quotedTables, w[4 * i], h))
                            .text(", ").number(w[4 * i + 1]).text(", ").number(w[4 * i + 2])
                            .text(", ").number(w[4 * i + 3]).text("]");
                }
                line.text("]}\n");
            }
            line.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing history " + file, e);
        }
    }

    private static String tableName(String[] quotedTables, long table, HistoryRecord h) {
        if (table < 0 || table >= quotedTables.length)
            throw new IllegalArgumentException("T" + h.txn() + ": table id " + table + " has no name ("
                    + quotedTables.length + " tables)");
        return quotedTables[(int) table];
    }

    /** A JSON string literal for s, escaping quotes, backslashes and control characters. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }

    /** A char buffer in front of a Writer that formats longs without allocating. */
    private static final class LineWriter {
        private final Writer out;
        private final char[] buf = new char[BUFFER];
        private int pos;

        LineWriter(Writer out) { this.out = out; }

        LineWriter text(String s) throws IOException {
            int len = s.length();
            if (len > buf.length - pos) {
                drain();
                if (len > buf.length) {
                    out.write(s);
                    return this;
                }
            }
            s.getChars(0, len, buf, pos);
            pos += len;
            return this;
        }

        LineWriter number(long v) throws IOException {
            if (buf.length - pos < 20) drain();
            if (v == Long.MIN_VALUE) return text(Long.toString(v));
            if (v < 0) {
                buf[pos++] = '-';
                v = -v;
            }
            int start = pos;
            do {
                buf[pos++] = (char) ('0' + (int) (v % 10));
                v /= 10;
            } while (v != 0);
            for (int i = start, j = pos - 1; i < j; i++, j--) {
                char t = buf[i];
                buf[i] = buf[j];
                buf[j] = t;
            }
            return this;
        }

        private void drain() throws IOException {
            out.write(buf, 0, pos);
            pos = 0;
        }

        void flush() throws IOException {
            drain();
            out.flush();
        }
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
        List<String> tableNames = new ArrayList<>();
        Map<String, Integer> tableIds = new HashMap<>();
        Map<String, String> types = new HashMap<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            LineParser parser = new LineParser(file, tableNames, tableIds, types);
            String text;
            int lineNo = 0;
            while ((text = in.readLine()) != null) {
                lineNo++;
                if (text.isBlank()) continue;
                history.add(parser.parse(text, lineNo));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading history " + file, e);
        }
        return new Loaded(history, List.copyOf(tableNames));
    }

    /** Parses one line; reusable across lines (holds growable scratch arrays). */
    private static final class LineParser {
        private final Path file;
        private final List<String> tableNames;
        private final Map<String, Integer> tableIds;
        private final Map<String, String> types;
        private final StringBuilder sb = new StringBuilder();
        private long[] scratch = new long[64];
        private String s;
        private int p;
        private int lineNo;

        LineParser(Path file, List<String> tableNames, Map<String, Integer> tableIds, Map<String, String> types) {
            this.file = file;
            this.tableNames = tableNames;
            this.tableIds = tableIds;
            this.types = types;
        }

        HistoryRecord parse(String line, int lineNo) {
            this.s = line;
            this.p = 0;
            this.lineNo = lineNo;
            boolean haveTxn = false;
            long txn = 0;
            String type = null;
            long[] reads = new long[0], writes = new long[0];
            skipWs();
            expect('{');
            skipWs();
            if (peek() != '}') {
                while (true) {
                    skipWs();
                    String name = string();
                    skipWs();
                    expect(':');
                    skipWs();
                    switch (name) {
                        case "txn" -> {
                            txn = number("txn");
                            haveTxn = true;
                        }
                        case "type" -> {
                            if (s.startsWith("null", p)) {
                                p += 4;
                                type = null;
                            } else {
                                type = types.computeIfAbsent(string(), t -> t);
                            }
                        }
                        case "reads" -> reads = tuples(3, "reads");
                        case "writes" -> writes = tuples(4, "writes");
                        default -> skipValue();
                    }
                    skipWs();
                    char c = next();
                    if (c == '}') break;
                    if (c != ',') throw error(p - 1, "expected ',' or '}' after member \"" + name + "\"");
                }
            } else {
                p++;
            }
            skipWs();
            if (p < s.length()) throw error(p, "unexpected text after the object");
            if (!haveTxn) throw error(0, "missing \"txn\"");
            return new HistoryRecord(txn, type, reads, writes);
        }

        /** An array of arrays [table-name, long, long(, long)], flattened with table names as ids. */
        private long[] tuples(int width, String what) {
            expect('[');
            int count = 0;
            skipWs();
            if (peek() == ']') {
                p++;
                return new long[0];
            }
            while (true) {
                skipWs();
                expect('[');
                skipWs();
                if (count + width > scratch.length) scratch = Arrays.copyOf(scratch, scratch.length * 2);
                int at = p;
                if (peek() != '"') throw error(at, what + ": expected a table name string");
                String table = string();
                Integer id = tableIds.get(table);
                if (id == null) {
                    id = tableNames.size();
                    tableIds.put(table, id);
                    tableNames.add(table);
                }
                scratch[count++] = id;
                for (int i = 1; i < width; i++) {
                    skipWs();
                    expect(',', what + ": expected " + width + " elements [table, key, version"
                            + (width == 4 ? ", prev_version]" : "]"));
                    skipWs();
                    scratch[count++] = number(what);
                }
                skipWs();
                expect(']', what + ": expected ']' after " + width + " elements");
                skipWs();
                char c = next();
                if (c == ']') break;
                if (c != ',') throw error(p - 1, what + ": expected ',' or ']'");
            }
            return Arrays.copyOf(scratch, count);
        }

        private long number(String what) {
            int start = p;
            boolean negative = false;
            if (p < s.length() && s.charAt(p) == '-') {
                negative = true;
                p++;
            }
            int digits = p;
            long v = 0;
            while (p < s.length()) {
                char c = s.charAt(p);
                if (c < '0' || c > '9') break;
                int d = c - '0';
                // Accumulate negatively so Long.MIN_VALUE parses.
                if (v < (Long.MIN_VALUE + d) / 10) throw error(start, what + ": number out of range");
                v = v * 10 - d;
                p++;
            }
            if (p == digits) throw error(start, what + ": expected an integer");
            if (p < s.length()) {
                char c = s.charAt(p);
                if (c == '.' || c == 'e' || c == 'E') throw error(start, what + ": expected an integer, not a fraction");
            }
            if (!negative) {
                if (v == Long.MIN_VALUE) throw error(start, what + ": number out of range");
                v = -v;
            }
            return v;
        }

        private String string() {
            if (peek() != '"') throw error(p, "expected a string");
            p++;
            sb.setLength(0);
            while (true) {
                if (p >= s.length()) throw error(p, "unterminated string");
                char c = s.charAt(p++);
                if (c == '"') return sb.toString();
                if (c < 0x20) throw error(p - 1, "control character in string");
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (p >= s.length()) throw error(p, "unterminated escape");
                char e = s.charAt(p++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (p + 4 > s.length()) throw error(p - 2, "bad \\u escape");
                        int v = 0;
                        for (int i = 0; i < 4; i++) {
                            int h = Character.digit(s.charAt(p + i), 16);
                            if (h < 0) throw error(p - 2, "bad \\u escape");
                            v = v * 16 + h;
                        }
                        p += 4;
                        sb.append((char) v);
                    }
                    default -> throw error(p - 2, "bad escape \\" + e);
                }
            }
        }

        /** Skips any JSON value (for members this reader does not know). */
        private void skipValue() {
            char c = peek();
            switch (c) {
                case '"' -> string();
                case '{', '[' -> {
                    char close = c == '{' ? '}' : ']';
                    p++;
                    skipWs();
                    if (peek() == close) {
                        p++;
                        return;
                    }
                    while (true) {
                        skipWs();
                        if (c == '{') {
                            string();
                            skipWs();
                            expect(':');
                            skipWs();
                        }
                        skipValue();
                        skipWs();
                        char d = next();
                        if (d == close) return;
                        if (d != ',') throw error(p - 1, "expected ',' or '" + close + "'");
                    }
                }
                default -> {
                    int start = p;
                    while (p < s.length() && "{}[],: \t\"".indexOf(s.charAt(p)) < 0) p++;
                    String lit = s.substring(start, p);
                    if (!lit.equals("true") && !lit.equals("false") && !lit.equals("null")
                            && !lit.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?"))
                        throw error(start, "expected a value");
                }
            }
        }

        private void skipWs() {
            while (p < s.length()) {
                char c = s.charAt(p);
                if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return;
                p++;
            }
        }

        private char peek() {
            if (p >= s.length()) throw error(p, "unexpected end of line");
            return s.charAt(p);
        }

        private char next() {
            char c = peek();
            p++;
            return c;
        }

        private void expect(char c) {
            expect(c, "expected '" + c + "'");
        }

        private void expect(char c, String message) {
            if (p >= s.length() || s.charAt(p) != c) throw error(p, message);
            p++;
        }

        private IllegalArgumentException error(int at, String message) {
            String found = at < s.length() ? "'" + s.charAt(at) + "'" : "end of line";
            return new IllegalArgumentException(file + ": line " + lineNo + ", column " + (at + 1) + ": "
                    + message + " (found " + found + ")");
        }
    }
}
