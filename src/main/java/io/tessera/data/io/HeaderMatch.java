package io.tessera.data.io;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.TableSchema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A text file's header line compared with the table it is imported into: the same names in the same order (ignoring
 * case and surrounding spaces) read the fields as the table's columns; the same names in another order read each
 * field into the column of its name; anything else is an error that names both lists, so that a file whose columns
 * differ from the table's is never loaded into the wrong columns.
 */
final class HeaderMatch {

    private HeaderMatch() {
    }

    /**
     * The names in the header record that starts at {@code buf[from]} and ends at a line end or {@code to} (CSV
     * quoting honoured; tbl's trailing delimiter ends the record).
     */
    static List<String> names(byte[] buf, int from, int to, byte delim, boolean csv) {
        List<String> names = new ArrayList<>();
        java.io.ByteArrayOutputStream field = new java.io.ByteArrayOutputStream();
        boolean inQuote = false;
        boolean quoted = false;
        boolean ended = false; // at the record's line end
        for (int p = from; p < to && !ended; p++) {
            byte c = buf[p];
            if (csv && c == '"') {
                if (inQuote && p + 1 < to && buf[p + 1] == '"') {
                    field.write('"');
                    p++;
                } else {
                    inQuote = !inQuote;
                    quoted = true;
                }
            } else if (!inQuote && (c == delim || c == '\n')) {
                names.add(text(field, quoted));
                field.reset();
                quoted = false;
                ended = c == '\n';
            } else {
                field.write(c);
            }
        }
        if (!ended) {
            names.add(text(field, quoted)); // the last record, without a line end
        }
        if (!csv && names.size() > 1 && names.getLast().isEmpty()) {
            names.removeLast(); // dbgen's trailing delimiter
        }
        return names;
    }

    private static String text(java.io.ByteArrayOutputStream field, boolean quoted) {
        String s = field.toString(StandardCharsets.UTF_8);
        if (!quoted && s.endsWith("\r")) {
            s = s.substring(0, s.length() - 1);
        }
        return s.strip();
    }

    /**
     * The columns the file's fields fill, in the file's order: {@code table} itself when the header names its
     * columns in order, else the table's columns in the header's order.
     *
     * @throws ImportException when the header's names are not the table's columns, each once
     */
    static TableSchema fields(String file, List<String> header, TableSchema table, byte delim,
                              OptionSpelling spelling) {
        List<String> columns = table.columns().stream().map(ColumnSchema::name).toList();
        Set<String> seen = new HashSet<>();
        Set<String> twice = new LinkedHashSet<>();
        List<String> extra = new ArrayList<>();
        for (String h : header) {
            String key = h.toLowerCase(Locale.ROOT);
            if (!seen.add(key)) {
                twice.add(h);
            } else if (table.indexOf(h) < 0) {
                extra.add(h);
            }
        }
        List<String> missing = columns.stream().filter(c -> !seen.contains(c.toLowerCase(Locale.ROOT))).toList();
        if (!twice.isEmpty() || !extra.isEmpty() || !missing.isEmpty()) {
            List<String> why = new ArrayList<>();
            if (!extra.isEmpty()) {
                why.add("not columns of the table: " + list(extra));
            }
            if (!missing.isEmpty()) {
                why.add("not in the header: " + list(missing));
            }
            if (!twice.isEmpty()) {
                why.add("twice in the header: " + list(new ArrayList<>(twice)));
            }
            String advice = header.size() == 1 && columns.size() > 1 ? otherDelimiter(header.getFirst(), spelling) : "";
            throw new ImportException(file, 1, 0, file + ":1: the header names the columns " + list(header)
                    + ", table " + table.name() + " has " + list(columns) + " (" + String.join("; ", why) + ")"
                    + advice);
        }
        boolean inOrder = true;
        List<ColumnSchema> ordered = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            ColumnSchema c = table.column(header.get(i));
            ordered.add(c);
            inOrder &= c == table.columns().get(i);
        }
        return inOrder ? table : new TableSchema(table.name(), ordered);
    }

    /** For a header read as one name: the advice to use the common delimiter it holds, or "". */
    private static String otherDelimiter(String name, OptionSpelling spelling) {
        for (char c : new char[] {';', '|', '\t', ','}) {
            if (name.indexOf(c) >= 0) {
                return ": the header holds " + (c == '\t' ? "tabs" : "'" + c + "'") + ", use "
                        + spelling.delimiter((byte) c);
            }
        }
        return "";
    }

    /** Names as a message lists them: each shown safely whatever the file holds, an empty one as "". */
    private static String list(List<String> names) {
        List<String> shown = new ArrayList<>();
        for (String n : names) {
            shown.add(n.isEmpty() ? "\"\"" : MessageText.escape(n.length() > 64 ? n.substring(0, 64) + "..." : n));
        }
        return String.join(", ", shown);
    }
}
