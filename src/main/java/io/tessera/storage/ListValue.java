package io.tessera.storage;

import java.util.List;

/**
 * A LIST value of a query result: its element type and its elements as result values (null for NULL). Its text is
 * DuckDB's, as its JDBC driver's getString gives it: {@code [1, 2, NULL, a b]}, a string quoted only where it could
 * not be read back otherwise ({@code ['', 'NULL', 'a,b', 'it\'s']}).
 */
public record ListValue(DataType element, List<Object> values) {

    public ListValue {
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            sb.append(i > 0 ? ", " : "").append(v == null ? "NULL" : text(v));
        }
        return sb.append(']').toString();
    }

    /** Characters that make DuckDB quote a string element. */
    private static final String SPECIAL = ",'\"\\[]{}():=";

    /** One element's (or a struct field's) text, as DuckDB shows it inside a list or a struct. */
    static String text(Object v) {
        if (v instanceof StructValue || v instanceof ListValue || v instanceof MapValue) {
            return v.toString();
        }
        if (v instanceof String s) {
            return quoted(s);
        }
        if (v instanceof java.time.OffsetDateTime t) {
            return quoted(ZonedTimestamps.format(ZonedTimestamps.micros(t), t.getOffset()));
        }
        if (v instanceof java.time.LocalDateTime || v instanceof java.time.LocalTime
                || v instanceof java.time.LocalDate) {
            return quoted(Values.format(v)); // the colons of a time, a date's " (BC)", make DuckDB quote it
        }
        return Values.format(v);
    }

    private static String quoted(String s) {
        return needsQuotes(s) ? "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'" : s;
    }

    private static boolean needsQuotes(String s) {
        if (s.isEmpty() || s.equalsIgnoreCase("NULL") || Character.isWhitespace(s.charAt(0))
                || Character.isWhitespace(s.charAt(s.length() - 1))) {
            return true;
        }
        for (int i = 0; i < s.length(); i++) {
            if (SPECIAL.indexOf(s.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }
}
