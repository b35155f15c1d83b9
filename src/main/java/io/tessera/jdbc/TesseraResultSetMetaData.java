package io.tessera.jdbc;

import io.tessera.api.ResultColumn;
import io.tessera.storage.TypeKind;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * The columns of a result set: names (the label is the name: Tessera names a column by its alias or expression),
 * types as {@link java.sql.Types}, precision and scale, nullability and the classes {@code getObject} returns. A
 * column's table is not tracked through a query: its table, schema and catalog names are empty, as JDBC allows.
 */
final class TesseraResultSetMetaData implements ResultSetMetaData {

    private final List<ResultColumn> columns;

    TesseraResultSetMetaData(List<ResultColumn> columns) {
        this.columns = columns;
    }

    private ResultColumn column(int column) throws SQLException {
        if (column < 1 || column > columns.size()) {
            throw new SQLException("column index " + column + " is out of range (1.." + columns.size() + ")",
                    "07009");
        }
        return columns.get(column - 1);
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return column(column).type().kind() == TypeKind.VARCHAR;
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).nullable() ? columnNullable : columnNoNulls;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return JdbcTypes.isSigned(column(column).type());
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        return JdbcTypes.displaySize(column(column).type());
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return JdbcTypes.precision(column(column).type());
    }

    @Override
    public int getScale(int column) throws SQLException {
        return JdbcTypes.scale(column(column).type());
    }

    @Override
    public String getTableName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return JdbcTypes.code(column(column).type());
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return JdbcTypes.name(column(column).type());
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return JdbcTypes.className(column(column).type());
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
