package io.tessera.sqltest;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.storage.DataType;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A query's rows as the text a {@code .test} file holds, and the comparison of the two: one line per row, values
 * separated by a tab. NULL is {@code NULL}, an empty string {@code (empty)}, a string with a leading or trailing
 * space is written in single quotes; DECIMAL at its column's scale; DOUBLE compared by value (see {@link #same}).
 */
final class ResultText {

    /** Relative tolerance of DOUBLE ({@code R}) values. */
    static final double DOUBLE_TOLERANCE = 1e-9;

    private ResultText() {
    }

    /** The type letter of a result column: I integers, R DOUBLE, D DECIMAL, T VARCHAR (BLOB and UUID too), DATE, TIMESTAMP and TIME, B BOOLEAN. */
    static char letter(DataType type) {
        return switch (type.kind()) {
            case INTEGER, BIGINT -> 'I';
            case DOUBLE -> 'R';
            case DECIMAL -> 'D';
            case DATE, TIMESTAMP, TIMESTAMP_TZ, TIME, VARCHAR -> 'T';
            case BOOLEAN -> 'B';
        };
    }

    static String letters(QueryResult r) {
        StringBuilder sb = new StringBuilder();
        for (ResultColumn c : r.columns()) {
            sb.append(letter(c.type()));
        }
        return sb.toString();
    }

    /** One value as text. */
    static String value(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof java.time.LocalTime t) {
            return io.tessera.storage.Values.format(t);
        }
        if (v instanceof java.time.OffsetDateTime t) { // as DuckDB writes it, at the offset of the session's zone
            return io.tessera.storage.ZonedTimestamps.format(io.tessera.storage.ZonedTimestamps.micros(t), t.getOffset());
        }
        if (v instanceof java.time.LocalDateTime t) {
            return io.tessera.storage.Timestamps.format(io.tessera.storage.Timestamps.micros(t));
        }
        if (v instanceof byte[] b) { // BLOB, as DuckDB writes it
            return b.length == 0 ? "(empty)" : io.tessera.storage.ByteStrings.format(b);
        }
        if (v instanceof String s) {
            if (s.isEmpty()) {
                return "(empty)";
            }
            if (s.strip().length() != s.length()) {
                return "'" + s + "'";
            }
            return s;
        }
        return v.toString();
    }

    /** The rows of a result, each a list of value texts. */
    static List<List<String>> rows(QueryResult r) {
        List<List<String>> out = new ArrayList<>();
        for (Object[] row : r.rows()) {
            List<String> l = new ArrayList<>(row.length);
            for (Object v : row) {
                l.add(value(v));
            }
            out.add(l);
        }
        return out;
    }

    /** Expected lines split into values: on tabs when the line has one, else on runs of spaces. */
    static List<List<String>> parseExpected(List<String> lines, int columns) {
        List<List<String>> out = new ArrayList<>();
        for (String line : lines) {
            if (columns == 1) {
                out.add(List.of(line.strip().equals(line) ? line : line.strip()));
            } else if (line.indexOf('\t') >= 0) {
                out.add(List.of(line.split("\t", -1)));
            } else {
                out.add(List.of(line.strip().split(" +")));
            }
        }
        return out;
    }

    /** Orders rows (or values) as the sort mode says; returns a new list. */
    static List<List<String>> sorted(List<List<String>> rows, SqlTestRecord.SortMode mode) {
        List<List<String>> out = new ArrayList<>(rows);
        switch (mode) {
            case NOSORT -> {
            }
            case ROWSORT -> out.sort((a, b) -> String.join("\t", a).compareTo(String.join("\t", b)));
            case VALUESORT -> {
                List<String> values = new ArrayList<>();
                rows.forEach(values::addAll);
                Collections.sort(values);
                out.clear();
                values.forEach(v -> out.add(List.of(v)));
            }
        }
        return out;
    }

    /** Whether two value texts of a column of type {@code letter} are equal: R by value within the tolerance. */
    static boolean same(char letter, String expected, String actual) {
        if (expected.equals(actual)) {
            return true;
        }
        if (letter != 'R' || expected.equals("NULL") || actual.equals("NULL")) {
            return false;
        }
        try {
            double e = Double.parseDouble(expected);
            double a = Double.parseDouble(actual);
            if (Double.isNaN(e) || Double.isNaN(a) || Double.isInfinite(e) || Double.isInfinite(a)) {
                return Double.compare(e, a) == 0;
            }
            return Math.abs(e - a) <= DOUBLE_TOLERANCE * Math.max(Math.abs(e), Math.abs(a));
        } catch (NumberFormatException x) {
            return false;
        }
    }

    /** Whether the rows agree value by value ({@code letters}: the column types; valuesort compares as text). */
    static boolean same(String letters, List<List<String>> expected, List<List<String>> actual, boolean byValue) {
        if (expected.size() != actual.size()) {
            return false;
        }
        for (int r = 0; r < expected.size(); r++) {
            List<String> e = expected.get(r);
            List<String> a = actual.get(r);
            if (e.size() != a.size()) {
                return false;
            }
            for (int c = 0; c < e.size(); c++) {
                char letter = byValue ? 'T' : letters.charAt(c);
                if (!same(letter, e.get(c), a.get(c))) {
                    return false;
                }
            }
        }
        return true;
    }

    static String render(List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        for (List<String> r : rows) {
            sb.append("  ").append(String.join("\t", r)).append('\n');
        }
        return rows.isEmpty() ? "  (no rows)\n" : sb.toString();
    }
}
