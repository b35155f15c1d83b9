package io.tessera.storage;

import java.util.List;

/**
 * A STRUCT value of a query result: its type and its fields' values as result values (null for NULL). Its text is
 * DuckDB's, as its JDBC driver's getString gives it: {@code {'a': 1, 'b': x y, 'c': NULL}}, a string field quoted only
 * where it could not be read back otherwise, as a list's string elements are ({@link ListValue}).
 */
public record StructValue(DataType type, List<Object> values) {

    public StructValue {
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }

    /** The value of the field named {@code name}; an IllegalArgumentException when there is none. */
    public Object get(String name) {
        int p = StructCodec.position(type, name);
        if (p == 0) {
            throw new IllegalArgumentException("no field " + name + " in " + type);
        }
        return values.get(p - 1);
    }

    /** The fields' names and values in order. */
    public java.util.Map<String, Object> asMap() {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
            m.put(type.fields().get(i).name(), values.get(i));
        }
        return m;
    }

    @Override
    public String toString() {
        if (type.isUnnamedStruct()) {
            // DuckDB's text of row(1, 'a'): (1, a)
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < values.size(); i++) {
                Object v = values.get(i);
                sb.append(i > 0 ? ", " : "").append(v == null ? "NULL" : ListValue.text(v));
            }
            return sb.append(')').toString();
        }
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            String name = type.fields().get(i).name();
            sb.append(i > 0 ? ", " : "").append('\'').append(name.replace("'", "''")).append("': ")
                    .append(v == null ? "NULL" : ListValue.text(v));
        }
        return sb.append('}').toString();
    }
}
