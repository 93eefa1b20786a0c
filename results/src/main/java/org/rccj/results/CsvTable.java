package org.rccj.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A CSV file read back (header plus rows of cells; RFC 4180 quoting), for plots of sweep.csv and hybrid.csv. */
public record CsvTable(List<String> header, List<List<String>> rows) {

    public static CsvTable read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** Parses CSV text; {@code source} names it in errors. */
    public static CsvTable parse(String text, String source) throws IOException {
        List<List<String>> lines = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false, any = false;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (quoted) {
                if (ch == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        cell.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cell.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
                any = true;
            } else if (ch == ',') {
                cur.add(cell.toString());
                cell.setLength(0);
                any = true;
            } else if (ch == '\n' || ch == '\r') {
                if (ch == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
                if (any || cell.length() > 0) {
                    cur.add(cell.toString());
                    lines.add(cur);
                }
                cur = new ArrayList<>();
                cell.setLength(0);
                any = false;
            } else {
                cell.append(ch);
                any = true;
            }
        }
        if (quoted) throw new IOException(source + ": unterminated quoted cell");
        if (any || cell.length() > 0) {
            cur.add(cell.toString());
            lines.add(cur);
        }
        if (lines.isEmpty()) throw new IOException(source + ": empty CSV file (no header)");
        List<String> header = lines.get(0);
        List<List<String>> rows = lines.subList(1, lines.size());
        for (int r = 0; r < rows.size(); r++) {
            if (rows.get(r).size() != header.size()) {
                throw new IOException(source + ": row " + (r + 1) + " has " + rows.get(r).size() + " cells, the header " + header.size());
            }
        }
        return new CsvTable(List.copyOf(header), List.copyOf(rows));
    }

    /** Index of a column, or -1. */
    public int column(String name) { return header.indexOf(name); }

    public String get(int row, String column) {
        int c = column(column);
        return c < 0 ? null : rows.get(row).get(c);
    }

    /** A numeric cell; NaN when empty, missing or not a number. */
    public double number(int row, String column) {
        String s = get(row, column);
        if (s == null || s.isBlank()) return Double.NaN;
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The key columns: those before {@code runs} (ResultTable's layout); empty when there is no runs column. */
    public List<String> keyColumns() {
        int r = column("runs");
        return r < 0 ? List.of() : header.subList(0, r);
    }
}
