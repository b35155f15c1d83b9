package io.tessera.storage;

import java.util.List;

/**
 * A LIST value of a query result: its element type and its elements as result values (null for NULL). Its text is
 * DuckDB's, as its JDBC driver's getString gives it: {@code [1, 2, NULL]}, strings unquoted.
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

    private static String text(Object v) {
        if (v instanceof java.time.OffsetDateTime t) {
            return ZonedTimestamps.format(ZonedTimestamps.micros(t), t.getOffset());
        }
        return Values.format(v);
    }
}
