package io.tessera.storage;

import java.util.List;

/**
 * A MAP value of a query result: its type and its entries' keys and values as result values, in the map's order (a
 * value may be null for NULL; a key never is). Its text is DuckDB's, as its cast to VARCHAR gives it: {@code {a=1,
 * b=NULL}}, a string key or value quoted only where it could not be read back otherwise, as a list's elements are
 * ({@link ListValue}).
 */
public record MapValue(DataType type, List<Object> keys, List<Object> values) {

    public MapValue {
        keys = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(keys));
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }

    /** The entries in order, as DuckDB's JDBC driver gives a MAP ({@code getObject}: a LinkedHashMap). */
    public java.util.Map<Object, Object> asMap() {
        java.util.Map<Object, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            m.put(keys.get(i), values.get(i));
        }
        return m;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < keys.size(); i++) {
            Object v = values.get(i);
            sb.append(i > 0 ? ", " : "").append(ListValue.text(keys.get(i))).append('=')
                    .append(v == null ? "NULL" : ListValue.text(v));
        }
        return sb.append('}').toString();
    }
}
