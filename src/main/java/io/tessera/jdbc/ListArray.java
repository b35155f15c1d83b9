package io.tessera.jdbc;

import io.tessera.storage.ListValue;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * A LIST value as JDBC's {@link Array}: its elements as {@code getObject} gives values of the element type (a DATE as
 * a java.sql.Date), in an Object[]. Its text is DuckDB's ({@code [1, 2, NULL]}).
 */
final class ListArray implements Array {

    private final ListValue list;

    ListArray(ListValue list) {
        this.list = list;
    }

    @Override
    public String getBaseTypeName() {
        return JdbcTypes.name(list.element());
    }

    @Override
    public int getBaseType() {
        return JdbcTypes.code(list.element());
    }

    @Override
    public Object getArray() {
        Object[] out = new Object[list.values().size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ValueConversions.standard(list.values().get(i));
        }
        return out;
    }

    @Override
    public Object getArray(Map<String, Class<?>> map) {
        return getArray();
    }

    /** Elements {@code index} (1 the first) to {@code index + count - 1}. */
    @Override
    public Object getArray(long index, int count) throws SQLException {
        Object[] all = (Object[]) getArray();
        if (index < 1 || count < 0 || index - 1 + count > all.length) {
            throw new SQLException("elements " + index + " to " + (index + count - 1) + " of a list of " + all.length,
                    "2202E");
        }
        return java.util.Arrays.copyOfRange(all, (int) index - 1, (int) index - 1 + count);
    }

    @Override
    public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException {
        return getArray(index, count);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        throw JdbcErrors.unsupported("an ARRAY's elements as a ResultSet: use getArray()");
    }

    @Override
    public ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException {
        return getResultSet();
    }

    @Override
    public ResultSet getResultSet(long index, int count) throws SQLException {
        return getResultSet();
    }

    @Override
    public ResultSet getResultSet(long index, int count, Map<String, Class<?>> map) throws SQLException {
        return getResultSet();
    }

    @Override
    public void free() {
    }

    @Override
    public String toString() {
        return list.toString();
    }
}
