package io.tessera.jdbc;

import io.tessera.storage.StructValue;

import java.sql.SQLException;
import java.sql.Struct;
import java.util.Map;

/**
 * A STRUCT value as JDBC's {@link Struct}, as DuckDB's driver gives one from {@code getObject}: its attributes are
 * the fields' values in order as {@code getObject} gives values of their types (a DATE as a java.sql.Date),
 * {@link #getMap()} the same by field name, printed as that map as DuckDB's driver prints its structs.
 */
final class StructObject implements Struct {

    private final StructValue struct;

    StructObject(StructValue struct) {
        this.struct = struct;
    }

    @Override
    public String getSQLTypeName() {
        return struct.type().toString();
    }

    @Override
    public Object[] getAttributes() {
        return struct.values().stream().map(ValueConversions::standard).toArray();
    }

    @Override
    public Object[] getAttributes(Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw JdbcErrors.unsupported("type maps");
        }
        return getAttributes();
    }

    /** The fields by name, in order, as DuckDB's driver's {@code DuckDBStruct.getMap()} gives them. */
    public Map<String, Object> getMap() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        struct.asMap().forEach((k, v) -> m.put(k, ValueConversions.standard(v)));
        return m;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StructObject s && s.struct.equals(struct);
    }

    @Override
    public int hashCode() {
        return struct.hashCode();
    }

    /** The fields by name, as DuckDB's driver's struct prints itself ({@code {a=1, b=x}}; getString gives SQL's text). */
    @Override
    public String toString() {
        return getMap().toString();
    }
}
